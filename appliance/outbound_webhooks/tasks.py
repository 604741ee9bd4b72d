"""The webhooks' queue tasks: sending where no sender thread runs (tests, the CLI), the minute
check for retries that fell due, and the minute check of conversation.unanswered; `wake` picks
the sender's thread or a task once deliveries are committed."""

from __future__ import annotations

from huey import crontab
from sqlmodel import Session

from appliance.core import clock, runtime
from appliance.core.db import after_commit
from appliance.core.queue import huey
from appliance.outbound_webhooks import unanswered
from appliance.outbound_webhooks.sender import deliver_due, sender_thread


def wake() -> None:
    """Deliveries were made (after their commit)."""
    if sender_thread.running:
        sender_thread.wake()
    else:
        deliver_webhooks()


def wake_after_commit(session: Session) -> None:
    """Once this transaction's deliveries are committed, the sender looks at them."""
    if not session.info.get("webhook_sender_wake"):
        session.info["webhook_sender_wake"] = True
        after_commit(session, wake)


@huey.task()
def deliver_webhooks() -> None:
    if sender_thread.running:  # queued before the thread started: a second deliverer could send twice
        sender_thread.wake()
        return
    deliver_due(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def webhooks_minute_check() -> None:
    """Retries that fell due, where no sender thread runs."""
    if not sender_thread.running:
        deliver_due(runtime.get().db)


@huey.periodic_task(crontab(minute="*"))
def unanswered_minute_check() -> int:
    """The conversation.unanswered deliveries that came due, written and woken; answers how many."""
    with runtime.get().db.unit_of_work(write=True) as session:
        written = unanswered.check(session, clock.now())
    if written:
        wake()
    return written
