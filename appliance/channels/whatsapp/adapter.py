"""Inbound webhooks of the Cloud API, turned into domain calls.

Order of work for one POST (every step before storing anything):
1. the signature header is present and well formed;
2. the body is a JSON object of Meta's shape (each field used below is checked);
3. the business accounts it names are found by their numbers' `phone_number_id` (and by the
   entry's WABA id for account-level fields);
4. `X-Hub-Signature-256` is checked over the raw bytes with each of those accounts' app secret;
5. every entry, change, message and status is applied in one transaction, idempotent by wamid.
`receive` runs them all; the route acknowledges only after that transaction commits
(http.unit_of_work). This module is the top of the chat domains: it calls them, none imports it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlmodel import Session

from appliance.contacts import opt_ins
from appliance.contacts import service as contacts_service
from appliance.conversations import recording as conversation_recording
from appliance.core import json_text, runtime
from appliance.core.db import after_commit
from appliance.core.rows import read_row
from appliance.core.queue import enqueue_after_commit
from appliance.core.errors import Invalid, NotFound, Unauthorized
from appliance.core.text import fold
from appliance.messages.inbound import service as inbound_messages
from appliance.messages import text as message_text
from appliance.organizations.models import Organization
from appliance.phone_numbers.models import PhoneNumber
from appliance.templates import service as templates_service
from appliance.wabas import service as wabas_service, tasks as wabas_tasks, webhook_setup
from appliance.wabas.models import BusinessAccount

_SIGNATURE = re.compile(r"^sha256=([0-9a-f]{64})$")
# Fields whose changes belong to one business number (routed by metadata.phone_number_id); the
# others (template updates, account updates) belong to the entry's business account.
_NUMBER_FIELDS = frozenset({"messages", "smb_app_state_sync", "smb_message_echoes"})
_MESSAGE_FIELDS = ("id", "timestamp", "type")


@dataclass
class Outcome:
    messages: int = 0
    duplicates: int = 0
    statuses: int = 0
    echoes: int = 0  # what the business wrote in the WhatsApp Business app (coexistence)
    contacts: int = 0  # contacts created or named by a coexistence number's address book
    media_message_ids: list[str] = field(default_factory=list)


def _invalid(path: str, problem: str) -> Invalid:
    return Invalid("The webhook payload is not in the Cloud API's shape; nothing was stored.",
                   code="invalid_webhook_payload", errors={path: [problem]})


def check_shape(payload) -> list[tuple[str, dict]]:
    """The (WABA id, change) pairs of a delivery, after checking every field this module reads."""
    if not isinstance(payload, dict) or payload.get("object") != "whatsapp_business_account":
        raise _invalid("object", "Must be 'whatsapp_business_account'.")
    entries = payload.get("entry")
    if not isinstance(entries, list) or not entries:
        raise _invalid("entry", "Must be a non-empty list.")
    changes = []
    for e, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not isinstance(entry.get("changes"), list):
            raise _invalid(f"entry[{e}]", "Needs an id and a list of changes.")
        for c, change in enumerate(entry["changes"]):
            where = f"entry[{e}].changes[{c}]"
            if not isinstance(change, dict) or not isinstance(change.get("field"), str) \
                    or not isinstance(change.get("value"), dict):
                raise _invalid(where, "Needs a field and a value object.")
            if change["field"] == "messages":
                _check_messages_value(change["value"], f"{where}.value")
            elif change["field"] == "smb_app_state_sync":
                _check_state_sync_value(change["value"], f"{where}.value")
            elif change["field"] == "smb_message_echoes":
                _check_echoes_value(change["value"], f"{where}.value")
            changes.append((entry["id"], change))
    return changes


def _check_metadata(value: dict, where: str) -> None:
    metadata = value.get("metadata")
    if not isinstance(metadata, dict) or not isinstance(metadata.get("phone_number_id"), str):
        raise _invalid(f"{where}.metadata", "Needs phone_number_id.")


def _check_state_sync_value(value: dict, where: str) -> None:
    _check_metadata(value, where)
    items = value.get("state_sync")
    if not isinstance(items, list):
        raise _invalid(f"{where}.state_sync", "Must be a list.")
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("contact"), dict) \
                or not isinstance(item["contact"].get("phone_number"), str) or item.get("action") not in ("add", "remove"):
            raise _invalid(f"{where}.state_sync[{i}]", "Needs a contact with phone_number and action add or remove.")


def _check_echoes_value(value: dict, where: str) -> None:
    _check_metadata(value, where)
    echoes = value.get("message_echoes")
    if not isinstance(echoes, list):
        raise _invalid(f"{where}.message_echoes", "Must be a list.")
    for i, echo in enumerate(echoes):
        if not isinstance(echo, dict) or not all(isinstance(echo.get(k), str) and echo.get(k) for k in (*_MESSAGE_FIELDS, "to")) \
                or not echo["timestamp"].isdigit():
            raise _invalid(f"{where}.message_echoes[{i}]", "Needs id, to, type and timestamp (epoch seconds) as strings.")


def _check_messages_value(value: dict, where: str) -> None:
    _check_metadata(value, where)
    for name in ("contacts", "messages", "statuses"):
        if name in value and not isinstance(value[name], list):
            raise _invalid(f"{where}.{name}", "Must be a list.")
    for i, contact in enumerate(value.get("contacts", [])):
        if not isinstance(contact, dict) or not (isinstance(contact.get("wa_id"), str) or isinstance(contact.get("user_id"), str)):
            raise _invalid(f"{where}.contacts[{i}]", "Needs wa_id or user_id.")
    for i, message in enumerate(value.get("messages", [])):
        if not isinstance(message, dict) or not all(isinstance(message.get(k), str) and message.get(k) for k in _MESSAGE_FIELDS):
            raise _invalid(f"{where}.messages[{i}]", "Needs id, timestamp and type as strings.")
        if not message["timestamp"].isdigit():
            raise _invalid(f"{where}.messages[{i}].timestamp", "Must be epoch seconds.")
        if not isinstance(message.get("from"), str) and not isinstance(message.get("from_user_id"), str):
            raise _invalid(f"{where}.messages[{i}]", "Needs from (or from_user_id).")
    for i, status in enumerate(value.get("statuses", [])):
        if not isinstance(status, dict) or not isinstance(status.get("id"), str) or not isinstance(status.get("status"), str):
            raise _invalid(f"{where}.statuses[{i}]", "Needs id and status.")


def receive(session: Session, raw: bytes, signature: str | None) -> Outcome:
    """One delivery of the network, steps 1 to 5; answers what was stored. `session` is the writing
    unit of the request, begun only at step 5."""
    if not signature:
        check_signature(raw, signature, [])  # 401 before even reading the body
    payload = json_text.loads(raw)  # within limits; a lone surrogate or a NUL in a text becomes U+FFFD
    changes = check_shape(payload)
    numbers, accounts = check_routing(runtime.get().db, changes, raw, signature)
    outcome = do_apply(session, changes, numbers, accounts)
    webhook_setup.note_delivery(session, {account.organization_id for account in accounts})
    return outcome


def find_accounts(session: Session, changes: list[tuple[str, dict]]) -> tuple[dict, list]:
    """The connected numbers and business accounts a delivery names (read-only rows); 404 when it
    names none."""
    numbers: dict = {}
    accounts: dict = {}
    for waba_id, change in changes:
        if change["field"] in _NUMBER_FIELDS:
            phone_number_id = change["value"]["metadata"]["phone_number_id"]
            number = numbers.get(phone_number_id) or wabas_service.find_connected_number(session, phone_number_id)
            if number is not None:
                numbers[phone_number_id] = number
                accounts[number.waba_pk] = read_row(session, BusinessAccount.__table__, id=number.waba_pk)
        else:
            account = read_row(session, BusinessAccount.__table__, waba_id=waba_id, absent=("disconnected_at",))
            if account is not None:
                accounts[account.id] = account
    if not accounts:
        raise NotFound("The delivery names no phone number or business account connected here.",
                       code="unknown_phone_number")
    return numbers, list(accounts.values())


def check_routing(database, changes: list[tuple[str, dict]], raw: bytes,
                  signature: str | None) -> tuple[dict[str, PhoneNumber], list[BusinessAccount]]:
    """Steps 3 and 4 in a reading unit of their own: the write lock is taken only once a delivery
    is known to be ours and authentic (the writers of the process queue for it)."""
    with database.unit_of_work(write=False) as session:
        numbers, accounts = find_accounts(session, changes)
    try:
        check_signature(raw, signature, accounts)
    except Unauthorized:
        webhook_setup.note_rejection(database, {account.organization_id for account in accounts})
        raise
    return numbers, accounts


def check_signature(raw: bytes, header: str | None, accounts: list[BusinessAccount]) -> None:
    """`X-Hub-Signature-256` must be the HMAC of these exact bytes under each account's app secret."""
    found = _SIGNATURE.match(header or "")
    if found is None:
        raise Unauthorized("X-Hub-Signature-256 is missing or malformed.", code="webhook_signature_missing")
    for account in accounts:
        _, app_secret = wabas_service.credentials(account)
        expected = hmac.new(app_secret.encode(), raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, found.group(1)):
            raise Unauthorized("The signature does not match the body.", code="webhook_signature_invalid")


def do_apply(session: Session, changes: list[tuple[str, dict]], numbers: dict[str, PhoneNumber],
             accounts: list[BusinessAccount]) -> Outcome:
    outcome = Outcome()
    by_waba = {account.waba_id: account for account in accounts}
    for waba_id, change in changes:
        value = change["value"]
        if change["field"] == "messages":
            number = numbers.get(value["metadata"]["phone_number_id"])
            if number is None:
                continue  # a number not connected here (another app's, or disconnected)
            _apply_messages(session, number, value, outcome)
        elif change["field"] == "smb_message_echoes":
            number = numbers.get(value["metadata"]["phone_number_id"])
            if number is not None:
                _apply_echoes(session, number, value["message_echoes"], outcome)
        elif change["field"] == "smb_app_state_sync":
            number = numbers.get(value["metadata"]["phone_number_id"])
            if number is not None:
                outcome.contacts += contacts_service.do_record_address_book(
                    session, organization_id=number.organization_id, items=value["state_sync"])
        elif change["field"] == "message_template_status_update" and waba_id in by_waba:
            templates_service.do_apply_status_update(session, account=by_waba[waba_id], value=value)
        elif change["field"] == "phone_number_quality_update" and waba_id in by_waba:
            # The rating itself is not in the change: read from the network once this is stored.
            enqueue_after_commit(session, wabas_tasks.refresh_quality, by_waba[waba_id].id, str(value.get("event") or "")[:40] or None)
    if outcome.media_message_ids:
        from appliance.messages.tasks import fetch_inbound_media
        ids = list(outcome.media_message_ids)
        after_commit(session, lambda: [fetch_inbound_media(message_id) for message_id in ids])
    return outcome


def _apply_messages(session: Session, number: PhoneNumber, value: dict, outcome: Outcome) -> None:
    """A change's messages, grouped by customer: one contact and one conversation update per
    customer, one query for the wamids already stored (deliveries carry up to dozens of messages)."""
    profiles = {c.get("wa_id") or c.get("user_id"): c for c in value.get("contacts", [])}
    keywords = _opt_out_keywords(session, number.organization_id)
    by_customer = _new_by_customer(session, value.get("messages", []), outcome,
                                   lambda message: message.get("from") or message.get("from_user_id"))
    for customer, messages in by_customer.items():
        profile = profiles.get(customer) or {}
        first = messages[0]
        contact, _ = contacts_service.do_upsert_from_network(
            session, organization_id=number.organization_id, wa_id=first.get("from"),
            user_id=profile.get("user_id") or first.get("from_user_id"),
            profile_name=(profile.get("profile") or {}).get("name"))
        items = [_as_stored(message) for message in messages]
        last = max(items, key=lambda item: item.at)
        conversation_id = conversation_recording.do_record_inbound(session, number=number, contact_id=contact.id,
                                                                  at=last.at, preview=message_text.preview(last.kind, last.payload),
                                                                  messages=len(items))
        for message in messages:
            keyword = _opt_out_keyword(keywords, message)
            if keyword:
                opt_ins.do_record_keyword(session, contact=contact, keyword=keyword)
        outcome.media_message_ids += inbound_messages.do_record_from_network(
            session, number=number, conversation_id=conversation_id, contact_id=contact.id, customer_wa_id=contact.wa_id,
            items=items)
        outcome.messages += len(items)
    statuses = value.get("statuses", [])
    sent = inbound_messages.find_for_statuses(session, statuses) if statuses else {}
    for status in statuses:
        found = sent.get(status["id"])
        if found is None or found.organization_id != number.organization_id:
            continue  # a message this appliance did not send
        errors = status.get("errors") if isinstance(status.get("errors"), list) else []
        if inbound_messages.do_apply_status(session, message=found, status=status["status"], wamid=status["id"],
                                           error=errors[0] if errors and isinstance(errors[0], dict) else None):
            outcome.statuses += 1


def _new_by_customer(session: Session, messages: list[dict], outcome: Outcome, customer_of) -> dict[str, list[dict]]:
    """The messages not stored yet (one query for the whole change), grouped by `customer_of(message)`;
    redeliveries (or the same message twice in one batch) are counted as duplicates, messages without
    a customer skipped."""
    seen = inbound_messages.stored_wamids(session, [m["id"] for m in messages])
    by_customer: dict[str, list[dict]] = {}
    for message in messages:
        if message["id"] in seen:
            outcome.duplicates += 1
            continue
        customer = customer_of(message)
        if customer is None:
            continue
        seen.add(message["id"])
        by_customer.setdefault(customer, []).append(message)
    return by_customer


def _as_stored(message: dict) -> "inbound_messages.Inbound":
    """A message (or echo) of the network as the messages service stores it: the type's object and
    everything else the network sent in `payload`, the replied-to wamid apart."""
    context = message.get("context") if isinstance(message.get("context"), dict) else {}
    return inbound_messages.Inbound(
        wamid=message["id"], kind=message["type"], reply_to=context.get("id"),
        at=datetime.fromtimestamp(int(message["timestamp"]), tz=timezone.utc),
        payload={k: v for k, v in message.items() if k not in ("id", "from", "to", "timestamp", "type")})


def _apply_echoes(session: Session, number, echoes: list[dict], outcome: Outcome) -> None:
    """A coexistence number's messages written in the WhatsApp Business app: stored as outbound and
    sent, in the customer's conversation, idempotent by wamid like everything else."""
    by_customer = _new_by_customer(session, echoes, outcome, lambda echo: contacts_service.normalize_wa_id(echo["to"]))
    for wa_id, messages in by_customer.items():
        contact, _ = contacts_service.do_upsert_from_network(session, organization_id=number.organization_id,
                                                             wa_id=wa_id, user_id=None, profile_name=None)
        items = [_as_stored(message) for message in messages]
        last = max(items, key=lambda item: item.at)
        conversation_id = conversation_recording.do_record_echo(session, number=number, contact_id=contact.id,
                                                               at=last.at, preview=message_text.preview(last.kind, last.payload))
        outcome.media_message_ids += inbound_messages.do_record_from_network(
            session, number=number, conversation_id=conversation_id, contact_id=contact.id, customer_wa_id=contact.wa_id,
            items=items, echo=True)
        outcome.echoes += len(items)


def _opt_out_keywords(session: Session, organization_id: str) -> dict[str, str]:
    """The organization's opt-out keywords, normalized -> as written (none when opt-out is off)."""
    organization = read_row(session, Organization.__table__, id=organization_id)
    if organization is None or not organization.opt_out_enabled:
        return {}
    return {fold(keyword): keyword for keyword in organization.opt_out_keywords}


def _opt_out_keyword(keywords: dict[str, str], message: dict) -> str | None:
    """The keyword this text message is (the whole message, any case or accent), if any."""
    if not keywords or message["type"] != "text" or not isinstance(message.get("text"), dict):
        return None
    return keywords.get(fold(str(message["text"].get("body", ""))))
