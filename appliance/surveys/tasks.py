"""The surveys' queue tasks: sending what came due, at once after a close decided a survey with no
delay (`send_after_commit`), and every minute for the rest."""

from __future__ import annotations

from datetime import datetime

from huey import crontab
from sqlmodel import Session

from appliance.core import clock, runtime
from appliance.core.db import after_commit
from appliance.core.queue import huey
from appliance.surveys.sender import send_due


def send_after_commit(session: Session, due_at: datetime) -> None:
    """A survey due now (a delay of 0) leaves once the close's decision is committed; later ones
    are found by the minute task."""
    if due_at <= clock.now() and not session.info.get("survey_wake"):
        session.info["survey_wake"] = True
        after_commit(session, send_due_surveys)


@huey.task()
def send_due_surveys() -> None:
    send_due(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def send_due_surveys_every_minute() -> None:
    send_due(runtime.get().db)
