"""An order is made when a customer's `order` message is stored (an outbox listener of
message.created, so no inbound delivery waits for it; a repeat writes nothing). The same way, a
picture a customer sends is kept as a transfer's receipt on their order waiting for payment, a
payment link's transaction pays its order, and keys added to a pool go to the orders waiting for
them."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from sqlmodel import Session, select

from appliance.core import clock, dispatcher, events
from appliance.core.rows import insert_many
from appliance.core.dispatcher import Event
from appliance.core.ids import new_id
from appliance.messages.models import Message
from appliance.orders import delivery, payments
from appliance.orders.models import Order


def _decimal(value) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def order_row(message) -> dict:
    """The order a message's `order` object describes (quantities and prices as the network sent
    them, checked: what cannot be read is kept as sent and left out of the total)."""
    body = (message.payload or {}).get("order") or {}
    items, total, currencies = [], Decimal(0), set()
    for raw in body.get("product_items") or []:
        quantity, price = _decimal(raw.get("quantity")), _decimal(raw.get("item_price"))
        items.append({"productRetailerId": str(raw.get("product_retailer_id") or "")[:100],
                      "quantity": str(quantity) if quantity is not None else raw.get("quantity"),
                      "itemPrice": str(price) if price is not None else raw.get("item_price"),
                      "currency": str(raw.get("currency") or "")[:3] or None})
        if quantity is not None and price is not None:
            total += quantity * price
        if raw.get("currency"):
            currencies.add(str(raw["currency"])[:3])
    now = clock.now()
    return {"id": new_id(), "organization_id": message.organization_id, "message_id": message.id,
            "conversation_id": message.conversation_id, "contact_id": message.contact_id,
            "phone_number_pk": message.phone_number_pk, "catalog_id": str(body.get("catalog_id") or "")[:100] or None,
            "items": items, "note": (str(body.get("text"))[:1000] if body.get("text") else None),
            "total": str(total), "currency": currencies.pop() if len(currencies) == 1 else None,
            "status_code": "PENDING", "status_note": None, "customer_notified": None, "not_notified_reason": None,
            "status_changed_by_user_id": None, "payment_status": "UNPAID", "delivery_status": "NONE",
            "created_at": now, "updated_at": now}


# The listener's name is its outbox cursor: renaming it would make every past order again (ignored).
# An event names its message's type; one stored before events did has none and is looked at as before.
@dispatcher.subscribe(events.MESSAGE_CREATED, batch=True,
                  when=lambda data: data.get("direction") == "in" and data.get("type", "order") == "order")
def record_orders(session: Session, batch: list[Event]) -> None:
    ids = [event.data["messageId"] for event in batch if event.data.get("messageId")]
    if not ids:
        return
    orders = session.exec(select(Message).where(Message.id.in_(ids), Message.type == "order")).all()
    if orders:
        insert_many(session, Order.__table__, [order_row(message) for message in orders], or_ignore=True)


@dispatcher.subscribe(events.MESSAGE_CREATED, batch=True,
                      when=lambda data: data.get("direction") == "in" and data.get("type") in payments.RECEIPT_TYPES)
def keep_transfer_receipts(session: Session, batch: list[Event]) -> None:
    payments.do_keep_receipt(session, [event.data["messageId"] for event in batch if event.data.get("messageId")])


@dispatcher.subscribe(events.PAYMENT_RECEIVED)
def settle_order_payments(session: Session, event: Event) -> None:
    payments.do_receive(session, event.data)


@dispatcher.subscribe(events.LICENSE_KEYS_ADDED)
def deliver_waiting_orders(session: Session, event: Event) -> None:
    delivery.do_deliver_waiting(session, event.organization_id)
