"""Conversations: one per (business number, contact), reopened by the customer's messages, read
within the actor's restrictions."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from appliance.conversations.models import Conversation
from appliance.core import clock, events, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.db import insert_many, read_row, update_by_id
from appliance.core.ids import new_id
from appliance.core.errors import NotFound
from appliance.phone_numbers.models import PhoneNumber


def do_record_inbound(session: Session, *, number, contact_id: str, at: datetime) -> str:
    """The conversation of this inbound message, created or reopened, marked unread, its 24-hour
    window refreshed; answers its id. Core statements: every inbound delivery passes here."""
    now = clock.now()
    table = Conversation.__table__
    found = read_row(session, table, phone_number_pk=number.id, contact_id=contact_id, remember=False)
    if found is None:
        return _create(session, number=number, contact_id=contact_id, at=at, inbound=True)
    reopened = found.status != "open"
    update_by_id(session, table, found.id, {
        "status": "open", "unread": True, "last_message_at": max(found.last_message_at, at),
        "last_inbound_at": max(found.last_inbound_at or at, at), "updated_at": now})
    events.emit(session, "conversation.updated", organization_id=number.organization_id,
                conversationId=found.id, reopened=reopened)
    return found.id


def _create(session: Session, *, number, contact_id: str, at: datetime, inbound: bool) -> str:
    """A new open conversation; a customer's message makes it unread and opens the 24-hour window."""
    now, conversation_id = clock.now(), new_id()
    insert_many(session, Conversation.__table__, [dict(
        id=conversation_id, organization_id=number.organization_id, phone_number_pk=number.id,
        contact_id=contact_id, status="open", unread=inbound, pinned=False, last_message_at=at,
        last_inbound_at=at if inbound else None, created_at=now, updated_at=now)])
    events.emit(session, "conversation.created", organization_id=number.organization_id,
                conversationId=conversation_id)
    return conversation_id


def do_record_echo(session: Session, *, number, contact_id: str, at: datetime) -> str:
    """The conversation of a message the business wrote from the WhatsApp Business app: created if
    new, its last activity moved; not reopened, not marked unread, the customer's window untouched."""
    table = Conversation.__table__
    found = read_row(session, table, phone_number_pk=number.id, contact_id=contact_id, remember=False)
    if found is None:
        return _create(session, number=number, contact_id=contact_id, at=at, inbound=False)
    now = clock.now()
    if at > found.last_message_at:
        update_by_id(session, table, found.id, {"last_message_at": at, "updated_at": now})
        events.emit(session, "conversation.updated", organization_id=number.organization_id,
                    conversationId=found.id, reopened=False)
    return found.id


def find_window(session: Session, *, number_pk: str, contact_id: str):
    """The conversation of (number, contact) as a plain row, or None: `last_inbound_at` says
    whether the 24-hour window is open."""
    return read_row(session, Conversation.__table__, phone_number_pk=number_pk, contact_id=contact_id, remember=False)


def do_record_outbound(session: Session, *, number, contact_id: str, found=None) -> str:
    """The conversation of a message the business sends: created if new (read, no window), its last
    activity moved; a closed one stays closed (sending is not the customer coming back)."""
    if found is None:
        return _create(session, number=number, contact_id=contact_id, at=clock.now(), inbound=False)
    now = clock.now()
    table = Conversation.__table__
    update_by_id(session, table, found.id, {"last_message_at": now, "updated_at": now})
    events.emit(session, "conversation.updated", organization_id=number.organization_id,
                conversationId=found.id, reopened=False)
    return found.id


def _visible(query, actor: OrgActor):
    query = tenancy.only_allowed_phone_numbers(query, Conversation.phone_number_pk, actor)
    if actor.waba_ids:
        query = query.join(PhoneNumber, PhoneNumber.id == Conversation.phone_number_pk)
        query = tenancy.only_visible_wabas(query, PhoneNumber.waba_pk, actor)
    return query


def list_conversations(session: Session, *, actor: OrgActor, take: int, cursor: str | None) -> pagination.Page:
    """Newest activity first."""
    query = _visible(select(Conversation).where(Conversation.organization_id == actor.organization_id), actor)
    return pagination.paginate(session, query, key=[Conversation.last_message_at, Conversation.id],
                               take=take, cursor=cursor)


def access_conversation(session: Session, *, actor: OrgActor, conversation_id: str) -> Conversation:
    conversation = session.exec(_visible(select(Conversation).where(
        Conversation.id == conversation_id, Conversation.organization_id == actor.organization_id), actor)).first()
    if conversation is None:
        raise NotFound("No conversation with this id in this organization.", code="conversation_not_found")
    return conversation
