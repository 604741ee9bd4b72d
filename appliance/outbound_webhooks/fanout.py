"""Events to webhooks: an outbox listener that, for each event an organization's active webhooks
asked for, writes one delivery per webhook in the listener's transaction (the cursor moves with
them: an event is fanned out exactly once), then wakes the sender.

The event's data is made whole for a receiver here (a conversation event carries the
conversation's contact, status and assignee; a message event the decided `{messageId, wamid,
conversationId, phoneNumberId, contactId, direction, type, status, text}`); deliveries.py writes
it once per format into the rows. listeners.py subscribes `fan_out`; tasks.py wakes the sender.

Scope: an event of a number goes to webhooks of all numbers or of that one; template.status to
webhooks with any number of the template's business account; events of no number (an agent's
status) only to webhooks of all numbers; agent.status_changed only for the statuses asked for."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from sqlmodel import Session, select

from appliance.core import clock, events
from appliance.core.rows import driver_connection, from_json
from appliance.core.dispatcher import Event
from appliance.core.ids import new_id
from appliance.messages.text import plain_text
from appliance.outbound_webhooks import deliveries, envelopes, tasks
from appliance.phone_numbers.models import PhoneNumber

# What a message event's `data` always carries (the decisions' list).
MESSAGE_DATA = ("messageId", "wamid", "conversationId", "phoneNumberId", "contactId", "direction", "type", "status",
                "text")
FROM_OUTBOX = tuple(name for name in envelopes.SUBSCRIBABLE  # conversation.unanswered is timed per webhook (unanswered.py)
                    if name in events.CATALOG and name != events.CONVERSATION_UNANSWERED)


# Its module and name are its outbox cursor (listeners.py subscribes it): moving or renaming it
# would fan out every past event again.
def fan_out(session: Session, batch: list[Event]) -> None:
    organizations = {event.organization_id for event in batch if event.organization_id}
    active = _active_webhooks(session, organizations) if organizations else []
    if not active:
        return
    listening: dict[str, dict[str, list[Listener]]] = defaultdict(lambda: defaultdict(list))
    for webhook in active:
        for name in webhook.events:
            listening[webhook.organization_id][name].append(webhook)
    # An event no webhook hears (or of a number none covers) is dropped before anything about it is
    # read: a busy number nobody watches must not cost the one that is watched.
    wanted = [event for event in batch if any(_may_hear(w, event) for w in listening[event.organization_id][event.name])]
    if not wanted:
        return
    details = _Details(session, wanted)
    now, rows, locales = clock.now(), [], {}
    for event in wanted:
        data = details.of(event)
        matching = [w for w in listening[event.organization_id][event.name] if _in_scope(w, event.name, data, details)]
        if not matching:
            continue
        event_id = new_id()
        if event.organization_id not in locales:
            locales[event.organization_id] = deliveries.organization_locale(session, event.organization_id)
        rows += deliveries.delivery_rows(matching, event_id=event_id, event_type=event.name, created_at=event.created_at,
                              data=data, locale=locales[event.organization_id], now=now)
    write_deliveries(session, rows)


class Listener(NamedTuple):
    """What the fan-out needs of an active webhook."""
    id: str
    organization_id: str
    format: str
    events: list
    phone_number_ids: list
    agent_statuses: list


def _active_webhooks(session: Session, organizations: set[str]) -> list[Listener]:
    """These organizations' active webhooks, read through the driver on every batch: most
    organizations have none, and a broadcast's thousands of events a second then pass by on one
    indexed read (a mapped query per batch was 5% of the server's Python time in a broadcast at
    1,000 msg/s; with webhooks listening, the mapped objects' attribute reads in the scope checks
    cost as much again)."""
    rows = driver_connection(session).execute(
        "SELECT id, organization_id, format, events, phone_number_ids, agent_statuses FROM outbound_webhooks "
        f"WHERE organization_id IN ({', '.join('?' * len(organizations))}) AND active = ?", (*organizations, True))
    return [Listener(webhook_id, organization_id, format_, *(from_json(text) or [] for text in lists))
            for webhook_id, organization_id, format_, *lists in rows]


def write_deliveries(session: Session, rows: list[dict]) -> None:
    """Write them, and wake the sender once the transaction commits."""
    if rows:
        deliveries.insert(session, rows)
        tasks.wake_after_commit(session)


def _covers(webhook: Listener, number: str | None) -> bool:
    """The number rule: a webhook of every number hears them all; one of some numbers hears theirs,
    and no event of no number (an agent's status)."""
    return not webhook.phone_number_ids or (number is not None and number in webhook.phone_number_ids)


def _may_hear(webhook: Listener, event: Event) -> bool:
    """What the event itself says of the scope (a message event names its number); the rest is
    decided with its details (`_in_scope`)."""
    number = event.data.get("phoneNumberId")
    return number is None or _covers(webhook, number)


def _in_scope(webhook: Listener, name: str, data: dict, details: "_Details") -> bool:
    if name == events.AGENT_STATUS_CHANGED and webhook.agent_statuses and data.get("to") not in webhook.agent_statuses:
        return False
    if name == events.TEMPLATE_STATUS and webhook.phone_number_ids:
        return bool(set(webhook.phone_number_ids) & details.numbers_of_waba(data.get("wabaId")))
    return _covers(webhook, data.get("phoneNumberId"))


class _Details:
    """What a receiver needs beyond the event's own data, read once per batch."""

    def __init__(self, session: Session, batch: list[Event]):
        self._session = session
        conversation_ids = {e.data.get("conversationId") for e in batch if e.name.startswith("conversation.")}
        message_ids = {e.data.get("messageId") for e in batch if e.name.startswith("message.")}
        conversation_ids.discard(None)
        message_ids.discard(None)
        connection = driver_connection(session)  # a thousand events a second: no mapped query
        self._conversations = {row[0]: row for row in connection.execute(
            "SELECT id, phone_number_pk, contact_id, status, assignee_user_id FROM conversations "
            f"WHERE id IN ({', '.join('?' * len(conversation_ids))})", tuple(conversation_ids))} if conversation_ids else {}
        self._messages = {row[0]: row for row in connection.execute(
            "SELECT id, wamid, conversation_id, phone_number_pk, contact_id, direction, type, status, error_code, payload "
            f"FROM messages WHERE id IN ({', '.join('?' * len(message_ids))})", tuple(message_ids))} if message_ids else {}
        self._wabas: dict[str, set[str]] = {}

    def of(self, event: Event) -> dict:
        data = dict(event.data)
        if event.name.startswith("conversation.") and data.get("conversationId") in self._conversations:
            _, number, contact, status, assignee = self._conversations[data["conversationId"]]
            return {"conversationId": data["conversationId"], "phoneNumberId": number, "contactId": contact,
                    "status": status, "assigneeUserId": assignee, **data}
        if event.name.startswith("message."):
            return self._message(data)
        if event.name == events.TEMPLATE_STATUS:
            data.setdefault("name", data.pop("templateName", None))
        return data

    def _message(self, data: dict) -> dict:
        """The decided keys (`text`: the message's words or null), each always there, then what
        the event itself adds (a status change's `errorCode`, `sentBy`, `mediaStatus`...)."""
        row = self._messages.get(data.get("messageId"))
        if row is None:  # gone before its event was fanned out: what the event said, the rest null
            return {**dict.fromkeys(MESSAGE_DATA), **data}
        _, wamid, conversation, number, contact, direction, kind, status, error_code, payload = row
        return {"messageId": data["messageId"], "wamid": wamid, "conversationId": conversation, "phoneNumberId": number,
                "contactId": contact, "direction": direction, "type": kind, "status": status,
                "text": plain_text(kind, from_json(payload)),
                **({"errorCode": error_code} if error_code is not None else {}), **data}

    def numbers_of_waba(self, waba_id: str | None) -> set[str]:
        if waba_id not in self._wabas:
            self._wabas[waba_id] = set(self._session.exec(select(PhoneNumber.id).where(PhoneNumber.waba_pk == waba_id)).all())
        return self._wabas[waba_id]
