""""Restore from a backup" on a fresh installation's /setup: the uploaded archive is checked in a
thread (its progress readable by the page), then left for the next start to swap in (a journal),
and the server restarts itself (core/lifecycle): nothing holds the data while it changes.

One at a time, and only while nobody has an account (the page checks that, as /setup does). The
upload is removed whatever the outcome; a refusal says why, and the installation stays new."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from appliance.backups import restore
from appliance.backups.archive import ArchiveRefused
from appliance.core import lifecycle
from appliance.core.errors import Conflict
from appliance.settings import Settings

log = logging.getLogger(__name__)

CHECKING, RESTARTING, FAILED = "CHECKING", "RESTARTING", "FAILED"


@dataclass(frozen=True)
class Progress:
    state: str
    read_bytes: int = 0
    total_bytes: int = 1
    reason: str | None = None

    @property
    def percent(self) -> int:
        return min(100, self.read_bytes * 100 // max(1, self.total_bytes))


_guard = threading.Lock()
_current: Progress | None = None


def current() -> Progress | None:
    return _current


def _set(progress: Progress) -> None:
    global _current
    _current = progress


def begin(upload: Path, key_text: str, settings: Settings) -> None:
    """Check `upload` (a file of this process's own: it is removed at the end) in a thread; 409
    restore_running while one is checked or being put in place."""
    with _guard:
        if _current is not None and _current.state in (CHECKING, RESTARTING):
            raise Conflict("A backup is being restored already; wait for it.", code="restore_running")
        _set(Progress(CHECKING, total_bytes=upload.stat().st_size))
    threading.Thread(target=_run, args=(upload, key_text, settings), name="restore", daemon=True).start()


def _run(upload: Path, key_text: str, settings: Settings) -> None:
    try:
        checked = restore.check(upload, key_text, settings.data_dir, secret_setting=settings.secret_key,
                                progress=lambda done: _set(replace(_current, read_bytes=done)))
        restore.pending_swap(checked, settings.data_dir)
        _set(replace(_current, state=RESTARTING, read_bytes=_current.total_bytes))
        log.warning("restoring the backup of %s from /setup: starting again", checked.manifest.get("createdAt"))
        lifecycle.request_restart()
    except ArchiveRefused as exc:
        _set(replace(_current, state=FAILED, reason=str(exc)))
    except Exception as exc:  # noqa: BLE001 -- the page says it; the log has the rest
        log.exception("restore from /setup failed")
        _set(replace(_current, state=FAILED, reason=f"The restore failed: {type(exc).__name__}: {exc}"))
    finally:
        upload.unlink(missing_ok=True)
