"""An order's payment, and the sale it completes once (orders/delivery.py).

Three ways an order is paid, each deciding once (an order already paid is not paid again; a
second payment for it is money to give back, said as `license.payment_unmatched`):
- a payment link made through the billing wave's processor (Wompi checkout), whose approved
  transaction comes back as `payment.received` (billing/processor_events.py: the event's checksum
  checked, then the transaction asked of the processor itself, since the checksum does not cover
  the link): it pays the order whose link it names when the amount and currency are the order's;
- a transfer the customer reports in the chat: the picture they send while an order waits for
  payment is kept on the order (`receiptMessageId`), and a person who checked the bank confirms
  it (`license.transfer_confirmed`); a screenshot alone never pays anything;
- a person's "mark paid" (cash, a payment seen elsewhere).

The processor is called with no transaction open; what it answered is written after."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.billing import gateway, money
from appliance.billing.processor import APPROVED, ProcessorError
from appliance.core import clock, events, runtime
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid, Unavailable
from appliance.contacts.models import Contact
from appliance.core.i18n import _l
from appliance.core.locales import customer_language
from appliance.messages.models import Message
from appliance.messages.sending.service import Outgoing, do_send
from appliance.organizations.models import Organization
from appliance.orders import delivery
from appliance.orders.models import PAID, UNPAID, Order
from appliance.orders.service import access_order

LINK, TRANSFER, MANUAL = "LINK", "TRANSFER", "MANUAL"
PAY_HERE = _l("Your order comes to {amount}. Pay it here: {link}")
RECEIPT_TYPES = ("image", "document")  # what a customer sends as a transfer's proof


def _check_payable(order: Order) -> None:
    if order.payment_status == PAID:
        raise Conflict("This order is already paid.", code="order_already_paid", paidVia=order.paid_via)
    if order.status_code == "CANCELLED":
        raise Conflict("This order was cancelled.", code="order_cancelled")


def _amount_minor(order: Order) -> int:
    if not order.currency:
        raise Conflict("The order's items have no single currency: it cannot be charged as one amount.",
                       code="order_without_currency")
    try:
        return money.parse_amount(order.total, order.currency, field="total")
    except Invalid:
        raise Conflict("The order's total is not an amount that can be charged.", code="order_total_invalid") from None


def do_pay(session: Session, order: Order, *, via: str, reference: str | None = None,
           user_id: str | None = None) -> Order:
    """Mark it paid (once) and complete the sale."""
    _check_payable(order)
    order.payment_status, order.paid_at, order.paid_via = PAID, clock.now(), via
    order.payment_reference, order.paid_by_user_id, order.updated_at = reference, user_id, clock.now()
    session.add(order)
    session.flush()
    delivery.do_complete(session, order)
    return order


def do_mark_paid(session: Session, *, actor: OrgActor, order_id: str, reference: str | None = None) -> Order:
    order = access_order(session, actor=actor, order_id=order_id)
    return do_pay(session, order, via=MANUAL, reference=reference, user_id=actor.user_id)


def do_confirm_transfer(session: Session, *, actor: OrgActor, order_id: str, reference: str | None = None) -> Order:
    """A person checked the bank: the transfer the customer reported pays the order."""
    order = access_order(session, actor=actor, order_id=order_id)
    _check_payable(order)
    if order.receipt_message_id is None:
        raise Conflict("The customer has sent no receipt for this order; mark it paid if the money came another "
                       "way.", code="no_transfer_reported")
    do_pay(session, order, via=TRANSFER, reference=reference, user_id=actor.user_id)
    events.emit(session, events.LICENSE_TRANSFER_CONFIRMED, organization_id=order.organization_id, orderId=order.id,
                phoneNumberId=order.phone_number_pk, contactId=order.contact_id, receiptMessageId=order.receipt_message_id,
                confirmedBy=actor.user_id)
    return order


def check_payment_link(*, actor: OrgActor, order_id: str, send_to_customer: bool = False) -> Order:
    """The order's payment link (made once at the processor; asked again, the same link), sent to
    the customer in the conversation when asked (as the person asking: the window rule applies)."""
    database = runtime.get().db
    with database.unit_of_work(write=False) as reading:
        order = access_order(reading, actor=actor, order_id=order_id)
        _check_payable(order)
        made = order.payment_link_url is not None
        if not made:
            amount = _amount_minor(order)
            name, currency = f"Pedido {order.id[-8:]}", order.currency
    if not made:
        gateway.check_configured()
        try:
            link = gateway.processor().create_payment_link(name=name, description=f"Pedido {order_id}",
                                                           amount_minor=amount, currency=currency, sku=order_id)
        except ProcessorError as error:
            if error.kind == "refused":
                raise Conflict(f"The payment processor refused the link: {error.message}",
                               code="payment_link_refused") from None
            raise Unavailable(f"The payment processor did not answer: {error.message}",
                              code="payment_link_failed") from None
        with database.unit_of_work(write=True) as writing:  # kept, whatever sending it comes to
            order = access_order(writing, actor=actor, order_id=order_id)
            if not order.payment_link_url:  # two people asking at once: the first link stays
                order.payment_link_id, order.payment_link_url, order.updated_at = link.link_id, link.url, clock.now()
                writing.add(order)
    with database.unit_of_work(write=True) as writing:
        order = access_order(writing, actor=actor, order_id=order_id)
        if send_to_customer:
            _check_payable(order)  # paid meanwhile: no link goes out
            contact = writing.get(Contact, order.contact_id)
            country = writing.get(Organization, order.organization_id).country
            text = PAY_HERE.resolve(customer_language(country)).format(
                amount=f"{order.total} {order.currency}", link=order.payment_link_url)
            do_send(writing, actor=actor, outgoing=Outgoing(phone_number_pk=order.phone_number_pk, to=contact.wa_id,
                                                            type="text", payload={"body": text, "preview_url": True}))
        return order


def do_receive(session: Session, data: dict) -> None:
    """A processor transaction that names a payment link: pays the order of that link when it was
    approved for the order's amount; an approved one that pays nothing is said to the webhooks."""
    order = session.exec(select(Order).where(Order.payment_link_id == data.get("paymentLinkId"))).first()
    if data.get("status") != APPROVED or order is None:
        return  # declined: the customer tries again on the same link; an unknown link is not ours
    if order.payment_status == PAID and order.payment_reference == data.get("transactionId"):
        return  # the same event again
    matches = order.payment_status == UNPAID and order.status_code != "CANCELLED" and order.currency == data.get(
        "currency") and _minor_or_none(order) == data.get("amountMinor")
    if not matches:
        events.emit(session, events.LICENSE_PAYMENT_UNMATCHED, organization_id=order.organization_id,
                    orderId=order.id, phoneNumberId=order.phone_number_pk, contactId=order.contact_id,
                    transactionId=data.get("transactionId"), reference=data.get("reference"),
                    amount=money.text(int(data.get("amountMinor") or 0), data.get("currency") or "COP"),
                    currency=data.get("currency"),
                    reason="already_paid" if order.payment_status == PAID else
                    "cancelled" if order.status_code == "CANCELLED" else "amount_differs")
        return
    do_pay(session, order, via=LINK, reference=data.get("transactionId"))


def _minor_or_none(order: Order) -> int | None:
    try:
        return _amount_minor(order)
    except Conflict:
        return None


def do_keep_receipt(session: Session, message_ids: list[str]) -> None:
    """A picture or document a customer sends while one of their orders waits for payment is kept
    on the newest such order, for a person to check against the bank."""
    for message in session.exec(select(Message).where(Message.id.in_(message_ids), Message.direction == "in",
                                                      Message.type.in_(RECEIPT_TYPES))):
        order = session.exec(select(Order).where(Order.contact_id == message.contact_id,
                                                 Order.phone_number_pk == message.phone_number_pk,
                                                 Order.payment_status == UNPAID, Order.status_code != "CANCELLED")
                             .order_by(Order.created_at.desc())).first()
        if order is not None:
            order.receipt_message_id, order.updated_at = message.id, clock.now()
            session.add(order)
