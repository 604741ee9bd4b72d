"""Asking the running server to stop and start again: a restore from /setup writes its swap's
journal, and the next start swaps the data in before anything opens it (backups/restore.py)."""

import threading

_restart = threading.Event()


def request_restart() -> None:
    _restart.set()


def restart_requested() -> bool:
    return _restart.is_set()
