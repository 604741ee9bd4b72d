"""What people do with one message: read it within their limits (`access_message`), correct its
text, hide it as a tombstone and restore it, react to it.

The Cloud API cannot edit or delete a message on the customer's phone: an edit corrects our record
(`editedAt` says so) and hiding is local. Reactions do reach the customer: each is sent as a
`reaction` message through the number's queue. The network keeps one reaction per business per
message, so the customer sees the latest; when an agent removes theirs and others remain, the
latest remaining one is sent again.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.conversations import inbox as conversations_inbox
from appliance.core import clock, events, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid, NotFound
from appliance.messages import search_index
from appliance.messages.models import Message, MessageReaction
from appliance.messages.sending import compose
from appliance.messages.sending.service import Outgoing, do_send
from appliance.phone_numbers import service as phone_numbers_service


def access_message(session: Session, *, actor: OrgActor, message_id: str) -> Message:
    """A message of the actor's organization, within its number and account restrictions."""
    message = tenancy.access_in_org(session, Message, message_id, actor, what="message", code="message_not_found")
    try:
        conversations_inbox.access_conversation(session, actor=actor, conversation_id=message.conversation_id)
    except NotFound:
        raise NotFound("No message with this id in this organization.", code="message_not_found") from None
    return message


def _changed(session: Session, message: Message, **data) -> Message:
    message.updated_at = clock.now()
    session.add(message)
    events.emit(session, events.MESSAGE_UPDATED, organization_id=message.organization_id, messageId=message.id,
                conversationId=message.conversation_id, **data)
    return message


def do_edit(session: Session, *, actor: OrgActor, message_id: str, body: str) -> Message:
    message = access_message(session, actor=actor, message_id=message_id)
    if message.direction != "out" or message.type != "text" or message.sent_from:
        raise Invalid("Only text messages sent from this appliance can be edited.", code="message_not_editable")
    if message.status == "failed":
        raise Invalid("A failed message was never delivered: send a new one instead.", code="message_not_editable")
    message.payload = {**message.payload, "body": compose.string(body, "body", max_length=compose.TEXT_MAX)}
    message.edited_at = clock.now()
    search_index.reindex(session, message)
    return _changed(session, message, edited=True)


def do_set_hidden(session: Session, *, actor: OrgActor, message_id: str, hidden: bool) -> Message:
    message = access_message(session, actor=actor, message_id=message_id)
    if message.hidden == hidden:
        return message
    message.hidden = hidden
    return _changed(session, message, hidden=hidden)


def author_of(actor: OrgActor) -> str:
    if actor.user_id:
        return f"user:{actor.user_id}"
    if actor.api_key_id:
        return f"key:{actor.api_key_id}"
    return f"oauth:{actor.oauth_authorization_id}"


def list_reactions(session: Session, message: Message) -> dict:
    rows = session.exec(select(MessageReaction).where(MessageReaction.message_id == message.id)
                        .order_by(MessageReaction.updated_at)).all()
    return {"message_id": message.id,
            "reactions": [{"author": r.author, "emoji": r.emoji, "updatedAt": clock.iso(r.updated_at)} for r in rows]}


def do_react(session: Session, *, actor: OrgActor, message_id: str, emoji: str) -> dict:
    """Set (or with "" remove) the actor's reaction and send it to the customer."""
    message = access_message(session, actor=actor, message_id=message_id)
    if emoji and not compose.check_emoji(emoji):
        raise compose.problem("emoji", "One emoji, or an empty string to remove your reaction.")
    if not message.wamid or message.type == "reaction":
        raise Invalid("Only messages the network has (with a wamid), other than reactions, can be reacted to.",
                      code="message_not_reactable")
    author = author_of(actor)
    mine = session.exec(select(MessageReaction).where(MessageReaction.message_id == message.id,
                                                      MessageReaction.author == author)).first()
    now = clock.now()
    if emoji:
        if mine is None:
            mine = MessageReaction(organization_id=message.organization_id, message_id=message.id, author=author,
                                   emoji=emoji, created_at=now, updated_at=now)
        elif mine.emoji == emoji:
            return list_reactions(session, message)
        mine.emoji, mine.updated_at = emoji, now
        session.add(mine)
        shown = emoji
    else:
        if mine is None:
            return list_reactions(session, message)
        session.delete(mine)
        session.flush()
        others = session.exec(select(MessageReaction).where(MessageReaction.message_id == message.id)
                              .order_by(MessageReaction.updated_at.desc())).first()
        shown = others.emoji if others else ""
    customer = message.customer_wa_id or session.get(Contact, message.contact_id).wa_id  # older rows lack the first
    do_send(session, actor=actor, outgoing=Outgoing(
        phone_number_pk=message.phone_number_pk, to=customer, type="reaction",
        payload={"message_id": message.wamid, "emoji": shown}))
    session.flush()
    return list_reactions(session, message)


def check_send_again(session: Session, *, actor: OrgActor, conversation_id: str, phone_number_pk: str, to: str,
                     message_id: str):
    """A failed message of this conversation goes out again as a new message (the failed one stays,
    with its reason); answers `do_send`'s."""
    failed = access_message(session, actor=actor, message_id=message_id)
    if failed.conversation_id != conversation_id or failed.status != "failed":
        raise Invalid("Only a failed message of this conversation can be sent again.", code="message_not_retryable")
    return do_send(session, actor=actor, outgoing=Outgoing(phone_number_pk=phone_number_pk, to=to, type=failed.type,
                                                           payload=failed.payload))


def count_failed_since(session: Session, *, actor: OrgActor, since: datetime) -> int:
    """How many of the actor's sends failed since `since` (the console's home: a partial index
    holds only the failed ones, so this reads no other message)."""
    query = select(func.count()).select_from(Message).where(
        Message.organization_id == actor.organization_id, Message.status == "failed", Message.created_at >= since)
    return session.exec(phone_numbers_service.scope_of(session, actor).only_numbers(query, Message.phone_number_pk)).one()
