"""The agenda's queue tasks: appointments pushed to the connected calendar after the commit that
changed them (`sync_after_commit`), and every minute for what is left (sync.py)."""

from __future__ import annotations

from huey import crontab
from sqlmodel import Session

from appliance.agenda.sync import push_pending
from appliance.core import runtime
from appliance.core.db import after_commit
from appliance.core.queue import huey


def sync_after_commit(session: Session) -> None:
    if not session.info.get("agenda_sync"):
        session.info["agenda_sync"] = True
        after_commit(session, push_appointments)


@huey.task()
def push_appointments() -> None:
    push_pending(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def push_appointments_every_minute() -> None:
    push_pending(runtime.get().db)
