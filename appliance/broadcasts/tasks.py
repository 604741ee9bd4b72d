"""The broadcasts' queue tasks, where no broadcast thread runs (tests, the CLI): sending after the
commit that started or scheduled a broadcast (`wake`), and the minute check."""

from __future__ import annotations

from datetime import datetime

from huey import crontab

from appliance.broadcasts.runner import broadcast_runner, run_all
from appliance.core import clock, runtime
from appliance.core.queue import huey


def wake(broadcast_id: str, *, at: datetime | None = None) -> None:
    """A broadcast to start now or at `at` (after the commit that made it)."""
    if broadcast_runner.running:
        broadcast_runner.wake()
        return
    delay = max(0.0, (at - clock.now()).total_seconds()) if at is not None else 0.0
    if delay:
        run_broadcasts.schedule(delay=delay)
    else:
        run_broadcasts()


@huey.task()
def run_broadcasts() -> None:
    if broadcast_runner.running:
        # Queued by a process without the thread (a web process on PostgreSQL) and run where it
        # runs: the thread carries the broadcast on at its pace and sees it complete. Run here, the
        # task fed one batch and left the rest, and the completion, to the thread's next look (up to
        # its 30 s idle sleep).
        broadcast_runner.wake()
        return
    run_all(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def broadcasts_minute_check() -> None:
    """The reference's minute check: scheduled broadcasts start by themselves, and a running one
    whose wake-up was lost (a restart) carries on, where no broadcast thread runs."""
    if not broadcast_runner.running:
        run_all(runtime.get().db)
