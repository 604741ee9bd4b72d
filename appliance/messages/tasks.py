"""The messages domain's queue tasks: fetching inbound media, read marks, and sending where no
sender lanes run (tests, the CLI); `wake_after_commit` picks lanes or a task after a commit."""

from __future__ import annotations

import threading
from datetime import timedelta

from huey import crontab
from sqlmodel import Session

from appliance.core import runtime
from appliance.core.db import after_commit
from appliance.core.queue import huey
from appliance.messages.inbound import media, receipts
from appliance.messages.sending.lanes import send_queued, sender
from appliance.messages.sending.queue import numbers_with_due


@huey.task()
def fetch_inbound_media(message_id: str) -> None:
    outcome = media.fetch(runtime.get().db, message_id)
    if outcome is not None and outcome[0] == "pending":  # a retryable failure: try again later
        fetch_inbound_media.schedule((message_id,), delay=media.retry_delay(outcome[1]))


@huey.periodic_task(crontab(minute="*/10"))
def fetch_stuck_media() -> None:
    for message_id in media.list_stuck(runtime.get().db, older_than=timedelta(minutes=30)):
        fetch_inbound_media(message_id)


@huey.task()
def send_read_mark(conversation_id: str, typing: bool) -> None:
    """Blue ticks (or "typing…") for the customer, as the messaging settings allow."""
    receipts.send_read_mark(runtime.get().db, conversation_id, typing=typing)


_woken: set[str] = set()  # numbers whose inline send task is queued and not started
_woken_lock = threading.Lock()


def wake_after_commit(session: Session, phone_number_pk: str) -> None:
    """Once the message is committed, its number's sender looks for work."""
    scheduled = session.info.setdefault("send_wake", set())
    if phone_number_pk not in scheduled:
        scheduled.add(phone_number_pk)
        after_commit(session, lambda: _wake(phone_number_pk))


def _wake(phone_number_pk: str) -> None:
    if sender.running:
        sender.wake(phone_number_pk)
        return
    with _woken_lock:
        if phone_number_pk in _woken:
            return  # that task, when it starts, sends this one too
        _woken.add(phone_number_pk)
    send_queued_task(phone_number_pk)


@huey.task()
def send_queued_task(phone_number_pk: str) -> None:
    with _woken_lock:
        _woken.discard(phone_number_pk)
    send_queued(runtime.get().db, phone_number_pk)


@huey.periodic_task(crontab(minute="*"))
def send_due_sweep() -> None:
    """Retries that came due, where no sender thread runs (the server's looks every second)."""
    if sender.running:
        return
    for phone_number_pk in numbers_with_due(runtime.get().db):
        send_queued(runtime.get().db, phone_number_pk)
