"""A conversation's thread as the inbox reads it: pages of messages (back in time, or around one
message found by search), its media by kind, and the links written in it."""

from __future__ import annotations

from types import SimpleNamespace

from sqlalchemy import func, tuple_
from sqlmodel import Session, select

from appliance.conversations import inbox as conversations_inbox
from appliance.core import pagination
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.messages.kinds import MEDIA_CATEGORIES
from appliance.messages.models import Message, MessageReaction
from appliance.messages.text import links as find_links
from appliance.messages.text import plain_text

ORDER = [Message.created_at, Message.id]
# The inbox's media categories and the message types in each ("doc" as the reference names it).


def list_messages(session: Session, *, actor: OrgActor, conversation_id: str, take: int, cursor: str | None,
                  around: str | None = None) -> SimpleNamespace:
    """Newest first, like a thread read from the bottom; `around` (a message id) answers the
    messages on both sides of that one, with cursors to read on either way."""
    conversation = conversations_inbox.access_conversation(session, actor=actor, conversation_id=conversation_id)
    query = select(Message).where(Message.conversation_id == conversation.id)
    if around is None:
        page = pagination.paginate(session, query, key=ORDER, take=take, cursor=cursor)
        return SimpleNamespace(items=with_reactions(session, page.items), next_cursor=page.next_cursor,
                               newer_cursor=None)
    if cursor:
        raise Invalid("Give either before or around.", errors={"around": ["Not with before."]})
    center = session.exec(query.where(Message.id == around)).first()
    if center is None:
        raise Invalid("That message is not in this conversation.", code="message_not_found",
                      errors={"around": ["Not in this conversation."]})
    position = tuple_(*ORDER)
    mark = tuple_(center.created_at, center.id)
    newer = list(session.exec(query.where(position > mark).order_by(*ORDER).limit(take // 2 + 1)))
    older = list(session.exec(query.where(position < mark).order_by(*[c.desc() for c in ORDER])
                              .limit(take - min(len(newer), take // 2))))
    newer_cursor = None
    if len(newer) > take // 2:
        newer = newer[:take // 2]
        newer_cursor = pagination.encode_cursor([newer[-1].created_at, newer[-1].id])
    older_count = take - 1 - len(newer)
    next_cursor = None
    if len(older) > older_count:
        older = older[:older_count]
        next_cursor = pagination.encode_cursor([older[-1].created_at, older[-1].id]) if older else None
    items = list(reversed(newer)) + [center] + older
    return SimpleNamespace(items=with_reactions(session, items), next_cursor=next_cursor, newer_cursor=newer_cursor)


def with_reactions(session: Session, messages: list[Message]) -> list[SimpleNamespace]:
    """Messages with their reactions (`[{emoji, count}]`), for the page in one query."""
    ids = [m.id for m in messages]
    counts: dict[str, dict[str, int]] = {}
    if ids:
        for message_id, emoji, count in session.exec(
                select(MessageReaction.message_id, MessageReaction.emoji, func.count())
                .where(MessageReaction.message_id.in_(ids)).group_by(MessageReaction.message_id, MessageReaction.emoji)):
            counts.setdefault(message_id, {})[emoji] = count
    return [SimpleNamespace(**m.model_dump(), reactions=[{"emoji": e, "count": n} for e, n in counts.get(m.id, {}).items()])
            for m in messages]


def list_media(session: Session, *, actor: OrgActor, conversation_id: str, category: str | None, take: int,
               cursor: str | None) -> pagination.Page:
    conversation = conversations_inbox.access_conversation(session, actor=actor, conversation_id=conversation_id)
    kinds = MEDIA_CATEGORIES[category] if category else tuple(k for ks in MEDIA_CATEGORIES.values() for k in ks)
    query = select(Message).where(Message.conversation_id == conversation.id, Message.type.in_(kinds),
                                  Message.hidden.is_(False))
    return pagination.paginate(session, query, key=ORDER, take=take, cursor=cursor)


def media_counts(session: Session, *, actor: OrgActor, conversation_id: str) -> dict:
    conversation = conversations_inbox.access_conversation(session, actor=actor, conversation_id=conversation_id)
    by_type = dict(session.exec(select(Message.type, func.count()).where(
        Message.conversation_id == conversation.id, Message.hidden.is_(False)).group_by(Message.type)).all())
    counts = {category: sum(by_type.get(kind, 0) for kind in kinds) for category, kinds in MEDIA_CATEGORIES.items()}
    counts["links"] = sum(len(link.urls) for link in _messages_with_links(session, conversation.id, None))
    return counts


def list_links(session: Session, *, actor: OrgActor, conversation_id: str, take: int, cursor: str | None) -> pagination.Page:
    """The web addresses written in the conversation, newest first, each with its message."""
    conversation = conversations_inbox.access_conversation(session, actor=actor, conversation_id=conversation_id)
    if not 1 <= take <= pagination.MAX_TAKE:
        raise Invalid(f"limit must be between 1 and {pagination.MAX_TAKE}.", errors={"limit": ["Out of range."]})
    items, last = [], None
    for found in _messages_with_links(session, conversation.id, cursor):
        for url in found.urls:
            items.append(SimpleNamespace(url=url, message_id=found.message.id, direction=found.message.direction,
                                         sent_at=found.message.sent_at))
        last = found.message
        if len(items) >= take:
            break
    # A page ends at a message boundary, so the cursor names the last message read.
    next_cursor = pagination.encode_cursor([last.created_at, last.id]) if last is not None and len(items) >= take else None
    return pagination.Page(items=items, next_cursor=next_cursor)


def _messages_with_links(session: Session, conversation_id: str, cursor: str | None):
    """Messages with words that hold links, newest first, read a page at a time until the caller stops."""
    query = select(Message).where(Message.conversation_id == conversation_id, Message.hidden.is_(False),
                                  Message.search_rowid.is_not(None), Message.type.in_(("text", "image", "video", "document")))
    while True:
        page = pagination.paginate(session, query, key=ORDER, take=pagination.MAX_TAKE, cursor=cursor)
        for message in page.items:
            urls = find_links(plain_text(message.type, message.payload))
            if urls:
                yield SimpleNamespace(message=message, urls=urls)
        if page.next_cursor is None:
            return
        cursor = page.next_cursor
