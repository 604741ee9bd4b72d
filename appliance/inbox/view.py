"""What the browser inbox shows, assembled from the services: the list's tabs and filters, a
thread with notes woven in by time, quoted replies, the 24-hour window, the side panel's choices.
No flask here: pages.py renders these."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace

from sqlmodel import Session, select

from appliance.attendance import api as attendance_api, guard as attendance_guard
from appliance.attendance import rules as attendance_rules, sessions as attendance_sessions
from appliance.attendance.models import STATUSES
from appliance.bots import activity as bot_activity
from appliance.conversations import inbox, inbox_settings, recording
from appliance.conversations import service as conversations_service
from appliance.conversations.inbox import InboxFilter
from appliance.core import clock, pagination
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.graph_api.errors import explain
from appliance.http.operations import permission_of
from appliance.memberships import service as memberships_service
from appliance.messages import thread
from appliance.messages.models import Message
from appliance.messages.text import plain_text
from appliance.phone_numbers import service as phone_numbers_service
from appliance.sandbox import service as sandbox_service
from appliance.phone_numbers.models import PhoneNumber
from appliance.catalog import service as catalog_service
from appliance.quick_replies import service as quick_replies_service
from appliance.shift_reminders import service as reminders_service
from appliance.stickers import api as stickers_api, service as stickers_service
from appliance.tags import service as tags_service
from appliance.templates.components import expected_variables
from appliance.templates.models import Template

THREAD_SIZE = 60
TABS = {
    "mine": dict(assignee="me", status="open"), "unassigned": dict(assignee="none", status="open"),
    "all": dict(status="open"), "handoff": dict(handoff_pending=True), "snoozed": dict(status="snoozed"),
    "closed": dict(status="closed"),
}


@dataclass
class ListQuery:
    """The list's state as the page's links and forms carry it."""
    tab: str = "all"
    tag: str | None = None
    number: str | None = None
    q: str | None = None
    cursor: str | None = None

    @classmethod
    def parse(cls, args) -> "ListQuery":
        tab = args.get("tab") if args.get("tab") in TABS else "all"
        return cls(tab=tab, tag=args.get("tag") or None, number=args.get("number") or None,
                   q=(args.get("q") or "").strip()[:100] or None, cursor=args.get("cursor") or None)

    def as_filter(self) -> InboxFilter:
        return InboxFilter(**TABS[self.tab], tag_id=self.tag, phone_number_pk=self.number, search=self.q)

    def params(self, **overrides) -> dict:
        values = {"tab": self.tab, "tag": self.tag, "number": self.number, "q": self.q, **overrides}
        return {k: v for k, v in values.items() if v}


def conversation_list(session: Session, actor: OrgActor, query: ListQuery):
    try:
        return inbox.list_conversations(session, actor=actor, filters=query.as_filter(), take=40, cursor=query.cursor)
    except Invalid:  # a cursor from an old or edited address: the first page rather than an error
        query.cursor = None
        return inbox.list_conversations(session, actor=actor, filters=query.as_filter(), take=40, cursor=None)


@dataclass
class Sidebar:
    tabs: list[str]
    counts: dict
    tags: list
    numbers: list
    sandbox_number: object | None = None  # a number on the simulated network: its customer can be played


def sidebar(session: Session, actor: OrgActor) -> Sidebar:
    tabs = inbox_settings.read_settings(session, actor.organization_id, "messaging")["inbox_tabs"]
    numbers = phone_numbers_service.list_phone_numbers(session, actor=actor)
    simulated = ({n.id for n in sandbox_service.sandbox_numbers(session, organization_id=actor.organization_id)}
                 if numbers else set())  # no number, no query on every inbox page
    return Sidebar(tabs=[t for t in tabs if t in TABS] or ["all"], counts=inbox.unread_counts(session, actor=actor),
                   tags=tags_service.list_tags(session, actor=actor), numbers=numbers,
                   sandbox_number=next((n for n in numbers if n.id in simulated), None))


@dataclass
class ConversationView:
    conversation: SimpleNamespace
    items: list  # oldest first: ("message", row), ("note", note), ("bot", a decision of the bot)
    quoted: dict  # message id -> the quoted text
    window_left: timedelta | None
    members: list
    tags: list
    templates: list = field(default_factory=list)
    older_cursor: str | None = None
    quick_replies: list = field(default_factory=list)
    played: bool = False  # the sandbox's simulated customer: people may tap their buttons and write as them
    products: list = field(default_factory=list)  # what the product picker offers (in Meta's catalog, for sale)
    product_names: dict = field(default_factory=dict)  # retailer id -> name, for the carts and products shown
    stickers: list = field(default_factory=list)  # what the sticker picker offers (the organization's library)


@dataclass
class ThreadPage:
    items: list  # oldest first: ("message", row), ("note", note), ("bot", a decision of the bot)
    quoted: dict  # message id or wamid -> the quoted text
    older_cursor: str | None


def thread_page(session: Session, actor: OrgActor, conversation_id: str, cursor: str | None = None) -> ThreadPage:
    """A page of the thread (the latest, or older than `cursor`) with the notes written in its time."""
    page = thread.list_messages(session, actor=actor, conversation_id=conversation_id, take=THREAD_SIZE, cursor=cursor)
    messages = list(reversed(page.items))
    since = messages[0].created_at if messages and page.next_cursor else None
    # An older page ends where the newer one began (the cursor's position): notes in between are its.
    until = datetime.fromisoformat(pagination.decode_cursor(cursor, arity=2)[0]) if cursor else None
    notes = [n for n in conversations_service.list_notes(session, actor=actor, conversation_id=conversation_id)
             if (since is None or n.created_at >= since) and (until is None or n.created_at < until)]
    decisions = bot_activity.in_thread(session, actor=actor, conversation_id=conversation_id, since=since, until=until)
    items = sorted([("message", m) for m in messages] + [("note", n) for n in notes] + [("bot", d) for d in decisions],
                   key=lambda item: item[1].created_at)
    return ThreadPage(items=items, quoted=_quoted(session, conversation_id, messages), older_cursor=page.next_cursor)


def _quoted(session: Session, conversation_id: str, messages: list) -> dict:
    quoted_ids = {m.reply_to_message_id for m in messages if m.reply_to_message_id}
    quoted_wamids = {m.reply_to_wamid for m in messages if m.reply_to_wamid and not m.reply_to_message_id}
    quoted = {}
    if quoted_ids or quoted_wamids:
        for found in session.exec(select(Message).where(Message.conversation_id == conversation_id, (
                Message.id.in_(quoted_ids) | Message.wamid.in_(quoted_wamids)))):
            text = plain_text(found.type, found.payload) or found.type
            quoted[found.id] = quoted[found.wamid or found.id] = text[:140]
    return quoted


def _retailer_ids(items: list) -> list[str]:
    """The products a page of the thread names: customers' carts and the products sent to them."""
    found = []
    for kind, row in items:
        if kind != "message" or row.type not in ("order", "interactive") or not isinstance(row.payload, dict):
            continue
        inner = row.payload.get("order") if row.type == "order" else row.payload.get("action")
        inner = inner if isinstance(inner, dict) else {}
        found += [str(i.get("product_retailer_id")) for i in inner.get("product_items") or [] if isinstance(i, dict)]
        found += [str(inner["product_retailer_id"])] if inner.get("product_retailer_id") else []
        for section in inner.get("sections") or []:
            found += [str(i.get("product_retailer_id")) for i in (section or {}).get("product_items") or []
                      if isinstance(i, dict)]
    return found


def conversation_view(session: Session, actor: OrgActor, conversation_id: str) -> ConversationView:
    conversation = inbox.view_conversation(session, actor=actor, conversation_id=conversation_id)
    page = thread_page(session, actor, conversation_id)
    window_left = None
    if conversation.last_inbound_at:
        left = recording.window_expires_at(conversation.last_inbound_at) - clock.now()
        window_left = left if left.total_seconds() > 0 else None
    number = session.get(PhoneNumber, conversation.phone_number_pk)
    templates = []
    if number is not None:
        templates = list(session.exec(select(Template).where(Template.waba_pk == number.waba_pk,
                                                             Template.status == "APPROVED").order_by(Template.name)))
    return ConversationView(conversation=conversation, items=page.items, quoted=page.quoted, window_left=window_left,
                            members=[m for m in memberships_service.list_members(session, actor=actor) if not m.suspended],
                            tags=tags_service.list_tags(session, actor=actor), templates=templates,
                            older_cursor=page.older_cursor,
                            quick_replies=quick_replies_service.list_quick_replies(session, actor=actor),
                            products=catalog_service.in_meta_catalog(session, actor.organization_id) if window_left else [],
                            product_names={r: p.name for r, p in catalog_service.by_retailer_ids(
                                session, actor.organization_id, _retailer_ids(page.items)).items()},
                            stickers=_stickers(session, actor) if window_left else [],
                            played=sandbox_service.plays_customer(
                                session, organization_id=actor.organization_id,
                                phone_number_pk=conversation.phone_number_pk,
                                wa_id=conversation.contact.wa_id if conversation.contact else None))


def _stickers(session: Session, actor: OrgActor) -> list:
    """The library, for whoever may read it (its pictures come from its file route)."""
    if not actor.can(permission_of(stickers_api.Stickers.get)):
        return []
    return stickers_service.list_stickers(session, actor=actor)


def template_fields(template: Template) -> dict:
    """The inputs a template needs in the composer: header text values, body values."""
    expected = expected_variables(template.components)
    header = expected["header"]
    return {"header": header["count"] if header and header["format"] == "TEXT" else 0,
            "media_header": bool(header and header["format"] != "TEXT"), "body": expected["body"],
            "named": template.parameter_format == "NAMED"}


def guidance(message, lang: str) -> str | None:
    if message.error_code is None:
        return None
    return explain(message.error_code).guidance.get(lang)


def remaining(left: timedelta, lang: str) -> str:
    minutes = int(left.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def shift_view(session: Session, actor: OrgActor) -> SimpleNamespace | None:
    """The header's shift control: None when attendance is off or not the person's; otherwise the
    session in progress (live totals), today's worked minutes, whether the rules hold the inbox
    until the shift starts, and the newest reminder not yet dismissed."""
    if actor.user_id is None or not actor.can(permission_of(attendance_api.Start.post)):
        return None
    settings = attendance_rules.settings_of(session, actor.organization_id)
    if not settings.enabled:
        return None
    current = attendance_sessions.me(session, actor=actor)
    return SimpleNamespace(session=current, statuses=STATUSES, held=attendance_guard.is_held(session, actor),
                           worked_min=current.totals.get("workedMin", 0) if current else 0,
                           since=current.timeline[-1]["from"] if current else None,
                           reminder=reminders_service.unseen(session, actor.organization_id, actor.user_id))
