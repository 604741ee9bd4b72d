"""Search inside message content: words matched by the full-text index (accents and case
ignored, the last word as a prefix; search_index.py holds each engine's condition), newest first,
within the actor's numbers, narrowed by date, direction, attachments, the actor's own messages or
one conversation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from appliance.conversations import inbox as conversations_inbox
from appliance.core import pagination
from appliance.core.actor import OrgActor
from appliance.core.rows import bind_processor, driver_connection
from appliance.core.errors import Invalid
from appliance.messages import search_index
from appliance.messages.kinds import MEDIA_TYPES
from appliance.messages.models import Message
from appliance.phone_numbers.models import PhoneNumber

_WORD = re.compile(r"\w+", re.UNICODE)
_MEDIA_TYPES = tuple(sorted(MEDIA_TYPES))


@dataclass
class SearchFilter:
    q: str
    since: datetime | None = None  # `from`
    until: datetime | None = None  # `to`
    direction: str | None = None
    has_attachment: bool | None = None
    sent_by_me: bool = False
    conversation_id: str | None = None


def search_messages(session: Session, *, actor: OrgActor, filters: SearchFilter, take: int,
                    cursor: str | None) -> pagination.Page:
    if filters.conversation_id:
        conversations_inbox.access_conversation(session, actor=actor, conversation_id=filters.conversation_id)
    if not _WORD.search(filters.q):
        raise Invalid("Search for at least one letter or digit.", code="invalid_search", errors={"q": ["No words."]})
    matching, params = search_index.match(session, filters.q)
    sql = ["SELECT s.rowid, m.id FROM fts_messages s JOIN messages m ON m.id = s.message_id",
           f"WHERE {matching} AND m.organization_id = ? AND m.hidden = FALSE"]
    params.append(actor.organization_id)
    if cursor:
        (before,) = pagination.decode_cursor(cursor, arity=1)
        if not isinstance(before, int):
            raise Invalid("The cursor is not one this server issued.", code="invalid_cursor",
                          errors={"cursor": ["Invalid cursor."]})
        sql.append("AND s.rowid < ?")
        params.append(before)
    when = bind_processor(Message.__table__.c.sent_at, session.get_bind().dialect)
    if filters.since:
        sql.append("AND m.sent_at >= ?")
        params.append(when(filters.since))
    if filters.until:
        sql.append("AND m.sent_at < ?")
        params.append(when(filters.until))
    if filters.direction:
        sql.append("AND m.direction = ?")
        params.append(filters.direction)
    if filters.has_attachment is not None:
        sql.append(f"AND m.type {'' if filters.has_attachment else 'NOT '}IN ({', '.join('?' * len(_MEDIA_TYPES))})")
        params.extend(_MEDIA_TYPES)
    if filters.sent_by_me:
        sql.append("AND m.sent_by_user_id = ?" if actor.user_id else "AND FALSE")
        params.extend([actor.user_id] if actor.user_id else [])
    if filters.conversation_id:
        sql.append("AND m.conversation_id = ?")
        params.append(filters.conversation_id)
    if actor.phone_number_pks:
        sql.append(f"AND m.phone_number_pk IN ({', '.join('?' * len(actor.phone_number_pks))})")
        params.extend(actor.phone_number_pks)
    if actor.waba_pks:
        sql.append(f"AND m.phone_number_pk IN (SELECT id FROM {PhoneNumber.__tablename__} "
                   f"WHERE waba_pk IN ({', '.join('?' * len(actor.waba_pks))}))")
        params.extend(actor.waba_pks)
    # The index's rowids grow with time: newest first is its own order, no sort.
    sql.append("ORDER BY s.rowid DESC LIMIT ?")
    params.append(take + 1)
    hits = driver_connection(session).execute(" ".join(sql), params).fetchall()
    more = len(hits) > take
    hits = hits[:take]
    found = {m.id: m for m in session.exec(select(Message).where(Message.id.in_([h[1] for h in hits])))} if hits else {}
    items = [found[message_id] for _, message_id in hits if message_id in found]
    return pagination.Page(items=items, next_cursor=pagination.encode_cursor([hits[-1][0]]) if more else None)
