"""What a visitor of the business's website does through a widget (the socket's handlers in
gateway.py call these, each in its own unit of work): come back or begin (the pre-chat form), write,
read the conversation, say what arrived and what was read.

A visitor is a contact without a WhatsApp number (`user_id` `wc:<visitor id>`: where the inbox, the
bot and the API send their answers) in a conversation of the widget's number with `channel`
webchat. Their messages are stored as the network's are (messages/inbound), so everything the
inbox does with a customer's message (unread, the SLA clock, assignment, the bot, the AI agents,
pushes, webhooks) happens for them too. While the organization is closed (its business hours) each
visitor's words also reach the team by mail, at most every MAIL_EVERY."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, select

from appliance.contacts import service as contacts_service
from appliance.contacts.models import Contact
from appliance.conversations import recording as conversation_recording
from appliance.conversations.models import Conversation
from appliance.conversations.notifications import MANAGERS
from appliance.core import clock, crypto, locales, runtime, schema
from appliance.core.errors import Invalid, Unauthorized
from appliance.core.ids import new_id
from appliance.core.rows import read_row, update_by_id
from appliance.installation import public_address
from appliance.mail import service as mail_service
from appliance.memberships.models import Membership
from appliance.messages import text as message_text
from appliance.messages.inbound import service as inbound_messages
from appliance.messages.models import Message
from appliance.organizations import hours
from appliance.organizations.models import Organization
from appliance.phone_numbers.models import PhoneNumber
from appliance.roles.models import Role
from appliance.users.models import User
from appliance.webchat import service as widgets
from appliance.webchat.models import WebchatVisitor, WebchatWidget

TEXT_MAX = 4096
HISTORY = 50
MAIL_EVERY = timedelta(minutes=15)
SEEN_EVERY = timedelta(minutes=1)  # last_seen_at moves at most this often: not a write per message
_EMAIL = re.compile(rf"^{schema.EMAIL_ADDRESS}$")
_PHONE = re.compile(r"^\+?[0-9 ()-]{7,20}$")


def _text(value) -> str:
    """What a browser sent where a string belongs, as one (anything else: nothing)."""
    return value.strip() if isinstance(value, str) else str(value) if isinstance(value, int) else ""


@dataclass(frozen=True)
class Identity:
    """What the website said about the visitor: an identifier of its own signed-in user and the
    HMAC its server made of it (both absent for an anonymous visitor)."""
    identifier: str | None = None
    identifier_hash: str | None = None


def verified_identifier(widget: WebchatWidget, identity: Identity) -> str | None:
    """The identifier when its hash matches; refused (401) when the widget enforces identity and it
    does not; otherwise None (an unproven identifier is ignored, never trusted)."""
    identifier = _text(identity.identifier)[:200] or None
    given_hash = _text(identity.identifier_hash)
    if identifier and given_hash and widgets.identity_matches(widget, identifier, given_hash):
        return identifier
    if widget.enforce_identity:
        raise Unauthorized("This website's chat needs a signed-in visitor whose identity the website vouched for.",
                           code="identity_mismatch")
    return None


def find(session: Session, widget, *, token: str | None, identifier: str | None):
    """The visitor coming back (a read-only row): by the verified identifier, else by the token
    their browser kept."""
    table = WebchatVisitor.__table__
    if identifier:
        return read_row(session, table, widget_id=widget.id, identifier=identifier)
    token = _text(token)
    if token and len(token) <= 100:
        found = read_row(session, table, token_hash=runtime.get().keyring.token_hash(token))
        return found if found is not None and found.widget_id == widget.id and found.identifier is None else None
    return None


def _form(widget: WebchatWidget, answers: dict) -> dict:
    """The pre-chat answers the widget asks for, checked (400 with each field's problem)."""
    given = {key: _text(answers.get(key)) for key in widgets.PRE_CHAT_FIELDS}
    errors = {}
    for item in widget.pre_chat_fields or []:
        if item["required"] and not given[item["field"]]:
            errors[item["field"]] = ["Required."]
    if given["email"] and (len(given["email"]) > 254 or not _EMAIL.fullmatch(given["email"])):
        errors["email"] = ["Not an email address."]
    if given["phone"] and not _PHONE.fullmatch(given["phone"]):
        errors["phone"] = ["Not a phone number."]
    if len(given["name"]) > 200:
        errors["name"] = ["At most 200 characters."]
    if errors:
        raise Invalid("Check the form.", code="validation_failed", errors=errors)
    asked = {item["field"] for item in widget.pre_chat_fields or []}
    return {key: value for key, value in given.items() if value and key in asked}


def do_begin(session: Session, widget: WebchatWidget, *, identifier: str | None, answers: dict) -> tuple[WebchatVisitor, str | None]:
    """A new visitor from the pre-chat form: their contact and their token (None for a verified
    identity: the website's sign-in brings them back)."""
    if identifier:  # already met on another device: the same visitor
        known = find(session, widget, token=None, identifier=identifier)
        if known is not None:
            return known, None
    form = _form(widget, answers)
    now = clock.now()
    visitor = WebchatVisitor(organization_id=widget.organization_id, widget_id=widget.id, contact_id="",
                             identifier=identifier, email=form.get("email"), last_seen_at=now, created_at=now)
    token = None if identifier else crypto.random_token(24)
    visitor.token_hash = runtime.get().keyring.token_hash(token) if token else None
    contact = contacts_service.do_add(
        session, organization_id=widget.organization_id, wa_id=None, user_id=contacts_service.WEBCHAT_PREFIX + visitor.id,
        name=form.get("name"), attributes={key: form[key] for key in ("email", "phone") if key in form})
    visitor.contact_id = contact.id
    session.add(visitor)
    session.flush()
    return visitor, token


def conversation_of(session: Session, visitor, widget):
    return read_row(session, Conversation.__table__, phone_number_pk=widget.phone_number_pk,
                    contact_id=visitor.contact_id)


def do_receive(session: Session, widget, visitor, *, client_id: str, text: str | None = None,
               reply: dict | None = None) -> tuple[str, str]:
    """Store what the visitor wrote (or the button they pressed) as a customer's message; answers
    its id and its conversation's. The same `client_id` again (a resend after a lost answer) is the
    same message. `widget` and `visitor` are read-only rows; everything read here is read before
    the write transaction begins (the thread's reader), so the writers' lock is held only for the
    writes a WhatsApp message makes too (a busy number's deliveries wait behind nothing more)."""
    kind, payload = _inbound(text, reply)
    stored_id = stored_client_id(visitor.id, client_id)
    if stored_id is None:
        raise Invalid("Each message needs its clientId.", code="validation_failed", errors={"clientId": ["Required."]})
    first = read_row(session, Message.__table__, organization_id=widget.organization_id, client_id=stored_id)
    if first is not None:
        return first.id, first.conversation_id
    number = read_row(session, PhoneNumber.__table__, id=widget.phone_number_pk)
    organization = read_row(session, Organization.__table__, id=widget.organization_id)
    now = clock.now()
    closed = not hours.is_open(organization.business_hours_schedule, organization.timezone or "UTC", now)
    mail_due = closed and (visitor.offline_mailed_at is None or now - visitor.offline_mailed_at >= MAIL_EVERY)
    # The write transaction begins here.
    conversation_id = conversation_recording.do_record_inbound(
        session, number=number, contact_id=visitor.contact_id, at=now, preview=message_text.preview(kind, payload),
        channel="webchat")
    message_id = new_id()
    inbound_messages.do_record_from_network(
        session, number=number, conversation_id=conversation_id, contact_id=visitor.contact_id,
        customer_wa_id=contacts_service.WEBCHAT_PREFIX + visitor.id,
        items=[inbound_messages.Inbound(wamid=None, kind=kind, payload=payload, at=now, reply_to=None,
                                        client_id=stored_id, id=message_id)])
    seen = {"last_seen_at": now} if now - visitor.last_seen_at >= SEEN_EVERY else {}
    if mail_due:  # read again in the transaction: the same visitor's message before it, in its batch, may have mailed
        latest = read_row(session, WebchatVisitor.__table__, id=visitor.id, remember=False)
        mail_due = latest.offline_mailed_at is None or now - latest.offline_mailed_at >= MAIL_EVERY
    if mail_due:
        seen["offline_mailed_at"] = now
        _mail_team(session, widget, visitor, organization, conversation_id, message_text.plain_text(kind, payload) or "")
    if seen:
        update_by_id(session, WebchatVisitor.__table__, visitor.id, seen)
    return message_id, conversation_id


def stored_client_id(visitor_id: str, client_id) -> str | None:
    """The message's `client_id` as stored: the visitor's own id for it, under theirs (unique in the
    organization, so a resend is found)."""
    given = _text(client_id)[:40]
    return f"{contacts_service.WEBCHAT_PREFIX}{visitor_id}:{given}" if given else None


def _inbound(text: str | None, reply: dict | None) -> tuple[str, dict]:
    if isinstance(reply, dict) and isinstance(reply.get("id"), str) and isinstance(reply.get("title"), str):
        picked = {"id": reply["id"][:256], "title": reply["title"][:100]}
        kind = "list_reply" if reply.get("list") else "button_reply"
        return "interactive", {"interactive": {"type": kind, kind: picked}}
    words = (text or "").strip() if isinstance(text, str) else ""
    if not words or len(words) > TEXT_MAX:
        raise Invalid(f"Write between 1 and {TEXT_MAX} characters.", code="validation_failed",
                      errors={"text": ["Empty or too long."]})
    return "text", {"text": {"body": words}}


def _mail_team(session: Session, widget, visitor, organization, conversation_id: str, words: str) -> None:
    """Outside business hours the team hears of the visitor by mail (the bot's out-of-hours notice
    answers the visitor): the widget's address, else the organization's owners and administrators."""
    contact = read_row(session, Contact.__table__, id=visitor.contact_id)
    link = f"{public_address.base_url()}/inbox/{organization.id}/c/{conversation_id}"
    values = dict(widget=widget.name, organization=organization.name, visitor=(contact.name if contact else None) or "?",
                  email=visitor.email or "-", words=words[:1000], link=link)
    if widget.offline_email:
        mail_service.do_queue_mail(session, to=widget.offline_email, kind="webchat_offline",
                                   locale=locales.customer_language(organization.country), name=widget.name, **values)
        return
    people = session.exec(select(User).join(Membership, Membership.user_id == User.id)
                          .join(Role, Role.id == Membership.role_id)
                          .where(Membership.organization_id == organization.id, Membership.suspended_at.is_(None),
                                 Role.key.in_(MANAGERS))).all()
    for person in people:
        mail_service.do_queue_mail(session, to=person.email, kind="webchat_offline", locale=person.locale,
                                   name=person.name, **values)


def history(session: Session, widget: WebchatWidget, visitor: WebchatVisitor) -> list[dict]:
    """The conversation's last messages, oldest first, as the widget draws them."""
    conversation = conversation_of(session, visitor, widget)
    if conversation is None:
        return []
    rows = session.exec(select(Message).where(Message.conversation_id == conversation.id, Message.hidden.is_(False))
                        .order_by(Message.created_at.desc(), Message.id.desc()).limit(HISTORY)).all()
    return [shown(row) for row in reversed(rows)]


def shown(message) -> dict:
    """A message as the visitor's widget draws it: words, and the buttons or list rows to pick."""
    payload = message.payload or {}
    inner = payload.get("interactive", payload) if message.type == "interactive" else {}
    choices = []
    action = inner.get("action") if isinstance(inner.get("action"), dict) else {}
    for button in action.get("buttons") or []:
        reply = button.get("reply") or {}
        choices.append({"id": reply.get("id"), "title": reply.get("title")})
    for section in action.get("sections") or []:
        for row in section.get("rows") or []:
            choices.append({"id": row.get("id"), "title": row.get("title"), "list": True})
    return {"id": message.id, "direction": message.direction, "text": message_text.plain_text(message.type, payload) or "",
            "choices": choices if message.direction == "out" else [], "status": message.status,
            "at": clock.iso(message.created_at), "sentBy": message.sent_by}


def do_mark(session: Session, widget: WebchatWidget, visitor: WebchatVisitor, *, ids: list, status: str) -> int:
    """The visitor's widget says these answers arrived (`delivered`) or were seen (`read`): their
    ticks in the inbox move, as the network's statuses move them for WhatsApp."""
    if status not in ("delivered", "read") or not isinstance(ids, list):
        raise Invalid("Say delivered or read, with the messages' ids.", code="validation_failed")
    conversation = conversation_of(session, visitor, widget)
    wanted = [str(i) for i in ids[:HISTORY]]
    if conversation is None or not wanted:
        return 0
    moved = 0
    for message in session.exec(select(Message).where(Message.id.in_(wanted), Message.conversation_id == conversation.id,
                                                      Message.direction == "out")).all():
        moved += inbound_messages.do_apply_status(session, message=message, status=status, error=None)
    return moved
