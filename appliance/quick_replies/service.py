"""Quick replies: one shortcut per organization (case aside), listed by shortcut."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict
from appliance.quick_replies.models import QuickReply


def list_quick_replies(session: Session, *, actor: OrgActor) -> list[QuickReply]:
    return list(session.exec(select(QuickReply).where(QuickReply.organization_id == actor.organization_id)
                             .order_by(QuickReply.shortcut_key)).all())


def expand(session: Session, *, actor: OrgActor, text: str | None) -> str | None:
    """A message that is only a shortcut (`/horario`) becomes the quick reply's text: how the inbox
    composer works without JavaScript (with it, the text is put in while typing)."""
    word = (text or "").strip()
    if not word.startswith("/") or " " in word or len(word) > 31:
        return text
    found = session.exec(select(QuickReply.text).where(QuickReply.organization_id == actor.organization_id,
                                                       QuickReply.shortcut_key == word.casefold())).first()
    return found if found is not None else text


def access_quick_reply(session: Session, *, actor: OrgActor, quick_reply_id: str) -> QuickReply:
    return tenancy.access_in_org(session, QuickReply, quick_reply_id, actor, what="quick reply",
                                 code="quick_reply_not_found")


def _save(session: Session, reply: QuickReply, changes: dict) -> QuickReply:
    if "shortcut" in changes:
        reply.shortcut, reply.shortcut_key = changes["shortcut"], changes["shortcut"].casefold()
    if "text" in changes:
        reply.text = changes["text"]
    reply.updated_at = clock.now()
    session.add(reply)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        raise Conflict("Another quick reply has this shortcut.", code="quick_reply_shortcut_taken",
                       errors={"shortcut": ["Already in use."]}) from None
    return reply


def do_create(session: Session, *, actor: OrgActor, shortcut: str, text: str) -> QuickReply:
    now = clock.now()
    return _save(session, QuickReply(organization_id=actor.organization_id, created_at=now, updated_at=now),
                 {"shortcut": shortcut, "text": text})


def do_update(session: Session, *, actor: OrgActor, quick_reply_id: str, **changes) -> QuickReply:
    return _save(session, access_quick_reply(session, actor=actor, quick_reply_id=quick_reply_id), changes)


def do_delete(session: Session, *, actor: OrgActor, quick_reply_id: str) -> None:
    session.delete(access_quick_reply(session, actor=actor, quick_reply_id=quick_reply_id))
