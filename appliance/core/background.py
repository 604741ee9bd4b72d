"""A server's background thread that sleeps until woken or until its own next look, by the
project's clock: the bots' runner, the broadcasts' runner and the webhooks' sender are each one.
Started and stopped with the server's other workers (appliance/worker_registry.py); where they do
not run (the CLI, tests that run work inline) their work goes through queue tasks instead."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from datetime import datetime, timedelta

from appliance.core import clock


class WakeableThread(ABC):
    """`_run` loops until `_stopping` is set: each pass begins with `_begin_pass()`, then waits
    with `_sleep(...)`; `wake()` cuts a wait short. A subclass names its thread and writes `_run`."""

    NAME = "background"
    # How often a sleeping thread looks at the project's clock: a test that moves the clock sees
    # the thread act at the moment it moved to, within this many seconds.
    CLOCK_LOOK = 1.0

    def __init__(self):
        self._woken = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._database = None
        self._pass_began = clock.now()
        self._looked_at: datetime | None = None  # while asleep: the clock when it last looked

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, database) -> None:
        self._database = database
        self._stopping.clear()
        self._looked_at = None
        self._thread = threading.Thread(target=self._run, name=self.NAME, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._woken.set()

    def asleep_at(self, moment: datetime) -> bool:
        """Whether the thread sleeps, not woken, having looked at the clock at `moment` or later:
        whatever that time called for, it has done. (Tests move the clock, then wait for this.)"""
        looked = self._looked_at
        return looked is not None and looked >= moment and not self._woken.is_set()

    def _begin_pass(self) -> None:
        """Wake-ups from here on call for another pass; this one's waits count from now."""
        self._woken.clear()
        self._pass_began = clock.now()

    def _sleep(self, seconds: float) -> None:
        """Sleep until `seconds` of the project's clock after this pass began, or until woken.
        (From the pass's beginning, not from the call: the wait was worked out from what the pass
        read, so a clock moved meanwhile is not slept past.)"""
        until = self._pass_began + timedelta(seconds=seconds)
        try:
            while not self._woken.is_set() and not self._stopping.is_set():
                now = clock.now()
                left = (until - now).total_seconds()
                if left <= 0:
                    return
                self._looked_at = now
                self._woken.wait(min(left, self.CLOCK_LOOK))
        finally:
            self._looked_at = None  # awake: a pass may follow

    def stop(self, timeout: float = 15.0) -> None:
        """Finish the pass in hand and end (at most `timeout` seconds of waiting)."""
        thread, self._thread = self._thread, None
        self._stopping.set()
        self._woken.set()
        if thread is not None:
            thread.join(timeout)

    @abstractmethod
    def _run(self) -> None:
        """The thread's loop: `_begin_pass()`, a pass, then `_sleep(...)`, until `_stopping` is set."""
