"""A CSV uploaded for a preview, kept until the person confirms the import (or for an hour).

The console shows what an import would do before doing it; the file then waits here, under the
data directory (not in the session cookie or a hidden field: files reach 5 MB), named by a random
token and its organization, so a token of one organization opens nothing of another."""

from __future__ import annotations

import re
from pathlib import Path

from appliance.core import clock, crypto, runtime
from appliance.core.errors import NotFound

KEEP_SECONDS = 3600
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def _folder() -> Path:
    folder = runtime.get().settings.data_dir / "staged-imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _path(organization_id: str, token: str) -> Path:
    if not _TOKEN.match(token or ""):
        raise NotFound("This preview has expired; upload the file again.", code="import_preview_expired")
    return _folder() / f"{organization_id}-{token}.csv"


def stage(organization_id: str, content: bytes) -> str:
    """Keep `content`; answers the token that finds it again. Older files are swept."""
    now = clock.now().timestamp()
    for old in _folder().glob("*.csv"):
        if now - old.stat().st_mtime > KEEP_SECONDS:
            old.unlink(missing_ok=True)
    token = crypto.random_token(24)
    _path(organization_id, token).write_bytes(content)
    return token


def read(organization_id: str, token: str) -> bytes:
    path = _path(organization_id, token)
    if not path.is_file() or clock.now().timestamp() - path.stat().st_mtime > KEEP_SECONDS:
        raise NotFound("This preview has expired; upload the file again.", code="import_preview_expired")
    return path.read_bytes()


def discard(organization_id: str, token: str) -> None:
    _path(organization_id, token).unlink(missing_ok=True)
