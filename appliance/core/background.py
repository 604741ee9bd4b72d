"""A server's background thread that sleeps until woken or until its own next look: the bots'
runner and the broadcasts' runner are each one. Started and stopped by server.py; elsewhere
(tests, the CLI) they do not run and their work goes through queue tasks instead."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod


class WakeableThread(ABC):
    """`_run` loops until `_stopping` is set, waiting on `_woken` between passes; `wake()` cuts a
    wait short. A subclass names its thread and writes `_run`."""

    NAME = "background"

    def __init__(self):
        self._woken = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._database = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, database) -> None:
        self._database = database
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name=self.NAME, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._woken.set()

    def stop(self, timeout: float = 15.0) -> None:
        """Finish the pass in hand and end (at most `timeout` seconds of waiting)."""
        thread, self._thread = self._thread, None
        self._stopping.set()
        self._woken.set()
        if thread is not None:
            thread.join(timeout)

    @abstractmethod
    def _run(self) -> None:
        """The thread's loop: a pass, then `self._woken.wait(...)`, until `self._stopping` is set."""
