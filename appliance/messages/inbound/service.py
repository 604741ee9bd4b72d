"""What the network tells about messages: customers' messages (and the owner's, from the Business
app) recorded once per wamid, statuses applied forward only (`failed` sticks); their media is
fetched after the commit (media.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from appliance.core import clock, events
from appliance.core.rows import driver_connection, in_list, insert_many
from appliance.core.ids import new_id
from appliance.messages import search_index
from appliance.messages.kinds import MEDIA_TYPES
from appliance.messages.models import Message

# Outbound statuses only move forward; `failed` is final whatever arrives after it.
_STATUS_RANK = {"pending": 0, "sent": 1, "delivered": 2, "read": 3}
NETWORK_STATUSES = frozenset({"sent", "delivered", "read", "failed"})


def stored_wamids(session: Session, wamids: list[str]) -> set[str]:
    """Which of these wamids are stored already (one query for a whole delivery)."""
    if not wamids:
        return set()
    found: set[str] = set()
    driver = driver_connection(session)  # every delivery asks: straight to the driver
    for start in range(0, len(wamids), 500):
        marks, chunk = in_list(wamids[start:start + 500])
        found.update(row[0] for row in driver.execute(f"SELECT wamid FROM messages WHERE wamid IN ({marks})", chunk))
    return found


def find_for_statuses(session: Session, statuses: list[dict]) -> dict[str, Message]:
    """The outbound messages these status webhooks are about, by wamid. A message whose send got
    no answer (a timeout, a restart) has no wamid yet: the status finds it by the id we sent as
    `biz_opaque_callback_data`."""
    wamids = [s["id"] for s in statuses]
    found = {m.wamid: m for m in session.exec(select(Message).where(Message.wamid.in_(wamids))).all()}
    unlinked = {s.get("biz_opaque_callback_data"): s["id"] for s in statuses
                if s["id"] not in found and isinstance(s.get("biz_opaque_callback_data"), str)}
    if unlinked:
        for message in session.exec(select(Message).where(Message.id.in_(list(unlinked)), Message.wamid.is_(None),
                                                          Message.direction == "out")).all():
            found[unlinked[message.id]] = message
    return found


@dataclass(frozen=True)
class Inbound:
    """One inbound message as the network gave it (a web-chat visitor's has no wamid: its
    `client_id`, the visitor's own id for it, makes a resent message the same one)."""
    wamid: str | None
    kind: str
    payload: dict
    at: datetime
    reply_to: str | None
    client_id: str | None = None
    id: str | None = None  # ours, when the caller must know it (else made here)


def do_record_from_network(session: Session, *, number, conversation_id: str, contact_id: str,
                           customer_wa_id: str | None, items: list[Inbound], echo: bool = False) -> list[str]:
    """Store new messages of one delivery in one statement (each with its event): a customer's, or
    (`echo`) what the business wrote from the WhatsApp Business app on a coexistence number, kept
    as outbound and already sent. Answers the ids of those whose media must be fetched."""
    now = clock.now()
    rows, media_ids = [], []
    for item in items:
        media = item.payload.get(item.kind) if item.kind in MEDIA_TYPES else None
        media_id = str(media["id"]) if isinstance(media, dict) and media.get("id") else None
        row = {"id": item.id or new_id(), "organization_id": number.organization_id, "phone_number_pk": number.id,
               "conversation_id": conversation_id, "contact_id": contact_id, "direction": "out" if echo else "in",
               "wamid": item.wamid, "type": item.kind, "payload": item.payload,
               "status": "sent" if echo else "received", "sent_from": "business_app" if echo else None,
               "sent_by": "user" if echo else None,
               "reply_to_wamid": item.reply_to, "sent_at": item.at, "media_id": media_id,
               "customer_wa_id": customer_wa_id, "hidden": False, "send_attempts": 0, "client_id": item.client_id,
               "media_status": "pending" if media_id else None,
               "media_mime_type": media.get("mime_type") if media_id else None,
               "media_attempts": 0, "created_at": now, "updated_at": now}
        rows.append(row)
        if media_id:
            media_ids.append(row["id"])
    if rows:
        search_index.index_new(session, rows)
        # Core, not ORM objects: building and flushing a mapped object per row was most of the cost.
        insert_many(session, Message.__table__, rows)
        events.emit_many(session, events.MESSAGE_CREATED, organization_id=number.organization_id, items=[
            {"messageId": row["id"], "conversationId": conversation_id, "phoneNumberId": number.id,
             "direction": row["direction"], "type": row["type"], **({"sentBy": "user"} if echo else {})}
            for row in rows])
    return media_ids


# Failures of ours that only mean "we do not know": the network's word on the message overrides them.
UNKNOWN_OUTCOME_CODES = frozenset({-2, -3})


def do_apply_status(session: Session, *, message: Message, status: str, error: dict | None,
                    wamid: str | None = None) -> bool:
    """Move an outbound message's status forward; answers whether anything changed. `wamid` links
    a message whose send got no answer to the network's id."""
    if message.direction != "out" or status not in NETWORK_STATUSES:
        return False
    if message.wamid is None and wamid:
        message.wamid = wamid
        if message.status == "failed" and message.error_code in UNKNOWN_OUTCOME_CODES:
            message.status, message.error_code, message.error_title, message.error_details = "pending", None, None, None
    if message.status == "failed":
        return False
    if status == "failed":
        message.status = "failed"
        if error:
            message.error_code = error.get("code") if isinstance(error.get("code"), int) else None
            message.error_title = str(error.get("title") or error.get("message") or "")[:200] or None
            details = (error.get("error_data") or {}).get("details") if isinstance(error.get("error_data"), dict) else None
            message.error_details = str(details)[:1000] if details else None
    elif _STATUS_RANK[status] > _STATUS_RANK.get(message.status, 0):
        message.status = status
    else:
        return False
    message.updated_at = clock.now()
    session.add(message)
    events.emit(session, events.MESSAGE_UPDATED, organization_id=message.organization_id, messageId=message.id,
                conversationId=message.conversation_id, status=message.status)
    return True
