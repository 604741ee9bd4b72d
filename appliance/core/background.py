"""A server's background thread that sleeps until woken or until its own next look: the bots'
runner and the broadcasts' runner are each one. Started and stopped by server.py; elsewhere
(tests, the CLI) they do not run and their work goes through queue tasks instead."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from datetime import timedelta

from appliance.core import clock


class WakeableThread(ABC):
    """`_run` loops until `_stopping` is set, waiting on `_woken` between passes; `wake()` cuts a
    wait short. A subclass names its thread and writes `_run`."""

    NAME = "background"
    # How often a sleeping thread looks at the project's clock: a test that moves the clock sees
    # the thread act at the moment it moved to, within this many seconds.
    CLOCK_LOOK = 1.0

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

    def _sleep(self, seconds: float) -> None:
        """Sleep `seconds` of the project's clock, or until woken."""
        until = clock.now() + timedelta(seconds=seconds)
        while not self._woken.is_set() and not self._stopping.is_set():
            left = (until - clock.now()).total_seconds()
            if left <= 0:
                return
            self._woken.wait(min(left, self.CLOCK_LOOK))

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
