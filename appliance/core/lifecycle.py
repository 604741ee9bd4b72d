"""Asking the running server to stop and start again (a restore from /setup writes its swap's
journal, and the next start swaps the data in before anything opens it: backups/restore.py), and
how to run this program again (the start again, a backup's own process)."""

import sys
import threading

_restart = threading.Event()


def request_restart() -> None:
    _restart.set()


def restart_requested() -> bool:
    return _restart.is_set()


def program_command() -> list[str]:
    """How to run this program again (a command's words follow): the bundle's binary, or this
    Python with `-m appliance`."""
    return [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "appliance"]
