"""The send queue is the messages table (`send_state`): a message is `queued` from the request's
commit, `inflight` while the network is asked, and answered after (sent, failed or queued again for
a retry). This module is that state machine: claiming and answering, each a transaction of the
caller's; the network call (network.py) is outside any, and lanes.py runs the two in turn.

- **Order**: a recipient's next message is claimed only once the one before it is answered, so two
  messages to one person never race each other; different recipients go in parallel.
- **Never twice**: a send that may have reached the network without an answer (a read timeout, a
  crash while in the air) is not repeated: it fails with -2 or -3. Each send carries our message id
  as `biz_opaque_callback_data`; a status webhook carrying it later links the wamid and moves the
  message on (messages/inbound/service.py).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session

from appliance.core import clock, events
from appliance.core.rows import driver_connection, read_row, stored
from appliance.graph_api.client import GraphError
from appliance.graph_api.errors import explain
from appliance.messages.models import Message
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount

log = logging.getLogger("appliance.sender")

MAX_ATTEMPTS = 6
MAYBE_DELIVERED = -2  # no answer after the request left (catalog: graph_api/network_errors.json)
INTERRUPTED = -3  # in the air when the appliance stopped
DISCONNECTED = -4  # the number was disconnected before the message went
CANCELLED = -5  # its broadcast was cancelled while it waited
CANCELLED = -5  # its broadcast was cancelled while it waited


@dataclass(frozen=True)
class Job:
    """One claimed message, with what the network call needs."""
    message_id: str
    conversation_id: str
    to: str
    kind: str
    payload: object
    reply_to_wamid: str | None
    attempts: int


@dataclass(frozen=True)
class Line:
    """A number as the sender needs it: our id, the network's, its account and token, its tier."""
    phone_number_pk: str
    organization_id: str
    phone_number_id: str
    waba_pk: str
    token: str
    rate: int


@dataclass
class Answer:
    """What became of one job."""
    job: Job
    outcome: str  # sent | retry | failed | wait
    wamid: str | None = None
    error: GraphError | None = None
    delay: float = 0.0


# Claiming and answering (transactions) --------------------------------------------------------------

def _stored_time(session: Session, moment) -> str:
    """A time as the driver stores it (statements here go to the driver, past the ORM's types)."""
    return stored(session, Message.__table__.c.updated_at, moment)


def read_line(session: Session, phone_number_pk: str) -> Line | None:
    """The number as the sender needs it; None once it is disconnected (or gone)."""
    number = read_row(session, PhoneNumber.__table__, id=phone_number_pk, remember=False)
    if number is None or number.disconnected_at is not None:
        return None
    account = read_row(session, BusinessAccount.__table__, id=number.waba_pk, remember=False)
    token, _ = wabas_service.credentials(account)
    return Line(number.id, number.organization_id, number.phone_number_id, number.waba_pk, token,
                number.messages_per_second)


_CLAIMABLE = """
    SELECT m.id, m.conversation_id, m.customer_wa_id, m.type, m.payload, m.reply_to_wamid, m.send_attempts
    FROM messages m
    WHERE m.phone_number_pk = ? AND m.send_state = 'queued' AND m.next_attempt_at <= ?
      AND NOT EXISTS (SELECT 1 FROM messages p WHERE p.phone_number_pk = m.phone_number_pk
                      AND p.customer_wa_id = m.customer_wa_id AND p.send_state IS NOT NULL AND p.id < m.id)
    ORDER BY m.id LIMIT ?"""


def claim(session: Session, phone_number_pk: str, limit: int) -> list[Job]:
    """The next messages that may go now (the first of each recipient), marked in flight."""
    if limit <= 0:
        return []
    driver = driver_connection(session)
    rows = driver.execute(_CLAIMABLE, (phone_number_pk, _stored_time(session, clock.now()), limit)).fetchall()
    if not rows:
        return []
    driver.executemany("UPDATE messages SET send_state = 'inflight', send_attempts = send_attempts + 1 WHERE id = ?",
                       [(row[0],) for row in rows])
    # SQLite hands the JSON payload over as text; psycopg has already parsed it.
    return [Job(row[0], row[1], row[2], row[3], json.loads(row[4]) if isinstance(row[4], str) else row[4], row[5],
                row[6] + 1) for row in rows]


def record(session: Session, line: Line, answers: list[Answer]) -> None:
    """Write what the network answered; one event per message that changed for the world."""
    if not answers:
        return
    now = clock.now()
    stamp = _stored_time(session, now)
    driver = driver_connection(session)
    changed: list[dict] = []
    failed: list[Answer] = []
    for answer in answers:
        if answer.outcome == "wait":  # not an attempt: the pair rate or a stop put it back
            at = _stored_time(session, now + timedelta(seconds=answer.delay))
            driver.execute("UPDATE messages SET send_state = 'queued', send_attempts = send_attempts - 1, "
                           "next_attempt_at = ? WHERE id = ? AND send_state = 'inflight'", (at, answer.job.message_id))
        elif answer.outcome == "retry":
            at = _stored_time(session, now + timedelta(seconds=answer.delay))
            driver.execute("UPDATE messages SET send_state = 'queued', next_attempt_at = ?, error_code = ?, "
                           "error_title = ?, updated_at = ? WHERE id = ? AND send_state = 'inflight'",
                           (at, answer.error.code, explain(answer.error.code).title[:200], stamp, answer.job.message_id))
        elif answer.outcome == "sent":
            # A status webhook may have got here first (it carries our id): keep the later status.
            # A failure that only meant "we do not know" (-2, -3) is overruled: the network took it.
            # (SET expressions read the row as it was, so the CASE sees the old error_code.)
            driver.execute("UPDATE messages SET send_state = NULL, wamid = coalesce(wamid, ?), error_code = NULL, "
                           "error_title = NULL, error_details = NULL, updated_at = ?, "
                           "status = CASE WHEN status = 'pending' OR (status = 'failed' AND error_code IN (?, ?)) "
                           "THEN 'sent' ELSE status END WHERE id = ?",
                           (answer.wamid, stamp, MAYBE_DELIVERED, INTERRUPTED, answer.job.message_id))
            changed.append({"messageId": answer.job.message_id, "status": "sent", "wamid": answer.wamid})
        else:
            failed.append(answer)
    if failed:
        _fail(session, [(a.job.message_id, a.error) for a in failed])
        changed += [{"messageId": a.job.message_id, "status": "failed", "errorCode": a.error.code} for a in failed]
        if any(a.error.token_expired for a in failed):
            wabas_service.do_mark_needs_reauth(session, waba_pk=line.waba_pk)
    if changed:
        conversations = {a.job.message_id: a.job.conversation_id for a in answers}
        events.emit_many(session, events.MESSAGE_UPDATED, organization_id=line.organization_id,
                         items=[{**c, "conversationId": conversations[c["messageId"]]} for c in changed])


def _fail(session: Session, failures: list[tuple[str, GraphError]]) -> None:
    """Fail these messages with the network's (or our) code, explained by the catalog, unless a
    status webhook already proved one reached the network (it has a wamid); all leave the queue."""
    stamp = _stored_time(session, clock.now())
    driver = driver_connection(session)
    driver.executemany("UPDATE messages SET status = 'failed', error_code = ?, error_title = ?, error_details = ?, "
                       "updated_at = ? WHERE id = ? AND wamid IS NULL",
                       [(error.code, explain(error.code).title[:200], (error.details or error.message or "")[:1000] or None,
                         stamp, message_id) for message_id, error in failures])
    driver.executemany("UPDATE messages SET send_state = NULL WHERE id = ?", [(message_id,) for message_id, _ in failures])


def _fail_where(session: Session, condition: str, params: tuple, code: int) -> int:
    """Fail the queued or in-flight messages matching `condition` with one of our codes; one
    `message.updated` each."""
    rows = driver_connection(session).execute(
        f"SELECT id, organization_id, conversation_id FROM messages WHERE {condition}", params).fetchall()
    error = GraphError(0, code, explain(code).title)
    _fail(session, [(row[0], error) for row in rows])
    for organization_id in {row[1] for row in rows}:
        events.emit_many(session, events.MESSAGE_UPDATED, organization_id=organization_id, items=[
            {"messageId": row[0], "conversationId": row[2], "status": "failed", "errorCode": code}
            for row in rows if row[1] == organization_id])
    return len(rows)

def fail_disconnected(session: Session, phone_number_pk: str) -> int:
    """A number disconnected with messages still queued: they fail (-4) instead of waiting forever."""
    return _fail_where(session, "phone_number_pk = ? AND send_state = 'queued'", (phone_number_pk,), DISCONNECTED)


def cancel_queued(session: Session, message_ids: list[str]) -> int:
    """Those of these messages still waiting their turn (not in the air) fail with -5: their
    broadcast was cancelled. Answers how many."""
    if not message_ids:
        return 0
    marks = ", ".join("?" * len(message_ids))
    return _fail_where(session, f"send_state = 'queued' AND id IN ({marks})", tuple(message_ids), CANCELLED)


def recover_interrupted(database) -> int:
    """At start-up: sends that were in the air when the process stopped may or may not have reached
    the network. They are failed with -3, not repeated; a status webhook naming them revives them."""
    with database.unit_of_work(write=True) as session:
        return _fail_where(session, "send_state = 'inflight'", (), INTERRUPTED)


def numbers_with_due(database) -> list[str]:
    with database.unit_of_work(write=False) as session:
        now = _stored_time(session, clock.now())
        return [row[0] for row in driver_connection(session).execute(
            "SELECT DISTINCT phone_number_pk FROM messages WHERE send_state = 'queued' AND next_attempt_at <= ?", (now,))]
