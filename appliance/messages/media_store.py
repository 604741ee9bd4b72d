"""Where media files of messages live on disk (the data directory, per organization), written whole:
a temporary file, fsync, rename, before any record names them."""

from __future__ import annotations

import os
from pathlib import Path

from appliance.core import runtime


def upload_path(organization_id: str, upload_pk: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / "uploads" / upload_pk


def inbound_path(organization_id: str, message_id: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / message_id


def write_atomically(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".part")
    with open(temporary, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
