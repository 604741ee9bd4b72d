"""The data directory as a server holds it: writable, and held by one server at a time.

Two servers on one directory would each run the queue consumer and the sender, and each believe the
other's in-flight sends were interrupted. The lock is an OS file lock (py-filelock: flock on POSIX,
msvcrt on Windows), so it is released when the process ends however it ends, kill -9 included.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from filelock import FileLock, Timeout

from appliance.core.db import StartupError

LOCK_NAME = "server.lock"


def check_writable(data_dir: Path) -> None:
    """Create the directory if needed and prove a file can be written in it; a sentence if not."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=data_dir, prefix=".write-check-"):
            pass
    except OSError as exc:
        raise StartupError(f"the data directory {data_dir} is not writable ({exc.strerror or exc}); "
                           "choose another with --data-dir or APPLIANCE_DATA_DIR, or give this user write "
                           "access to it") from None


def make_private(data_dir: Path) -> None:
    """The data directory holds the database, the master key and customers' files: only this user
    may enter it (0700), and what this process creates from now on is its alone (umask 077: files
    0600, folders 0700). The entries at the top get the same modes, for directories made by an
    earlier version. No-op where modes do not exist (Windows)."""
    if os.name != "posix":
        return
    os.umask(0o077)
    os.chmod(data_dir, 0o700)
    for entry in data_dir.iterdir():
        if entry.is_symlink():
            continue
        os.chmod(entry, 0o700 if entry.is_dir() else 0o600)


def hold(data_dir: Path) -> FileLock:
    """Take the data directory for this server; another server on it already: a sentence."""
    lock = FileLock(os.fspath(data_dir / LOCK_NAME), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise StartupError(f"another appliance server is already using the data directory {data_dir}; stop it "
                           "first, or give this one its own directory with --data-dir") from None
    return lock
