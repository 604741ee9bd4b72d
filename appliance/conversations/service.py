"""Conversations: one per (business number, contact), reopened by the customer's messages, read
within the actor's restrictions."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from appliance.conversations.models import Conversation
from appliance.core import clock, events, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import NotFound
from appliance.phone_numbers.models import PhoneNumber


def do_record_inbound(session: Session, *, number: PhoneNumber, contact_id: str, at: datetime) -> Conversation:
    """The conversation of this inbound message, created or reopened, marked unread, its 24-hour
    window refreshed."""
    now = clock.now()
    conversation = session.exec(select(Conversation).where(Conversation.phone_number_pk == number.id,
                                                           Conversation.contact_id == contact_id)).first()
    if conversation is None:
        conversation = Conversation(organization_id=number.organization_id, phone_number_pk=number.id,
                                    contact_id=contact_id, unread=True, last_message_at=at, last_inbound_at=at,
                                    created_at=now, updated_at=now)
        session.add(conversation)
        events.emit(session, "conversation.created", organization_id=number.organization_id,
                    conversationId=conversation.id)
        return conversation
    reopened = conversation.status != "open"
    conversation.status = "open"
    conversation.unread = True
    conversation.last_message_at = max(conversation.last_message_at, at)
    conversation.last_inbound_at = max(conversation.last_inbound_at or at, at)
    conversation.updated_at = now
    session.add(conversation)
    events.emit(session, "conversation.updated", organization_id=number.organization_id,
                conversationId=conversation.id, reopened=reopened)
    return conversation


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
