"""Chat links as the organization manages them: made for one of its numbers (a key or member kept to
some numbers only for those, and the others' links answer 404), changed, archived and brought back
(DELETE toggles), their statistics and QR codes. The public redirect, and the address short links
live at, are lane.py's; clicks are written by clicks.py."""

from __future__ import annotations

import secrets
import string
from collections import Counter
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.chat_links import lane
from appliance.chat_links.models import ChatLink, LinkClick
from appliance.conversations.models import Conversation
from appliance.core import clock, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid, NotFound
from appliance.messages.models import Message
from appliance.messages.text import plain_text
from appliance.organizations.zones import zone_of
from appliance.phone_numbers import service as phone_numbers_service

SLUG_ALPHABET = string.ascii_letters + string.digits  # 62^8: not guessable by walking addresses
QR_FORMATS = ("PNG", "SVG")
QR_MIN, QR_MAX, QR_DEFAULT = 64, 2048, 512
CONVERSION_DAYS = 7
QUARTER_MS = 15 * 60 * 1000


def url_of(link: ChatLink) -> str:
    return f"{lane.short_link_base()}/{link.slug}"


def _new_slug(session: Session) -> str:
    while True:
        slug = "".join(secrets.choice(SLUG_ALPHABET) for _ in range(lane.SLUG_LENGTH))
        if session.exec(select(ChatLink.id).where(ChatLink.slug == slug)).first() is None:
            return slug


def list_links(session: Session, *, actor: OrgActor, phone_number_pk: str | None = None,
               include_archived: bool = False) -> list[ChatLink]:
    query = select(ChatLink).where(ChatLink.organization_id == actor.organization_id)
    query = phone_numbers_service.scope_of(session, actor).only_numbers(query, ChatLink.phone_number_pk)
    if phone_number_pk:
        query = query.where(ChatLink.phone_number_pk == phone_number_pk)
    if not include_archived:
        query = query.where(ChatLink.archived.is_(False))
    return list(session.exec(query.order_by(ChatLink.created_at.desc(), ChatLink.id)))


def access_link(session: Session, *, actor: OrgActor, link_id: str) -> ChatLink:
    scope = phone_numbers_service.scope_of(session, actor)
    return tenancy.access_in_org(session, ChatLink, link_id, actor, what="chat link", code="chat_link_not_found",
                                 usable=lambda link: scope.reaches(link.phone_number_pk))


def _number(session: Session, actor: OrgActor, phone_number_pk: str):
    try:
        return phone_numbers_service.access_phone_number(session, actor=actor, phone_number_pk=phone_number_pk)
    except NotFound:  # the number named in the body: this body's 400
        raise Invalid("Use a connected number of this organization.", code="phone_number_not_found",
                      errors={"phoneNumberId": ["Unknown number."]}) from None


def do_create(session: Session, *, actor: OrgActor, phone_number_pk: str, name: str, campaign_tag: str | None = None,
              prefilled_message: str | None = None, link_metadata: dict | None = None) -> ChatLink:
    phone_numbers_service.scope_of(session, actor).check_covers([phone_number_pk])
    number = _number(session, actor, phone_number_pk)
    now = clock.now()
    link = ChatLink(organization_id=actor.organization_id, phone_number_pk=number.id, slug=_new_slug(session), name=name,
                    campaign_tag=campaign_tag, prefilled_message=prefilled_message, link_metadata=link_metadata or {},
                    wa_me_url=lane.wa_me(number.display_phone_number, prefilled_message),
                    created_by_user_id=actor.user_id, created_at=now, updated_at=now)
    session.add(link)
    session.flush()
    return link


def do_update(session: Session, *, actor: OrgActor, link_id: str, **changes) -> ChatLink:
    link = access_link(session, actor=actor, link_id=link_id)
    for name in ("name", "campaign_tag", "prefilled_message", "link_metadata"):
        if name in changes:
            setattr(link, name, changes[name] if name != "link_metadata" else (changes[name] or {}))
    if "prefilled_message" in changes:
        number = _number(session, actor, link.phone_number_pk)
        link.wa_me_url = lane.wa_me(number.display_phone_number, link.prefilled_message)
    link.updated_at = clock.now()
    session.add(link)
    lane.forget(link.slug)  # the redirect's prefilled text changes at once
    return link


def do_toggle_archived(session: Session, *, actor: OrgActor, link_id: str) -> ChatLink:
    """DELETE archives an active link and brings back an archived one (the reference's toggle)."""
    link = access_link(session, actor=actor, link_id=link_id)
    link.archived, link.updated_at = not link.archived, clock.now()
    session.add(link)
    lane.forget(link.slug)
    return link


def stats(session: Session, *, actor: OrgActor, link_id: str) -> dict:
    """Clicks (people's only), unique visitors (by a daily keyed hash of the address), per day in the
    organization's time zone, per referring site, and the conversations it started: new conversations
    on its number within 7 days whose customer's first message is the prefilled text."""
    link = access_link(session, actor=actor, link_id=link_id)
    zone = zone_of(session, actor.organization_id)
    mine = LinkClick.link_id == link.id
    clicks, unique = session.exec(select(func.count(), func.count(LinkClick.visitor.distinct())).where(mine)).one()
    # Counted in SQL by quarters of an hour (a link may have a million clicks), the quarters then put
    # on the organization's dates here: every zone's offset is a whole number of quarters (India's
    # +5:30 and Nepal's +5:45 too), so no quarter straddles a local midnight.
    quarter = (LinkClick.clicked_ms // QUARTER_MS).label("quarter")
    by_day: Counter = Counter()
    for start, count in session.exec(select(quarter, func.count()).where(mine).group_by(quarter)).all():
        by_day[datetime.fromtimestamp(int(start) * QUARTER_MS / 1000, zone).date().isoformat()] += count
    referrers = session.exec(select(LinkClick.referrer_host, func.count().label("n")).where(mine)
                             .group_by(LinkClick.referrer_host).order_by(func.count().desc()).limit(20)).all()
    return {"clicks": clicks, "unique_clicks": unique,
            "by_day": [{"date": day, "clicks": count} for day, count in sorted(by_day.items())],
            "by_referrer": [{"host": host or "(direct)", "clicks": count} for host, count in referrers],
            "conversations": _conversations(session, link)}


def click_counts(session: Session, link_ids: list[str]) -> dict[str, int]:
    """People's clicks per link, for a list."""
    if not link_ids:
        return {}
    return dict(session.exec(select(LinkClick.link_id, func.count()).where(LinkClick.link_id.in_(link_ids))
                             .group_by(LinkClick.link_id)).all())


def _conversations(session: Session, link: ChatLink) -> int:
    """New conversations of the link's number (7 days, none before the link) whose customer's first
    message reads as the prefilled text. Ids sort in creation order: a conversation's first inbound
    message is its smallest inbound id, also when a delivery stored several at one instant."""
    if not link.prefilled_message:
        return 0
    since = max(clock.now() - timedelta(days=CONVERSION_DAYS), link.created_at)
    firsts = (select(func.min(Message.id))
              .join(Conversation, Conversation.id == Message.conversation_id)
              .where(Conversation.phone_number_pk == link.phone_number_pk, Conversation.created_at >= since,
                     Message.direction == "in")
              .group_by(Message.conversation_id))
    wanted = link.prefilled_message.strip()
    return sum(1 for kind, payload in session.exec(select(Message.type, Message.payload).where(Message.id.in_(firsts)))
               if plain_text(kind, payload) == wanted)


def qr(session: Session, *, actor: OrgActor, link_id: str, format: str = "PNG", size: int = QR_DEFAULT) -> tuple[bytes, str]:
    """The link's QR code (its public short address) as PNG or SVG, about `size` pixels wide."""
    link = access_link(session, actor=actor, link_id=link_id)
    return qr_bytes(url_of(link), format, size)


def qr_bytes(text: str, format: str, size: int) -> tuple[bytes, str]:
    import io

    import segno  # on the first QR code, not at start (issue 46, footprint)

    code = segno.make(text, error="m", micro=False)
    border = 4
    modules = code.symbol_size(scale=1, border=border)[0]
    scale = max(1, size // modules)
    out = io.BytesIO()
    if format == "SVG":
        code.save(out, kind="svg", scale=scale, border=border, xmldecl=False)
        return out.getvalue(), "image/svg+xml"
    code.save(out, kind="png", scale=scale, border=border)
    return out.getvalue(), "image/png"


