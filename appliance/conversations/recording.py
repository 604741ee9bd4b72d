"""What messages do to conversations (called by the sending and inbound paths, never by people):
one conversation per (business number, contact), created or reopened by the customer's messages,
with its preview, 24-hour window and SLA clock. Reading the inbox: inbox.py; what people change:
service.py."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session

from appliance.conversations import activity, inbox_settings
from appliance.conversations.models import Conversation
from appliance.core import clock, events
from appliance.core.rows import driver_connection, insert_many, read_row, update_by_id, update_many
from appliance.core.ids import new_id

# The customer-service window: after a customer's message, any message type may be sent for 24 hours;
# after that only templates (the network refuses the rest).
SERVICE_WINDOW = timedelta(hours=24)


def window_expires_at(last_inbound_at: datetime | None) -> datetime | None:
    return last_inbound_at + SERVICE_WINDOW if last_inbound_at else None


def window_open(last_inbound_at: datetime | None, now: datetime) -> bool:
    """May the business write freely (not only templates) at `now`?"""
    expires = window_expires_at(last_inbound_at)
    return expires is not None and now < expires


def do_record_inbound(session: Session, *, number, contact_id: str, at: datetime, preview: str | None = None,
                      messages: int = 1, channel: str = "whatsapp") -> str:
    """The conversation of this inbound message, created or reopened, marked unread, its 24-hour
    window refreshed, its SLA clock started if no one owes an answer yet; answers its id. Core
    statements: every inbound delivery passes here."""
    now = clock.now()
    table = Conversation.__table__
    found = read_row(session, table, phone_number_pk=number.id, contact_id=contact_id, remember=False)
    if found is None:
        activity.count(session, organization_id=number.organization_id, at=at, inbound_messages=messages, incoming=1)
        return _create(session, number=number, contact_id=contact_id, at=at, inbound=True, preview=preview,
                       channel=channel)
    reopened = found.status != "open"
    activity.count(session, organization_id=number.organization_id, at=at, inbound_messages=messages,
                   incoming=int(reopened))
    changes = {"status": "open", "unread": True, "last_message_at": max(found.last_message_at, at),
               "last_inbound_at": max(found.last_inbound_at or at, at),
               "awaiting_reply_since": found.awaiting_reply_since or at, "updated_at": now}
    if reopened:
        changes.update(snoozed_until=None, closed_at=None)
    # The network stamps whole seconds and we stamp microseconds: a customer's message in the same
    # second as our last reply came after it (it is recorded now), so it is the preview.
    if at >= found.last_message_at.replace(microsecond=0):
        changes["preview"] = preview
    update_by_id(session, table, found.id, changes)
    events.emit(session, events.CONVERSATION_UPDATED, organization_id=number.organization_id,
                conversationId=found.id, phoneNumberId=number.id, reopened=reopened)
    return found.id


def _create(session: Session, *, number, contact_id: str, at: datetime, inbound: bool, preview: str | None,
            channel: str = "whatsapp") -> str:
    """A new open conversation; a customer's message makes it unread, opens the 24-hour window and
    starts the SLA clock."""
    row = _new_row(number, contact_id, at=at, inbound=inbound, preview=preview)
    row["channel"] = channel
    insert_many(session, Conversation.__table__, [row])
    events.emit(session, events.CONVERSATION_CREATED, organization_id=number.organization_id,
                conversationId=row["id"], phoneNumberId=number.id)
    return row["id"]


def _new_row(number, contact_id: str, *, at: datetime, inbound: bool, preview: str | None) -> dict:
    now = clock.now()
    return dict(id=new_id(), organization_id=number.organization_id, phone_number_pk=number.id,
                contact_id=contact_id, channel="whatsapp", status="open", unread=inbound, pinned=False, handoff_pending=False,
                last_message_at=at, preview=preview, last_inbound_at=at if inbound else None,
                awaiting_reply_since=at if inbound else None, created_at=now, updated_at=now)


def do_record_echo(session: Session, *, number, contact_id: str, at: datetime, preview: str | None = None) -> str:
    """The conversation of a message the business wrote from the WhatsApp Business app: created if
    new, its last activity moved, the customer answered (a person wrote); not reopened, not marked
    unread, the customer's window untouched."""
    table = Conversation.__table__
    found = read_row(session, table, phone_number_pk=number.id, contact_id=contact_id, remember=False)
    if found is None:
        return _create(session, number=number, contact_id=contact_id, at=at, inbound=False, preview=preview)
    now = clock.now()
    if at > found.last_message_at:
        update_by_id(session, table, found.id, {"last_message_at": at, "preview": preview, "awaiting_reply_since": None,
                                                "wait_notified_at": None, "updated_at": now})
        _count_reply(session, found, user_id=None, at=at)
        events.emit(session, events.CONVERSATION_UPDATED, organization_id=number.organization_id,
                    conversationId=found.id, phoneNumberId=number.id, reopened=False)
    return found.id


def do_keep_closed(session: Session, *, conversation_id: str, closed_at: datetime) -> None:
    """A conversation the customer reopened only to answer automation (a survey) is closed again as
    it was: read, nobody owing an answer."""
    table = Conversation.__table__
    found = read_row(session, table, id=conversation_id, remember=False)
    if found is None or found.status != "open":
        return
    update_by_id(session, table, found.id, {"status": "closed", "closed_at": closed_at, "unread": False,
                                            "awaiting_reply_since": None, "wait_notified_at": None,
                                            "updated_at": clock.now()})
    events.emit(session, events.CONVERSATION_UPDATED, organization_id=found.organization_id,
                conversationId=found.id, phoneNumberId=found.phone_number_pk, changes=["status"], reopened=False)


def find_window(session: Session, *, phone_number_pk: str, contact_id: str):
    """The conversation of (number, contact) as a plain row, or None: `last_inbound_at` says
    whether the 24-hour window is open."""
    return read_row(session, Conversation.__table__, phone_number_pk=phone_number_pk, contact_id=contact_id,
                    remember=False)


def do_record_outbound(session: Session, *, number, contact_id: str, found=None, preview: str | None = None,
                       answered_by: str | None = None) -> str:
    """The conversation of a message the business sends: created if new (read, no window), its last
    activity moved; a closed one stays closed (sending is not the customer coming back). A person's
    reply (`answered_by` their user id; templates and integrations are not) stops the SLA clock."""
    if found is None:
        return _create(session, number=number, contact_id=contact_id, at=clock.now(), inbound=False, preview=preview)
    now = clock.now()
    table = Conversation.__table__
    changes = {"last_message_at": now, "preview": preview, "updated_at": now}
    if answered_by and found.awaiting_reply_since:
        changes.update(awaiting_reply_since=None, wait_notified_at=None)
        _count_reply(session, found, user_id=answered_by, at=now)
    update_by_id(session, table, found.id, changes)
    events.emit(session, events.CONVERSATION_UPDATED, organization_id=number.organization_id,
                conversationId=found.id, phoneNumberId=number.id, reopened=False)
    return found.id


_IN_ONE_LOOK = 500  # contacts per lookup of their conversations (SQLite's parameters stay well under its limit)


def do_record_outbound_many(session: Session, *, number, sends: list[tuple[str, str | None]]) -> list[str]:
    """`do_record_outbound` for many messages from one number that answer nobody (a broadcast's
    templates): `sends` are (contact id, preview); answers each one's conversation id, in order.
    Their conversations are looked up, created and moved a batch at a time, with one event
    statement each for the created and the moved ones."""
    if not sends:
        return []
    table = Conversation.__table__
    previews = dict(sends)  # each contact's last preview of the batch
    contact_ids = list(previews)
    found: dict[str, str] = {}
    for start in range(0, len(contact_ids), _IN_ONE_LOOK):
        part = contact_ids[start:start + _IN_ONE_LOOK]
        found.update((contact_id, conversation_id) for conversation_id, contact_id in driver_connection(session).execute(
            f"SELECT id, contact_id FROM conversations WHERE phone_number_pk = ? AND contact_id IN "
            f"({', '.join('?' * len(part))})", (number.id, *part)).fetchall())
    now = clock.now()
    created = [_new_row(number, contact_id, at=now, inbound=False, preview=previews[contact_id])
               for contact_id in contact_ids if contact_id not in found]
    insert_many(session, table, created)
    update_many(session, table, [{"id": conversation_id, "last_message_at": now, "preview": previews[contact_id],
                                  "updated_at": now} for contact_id, conversation_id in found.items()])
    events.emit_many(session, events.CONVERSATION_CREATED, organization_id=number.organization_id,
                     items=[{"conversationId": row["id"], "phoneNumberId": number.id} for row in created])
    events.emit_many(session, events.CONVERSATION_UPDATED, organization_id=number.organization_id,
                     items=[{"conversationId": conversation_id, "phoneNumberId": number.id, "reopened": False}
                            for conversation_id in found.values()])
    found.update((row["contact_id"], row["id"]) for row in created)
    return [found[contact_id] for contact_id, _ in sends]


def _count_reply(session: Session, found, *, user_id: str | None, at: datetime) -> None:
    """A person answered a waiting customer: one reply in the counters, late if past the SLA."""
    if found.awaiting_reply_since is None:
        return
    waited = max(0, int((at - found.awaiting_reply_since).total_seconds()))
    sla_minutes = inbox_settings.read_settings(session, found.organization_id, "workload")["sla_minutes"]
    activity.count(session, organization_id=found.organization_id, at=at, user_id=user_id, replies=1,
                   late_replies=int(waited > sla_minutes * 60), response_seconds=waited)
