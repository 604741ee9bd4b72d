"""What the rest of the appliance tells the broadcasts, through the outbox:

- a customer's message marks their broadcasts of the last 30 days from that number as replied
  (`repliedAt`: the first reply only), and says so (`broadcast.updated`, which the campaign's page
  follows);
- a message the network refused for the template's or the account's sake pauses its broadcast, so
  one bad template does not fail thousands of recipients one by one;
- a template paused, disabled or rejected at the network pauses the broadcasts running with it."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.broadcasts import runner, updates
from appliance.broadcasts.models import Broadcast, BroadcastRecipient
from appliance.broadcasts.service import REPLY_WINDOW
from appliance.core import clock, dispatcher, events
from appliance.core.rows import driver_connection, read_row, stored
from appliance.core.dispatcher import Event
from appliance.graph_api.errors import explain
from appliance.messages.models import Message

# Refusals that every later recipient would meet too: the template (missing, paused, disabled, its
# parameters) or the account (payment, lock, token).
STOPPING_CODES = frozenset({132000, 132001, 132012, 132015, 132016, 131042, 131031, 190, 0})
STOPPING_TEMPLATE_STATUSES = frozenset({"PAUSED", "DISABLED", "REJECTED", "DELETED", "PENDING_DELETION"})


# The listeners' names are their outbox cursors: renaming one would hear every past event again.
@dispatcher.subscribe(events.MESSAGE_CREATED, batch=True, when=lambda data: data.get("direction") == "in")
def count_replies(session: Session, batch: list[Event]) -> None:
    # Most inbound messages are to organizations with no campaign of the last 30 days: one query
    # a batch finds those that have one, instead of an UPDATE per message.
    organizations = {event.organization_id for event in batch}
    recent = _with_recent_broadcasts(session, organizations) if organizations else set()
    for event in batch:
        if event.data.get("direction") == "in" and event.organization_id in recent:
            _replied(session, event.data["messageId"])


def _with_recent_broadcasts(session: Session, organizations: set[str]) -> set[str]:
    since = _stored(session, clock.now() - REPLY_WINDOW)
    rows = driver_connection(session).execute(
        f"SELECT DISTINCT organization_id FROM broadcasts WHERE organization_id IN ({', '.join('?' * len(organizations))}) "
        "AND (completed_at IS NULL OR completed_at >= ?)", (*organizations, since)).fetchall()
    return {row[0] for row in rows}


def _replied(session: Session, message_id: str) -> None:
    message = read_row(session, Message.__table__, id=message_id, remember=False)
    if message is None or message.contact_id is None:
        return
    at = message.created_at
    stamp = _stored(session, at)
    since = _stored(session, at - REPLY_WINDOW)
    marked = driver_connection(session).execute(
        "UPDATE broadcast_recipients SET replied_at = ? WHERE contact_id = ? AND replied_at IS NULL "
        "AND sent_at IS NOT NULL AND sent_at >= ? AND sent_at <= ? "
        "AND broadcast_id IN (SELECT id FROM broadcasts WHERE phone_number_pk = ?) RETURNING broadcast_id",
        (stamp, message.contact_id, since, stamp, message.phone_number_pk)).fetchall()
    for broadcast_id in sorted({row[0] for row in marked}):
        updates.announce(session, organization_id=message.organization_id, broadcast_id=broadcast_id,
                         phone_number_pk=message.phone_number_pk, change="replied")


def _stored(session: Session, moment):
    return stored(session, BroadcastRecipient.__table__.c.sent_at, moment)


@dispatcher.subscribe(events.MESSAGE_UPDATED, batch=True, when=lambda data: data.get("status") == "failed")
def pause_on_refusal(session: Session, batch: list[Event]) -> None:
    refused = [e.data["messageId"] for e in batch if e.data.get("status") == "failed"
               and (e.data.get("errorCode") is None or e.data.get("errorCode") in STOPPING_CODES)]
    for message_id in refused:
        found = session.exec(select(Broadcast, Message.error_code)
                             .join(BroadcastRecipient, BroadcastRecipient.broadcast_id == Broadcast.id)
                             .join(Message, Message.id == BroadcastRecipient.message_id)
                             .where(BroadcastRecipient.message_id == message_id)).first()
        if found is None:
            continue
        broadcast, code = found
        if code in STOPPING_CODES:
            explained = explain(code)
            runner.pause(session, broadcast, f"network_{code}", f"{explained.title}. {explained.guidance['en']}")


@dispatcher.subscribe(events.TEMPLATE_STATUS)
def pause_on_template_status(session: Session, event: Event) -> None:
    status = str(event.data.get("status") or "").upper()
    if status not in STOPPING_TEMPLATE_STATUSES or not event.data.get("templateId"):
        return
    for broadcast in session.exec(select(Broadcast).where(Broadcast.template_id == event.data["templateId"],
                                                          Broadcast.status == "RUNNING")).all():
        runner.pause(session, broadcast, f"template_{status.lower()}"[:60],
                     f"The network set template {broadcast.template_name} ({broadcast.template_language}) to "
                     f"{status.lower()}" + (f": {event.data['reason']}" if event.data.get("reason") else "") +
                     ". Resume once it is approved again, or cancel.")
