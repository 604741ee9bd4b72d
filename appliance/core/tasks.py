"""The outbox's queue tasks, for where no dispatcher thread runs (tests, the CLI), and the minute
sweep; `wake_dispatcher` picks the thread, a task, or (on PostgreSQL) the commit's NOTIFY after a
commit that emitted events."""

from __future__ import annotations

import threading

from huey import crontab

from appliance.core import queue, runtime
from appliance.core.dispatcher import dispatch_pending, dispatcher
from appliance.core.queue import huey

_wake = threading.Lock()  # held while a queued wake-up task has not started yet


def wake_dispatcher() -> None:
    if dispatcher.running:
        dispatcher.wake()
        return
    if queue.on_postgres():
        # Another process runs the dispatcher (the workers' lease holder): its commit listener hears
        # this commit's NOTIFY and wakes it (worker_registry.py). A queued wake-up would run there,
        # and the latch below, released only where the task runs, would stay held here for good:
        # a web process queued one wake-up and then none, and its events (customers' messages)
        # waited for the minute sweep.
        return
    # Commits that land while a wake-up task is already queued need no other: that dispatch,
    # when it starts, reads past them too.
    if _wake.acquire(blocking=False):
        try:
            dispatch_outbox()
        except BaseException:
            if _wake.locked():
                _wake.release()
            raise


@huey.task()
def dispatch_outbox() -> None:
    """Woken after commits that emitted events (when no dispatcher thread runs)."""
    if _wake.locked():
        _wake.release()  # from here on, a new commit queues a new wake-up
    dispatch_pending(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def sweep_outbox() -> None:
    """Safety net: events committed just before a crash, whose wake-up was lost, go out here."""
    dispatch_pending(runtime.get().db)
