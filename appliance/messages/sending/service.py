"""Sending: a message is checked, stored (`pending`, queued) and handed to its number's sender in the
request's transaction; the network is called after the commit (queue.py, network.py, lanes.py),
never while a request waits.

Checked here, before anything is stored: the key's phone numbers (403), the recipient, each field of
the type's object, template variables against the synced template, the reply target, and the
24-hour customer-service window (outside it only templates go: 400 `outside_service_window`).
A `clientId` seen before answers the first message and sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlmodel import Session

from appliance.attendance import guard as attendance_guard
from appliance.contacts import service as contacts_service
from appliance.conversations import recording as conversation_recording
from appliance.core import clock, events, tenancy
from appliance.core.actor import OrgActor
from appliance.core.rows import insert_many, read_row
from appliance.core.errors import Invalid
from appliance.core.ids import new_id
from appliance.messages import search_index, tasks
from appliance.messages import text as message_text
from appliance.messages.models import Message
from appliance.messages.sending import compose, template_fill
from appliance.phone_numbers import service as phone_numbers_service

_MESSAGES = Message.__table__


@dataclass(frozen=True, kw_only=True)
class Outgoing:
    """What a caller asks to send (POST /messages, or built by the rich-message routes)."""
    phone_number_pk: str
    to: str
    type: str
    payload: Any = None
    client_id: str | None = None
    reply_to_message_id: str | None = None
    template_id: str | None = None
    template_name: str | None = None
    template_language: str | None = None
    variables: Any = None
    # A file of the appliance's own (sending/local_media.py: {"source", "id"}), uploaded when sent;
    # set by services (the bot), never read from a request.
    local_media: dict | None = None


def do_send(session: Session, *, actor: OrgActor, outgoing: Outgoing) -> tuple[SimpleNamespace, bool]:
    """Store the message and queue it; answers it (a read-only row) and whether it is new (False: a
    repeated clientId). Rows through the driver, not mapped objects: every send passes here."""
    number = phone_numbers_service.read_phone_number(session, actor=actor, phone_number_pk=outgoing.phone_number_pk)
    attendance_guard.check_may_attend(session, actor)
    if contacts_service.is_webchat_address(outgoing.to):
        return _send_to_visitor(session, actor, number, outgoing)
    to = compose.normalize_recipient(outgoing.to)
    payload = _payload(session, actor, number, outgoing)
    # The write transaction begins here (rows read afresh): checks above ran without the write lock.
    if outgoing.client_id:
        first = read_row(session, _MESSAGES, organization_id=actor.organization_id, client_id=outgoing.client_id,
                         remember=False)
        if first is not None:
            return first, False
    contact, _ = contacts_service.do_upsert_from_network(session, organization_id=actor.organization_id, wa_id=to,
                                                         user_id=None, profile_name=None, networks_form=False)
    found = conversation_recording.find_window(session, phone_number_pk=number.id, contact_id=contact.id)
    if outgoing.type != "template":
        _check_window(found, to)
    reply_to = _reply_target(session, actor, number.id, to, outgoing.reply_to_message_id)
    conversation_id = conversation_recording.do_record_outbound(
        session, number=number, contact_id=contact.id, found=found, preview=message_text.preview(outgoing.type, payload),
        answered_by=actor.user_id if outgoing.type != "template" else None)
    row = _queued_row(organization_id=actor.organization_id, phone_number_pk=number.id, conversation_id=conversation_id,
                      contact_id=contact.id, to=to, kind=outgoing.type, payload=payload, sent_by=sent_by(actor),
                      user_id=actor.user_id, client_id=outgoing.client_id, reply_to=reply_to)
    _queue(session, actor.organization_id, number.id, [row])
    return SimpleNamespace(**{**{column.name: None for column in _MESSAGES.columns}, **row}), True


# What a website's chat box draws: words, and buttons or a list to pick from (the bot's menus).
WEBCHAT_TYPES = ("text", "interactive")


def _send_to_visitor(session: Session, actor: OrgActor, number, outgoing: Outgoing) -> tuple[SimpleNamespace, bool]:
    """A message to a visitor of the business's website (appliance/webchat): stored as sent (it
    goes through the visitor's socket, not the network: no queue, no window, no templates), and
    announced; the web chat's relay hands it to the visitor's browser, which says when it arrived."""
    if outgoing.type not in WEBCHAT_TYPES or outgoing.local_media is not None:
        raise compose.problem("type", f"A web-chat visitor is sent {' or '.join(WEBCHAT_TYPES)} messages; "
                              f"{outgoing.type} goes only to WhatsApp.", code="unsupported_on_webchat")
    payload = _payload(session, actor, number, outgoing)
    if outgoing.client_id:
        first = read_row(session, _MESSAGES, organization_id=actor.organization_id, client_id=outgoing.client_id,
                         remember=False)
        if first is not None:
            return first, False
    contact = contacts_service.find_by_address(session, organization_id=actor.organization_id, address=outgoing.to)
    found = conversation_recording.find_window(session, phone_number_pk=number.id,
                                               contact_id=contact.id) if contact else None
    if found is None or found.channel != "webchat":
        raise compose.problem("to", "No web-chat visitor with this address writes to this number.",
                              code="invalid_recipient")
    conversation_id = conversation_recording.do_record_outbound(
        session, number=number, contact_id=contact.id, found=found, preview=message_text.preview(outgoing.type, payload),
        answered_by=actor.user_id)
    row = _queued_row(organization_id=actor.organization_id, phone_number_pk=number.id, conversation_id=conversation_id,
                      contact_id=contact.id, to=outgoing.to, kind=outgoing.type, payload=payload,
                      sent_by=sent_by(actor), user_id=actor.user_id, client_id=outgoing.client_id, reply_to=None)
    row.update(status="sent", send_state=None, next_attempt_at=None)
    _store(session, actor.organization_id, number.id, [row])
    return SimpleNamespace(**{**{column.name: None for column in _MESSAGES.columns}, **row}), True


@dataclass(frozen=True)
class Prepared:
    """A template send whose checks the caller made (a broadcast's recipient): the contact, its
    number and the network's template object."""
    contact_id: str
    to: str
    payload: dict


def do_queue_templates(session: Session, *, organization_id: str, number, items: list[Prepared],
                       sent_by: str) -> list[str]:
    """Queue many template messages from one number at once (a broadcast's next batch): each in its
    contact's conversation, rows through the driver in one statement. Answers their ids, in order.
    Templates need no open window, so nothing here refuses a recipient."""
    conversation_ids = conversation_recording.do_record_outbound_many(
        session, number=number, sends=[(item.contact_id, message_text.preview("template", item.payload)) for item in items])
    now = clock.now()  # one moment for the batch: its text is made once, not once a row
    rows = [_queued_row(organization_id=organization_id, phone_number_pk=number.id, conversation_id=conversation_id,
                        contact_id=item.contact_id, to=item.to, kind="template", payload=item.payload, sent_by=sent_by,
                        now=now)
            for item, conversation_id in zip(items, conversation_ids)]
    _queue(session, organization_id, number.id, rows)
    return [row["id"] for row in rows]


def _queued_row(*, organization_id: str, phone_number_pk: str, conversation_id: str, contact_id: str, to: str,
                kind: str, payload: Any, sent_by: str, user_id: str | None = None, client_id: str | None = None,
                reply_to=None, now: datetime | None = None) -> dict:
    now = now or clock.now()
    return {"id": new_id(), "organization_id": organization_id, "phone_number_pk": phone_number_pk,
            "conversation_id": conversation_id, "contact_id": contact_id, "direction": "out", "wamid": None,
            "type": kind, "payload": payload, "status": "pending", "customer_wa_id": to,
            "client_id": client_id, "reply_to_message_id": reply_to.id if reply_to else None,
            "reply_to_wamid": reply_to.wamid if reply_to else None, "sent_by_user_id": user_id,
            "sent_by": sent_by, "hidden": False, "send_state": "queued", "send_attempts": 0, "next_attempt_at": now,
            "media_attempts": 0, "sent_at": now, "created_at": now, "updated_at": now}


def _queue(session: Session, organization_id: str, phone_number_pk: str, rows: list[dict]) -> None:
    """Store queued messages (through the driver: every send passes here), index their words,
    announce them, and wake the number's sender after the commit."""
    if not rows:
        return
    _store(session, organization_id, phone_number_pk, rows)
    tasks.wake_after_commit(session, phone_number_pk)


def _store(session: Session, organization_id: str, phone_number_pk: str, rows: list[dict]) -> None:
    search_index.index_new(session, rows)
    insert_many(session, _MESSAGES, rows)
    events.emit_many(session, events.MESSAGE_CREATED, organization_id=organization_id, items=[
        {"messageId": row["id"], "conversationId": row["conversation_id"], "phoneNumberId": phone_number_pk,
         "direction": "out", "type": row["type"], "sentBy": row["sent_by"]} for row in rows])


def sent_by(actor: OrgActor) -> str:
    """Who wrote an outbound message, as `sentBy` says: the bot, a survey, a sale's delivery, a person (the inbox, or
    an application acting with a person's grant), or an integration's API key."""
    if actor.kind in ("bot", "survey", "sale"):
        return actor.kind
    return "api" if actor.kind == "api_key" else "user"


def _payload(session: Session, actor: OrgActor, number, outgoing: Outgoing) -> Any:
    if outgoing.local_media is not None:
        caption = (outgoing.payload or {}).get("caption")
        if caption is not None and len(caption) > compose.CAPTION_MAX:
            raise compose.problem("payload.caption", f"At most {compose.CAPTION_MAX} characters.")
        return {"local": dict(outgoing.local_media), **({"caption": caption} if caption else {})}
    if outgoing.type != "template":
        if outgoing.template_id or outgoing.template_name or outgoing.variables is not None:
            raise compose.problem("type", "templateId, templateName and variables go with type template.")
        return compose.compose(outgoing.type, outgoing.payload)
    if outgoing.template_id or outgoing.template_name:
        if outgoing.payload is not None:
            raise compose.problem("payload", "Give either a template reference with variables, or the network's "
                                  "template object as payload, not both.")
        template = template_fill.resolve(session, actor=actor, waba_pk=number.waba_pk, template_id=outgoing.template_id,
                                         name=outgoing.template_name, language=outgoing.template_language)
        return template_fill.fill(template, outgoing.variables)
    if outgoing.payload is None:
        raise compose.problem("payload", "A template send needs templateId, templateName or the template object as payload.")
    return template_fill.check_native(session, number.waba_pk, outgoing.payload)


def _check_window(found, to: str) -> None:
    last = found.last_inbound_at if found is not None else None
    if last is None or clock.now() - last >= conversation_recording.SERVICE_WINDOW:
        since = f"since {clock.iso(last)}" if last else "ever"
        raise Invalid(f"{to} has not written to this number in the last 24 hours ({since}); outside that window "
                      "WhatsApp only delivers approved templates. Send a template (type template) instead.",
                      code="outside_service_window", lastInboundAt=clock.iso(last))


def _reply_target(session: Session, actor: OrgActor, phone_number_pk: str, to: str, message_id: str | None):
    if not message_id:
        return None
    target = read_row(session, Message.__table__, id=message_id, remember=False)
    tenancy.check_in_org(target, actor, what="message", code="message_not_found",
                         message="replyToMessageId: no message with this id in this organization.",
                         errors={"replyToMessageId": ["No such message."]})
    if target.phone_number_pk != phone_number_pk or target.customer_wa_id not in (None, to) or not target.wamid:
        raise compose.problem("replyToMessageId", "A message of this conversation that the network has (with a wamid).",
                              code="reply_target_invalid")
    return target
