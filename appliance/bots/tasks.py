"""The bots' queue tasks: turns where no bot thread runs (tests, the CLI), the AI jobs a crash
lost, and the minute sweep; `wake_after_commit` picks the thread or a task once a turn is due."""

from __future__ import annotations

from datetime import datetime

from huey import crontab
from sqlmodel import Session

from appliance.bots import ai_step
from appliance.bots.runner import bot_runner, run_due
from appliance.core import clock, runtime
from appliance.core.db import after_commit
from appliance.core.queue import huey


def wake_after_commit(session: Session, due_at: datetime) -> None:
    """Once the commit made a turn due, the runner (or a queue task) looks at it in time."""
    earliest = session.info.get("bot_wake")
    if earliest is None:
        earliest = session.info["bot_wake"] = [due_at]
        after_commit(session, lambda: _wake(earliest[0]))
    elif due_at < earliest[0]:
        earliest[0] = due_at


def _wake(due_at: datetime) -> None:
    if bot_runner.running:
        bot_runner.wake(due_at)
        return
    delay = max(0.0, (due_at - clock.now()).total_seconds())
    if delay:
        run_due_turns.schedule(delay=delay)
    else:
        run_due_turns()


@huey.task()
def run_due_turns() -> None:
    run_due(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def resume_ai_jobs() -> None:
    """AI answers whose worker was lost (a crash) and that have waited too long, given out again."""
    ai_step.resume(runtime.get().db, older_than=ai_step.STALE_AFTER)


@huey.periodic_task(crontab(minute="*"))
def run_due_sweep() -> None:
    """Turns whose wake-up was lost (a restart, a crash), where no bot thread runs."""
    if not bot_runner.running:
        run_due(runtime.get().db)
