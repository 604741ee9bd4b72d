"""A sale completed: what happens once an order is paid, and only then. Each LICENSE item gets its
keys in one step (all of the order's, or none: a pool that runs dry leaves the order paid and
WAITING, saying `no_keys`, until keys are added), the keys go to the customer in one WhatsApp
message of the conversation, and `sale.completed` tells the webhooks (keys masked). A delivery
retried (keys added, a person resending) reuses the keys the order already holds and the same
client id, so nothing is given or sent twice.

Outside the customer's 24-hour window the keys go by the organization's delivery template
(delivery_template.py); without one the order says so (`window_closed`) and a person delivers
again once the customer writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation

from sqlmodel import Session, select

from appliance.catalog import keys as license_keys
from appliance.catalog import service as catalog_service
from appliance.catalog.models import LICENSE, LicenseKey
from appliance.contacts.models import Contact
from appliance.core import clock, events
from appliance.core.actor import OrgActor
from appliance.core.errors import AppError, Conflict, NotFound
from appliance.core.i18n import _l
from appliance.core.locales import customer_language
from appliance.messages.sending.service import Outgoing, do_send
from appliance.orders import delivery_template
from appliance.orders.models import DELIVERED, NO_DELIVERY, PAID, WAITING, Order
from appliance.orders.service import access_order
from appliance.organizations.models import Organization
from appliance.phone_numbers.models import PhoneNumber

NO_KEYS, WINDOW_CLOSED, NO_PRODUCT = "no_keys", "window_closed", "not_a_license"
TEXT_MAX = 4096  # WhatsApp's longest text
KEYS_MESSAGE = _l("Thank you for your purchase! Your {product} license:")
REPLACED_MESSAGE = _l("Here is a new {product} license, in place of the one that did not work:")


def sale_actor(organization_id: str) -> OrgActor:
    """Who delivers a sale: the appliance on the organization's behalf (sentBy "sale")."""
    return OrgActor(user_id=None, kind="sale", organization_id=organization_id, membership_id=None, role_key=None,
                    permissions=frozenset())


def _units(quantity) -> int:
    try:
        value = Decimal(str(quantity))
    except (InvalidOperation, ValueError):
        return 0
    return int(value) if value == value.to_integral_value() and value > 0 else 0


def license_lines(session: Session, order: Order) -> list[tuple]:
    """(product, units) of the order's LICENSE items, by the retailer ids its cart named (a product
    named on two lines of the cart: their units added)."""
    found = catalog_service.by_retailer_ids(session, order.organization_id,
                                            [item.get("productRetailerId") for item in order.items or []])
    units: dict[str, int] = {}
    for item in order.items or []:
        product = found.get(item.get("productRetailerId"))
        if product is not None and product.kind == LICENSE and _units(item.get("quantity")):
            units[product.retailer_id] = units.get(product.retailer_id, 0) + _units(item.get("quantity"))
    return [(found[retailer_id], count) for retailer_id, count in units.items()]


def do_complete(session: Session, order: Order) -> None:
    """The order was just paid: give out its keys, send them, and say the sale is complete (once:
    now, or when a delivery that waits reaches the customer)."""
    assert order.payment_status == PAID
    lines = license_lines(session, order)
    delivered_keys = do_deliver(session, order, lines) if lines else []
    if not lines:
        order.delivery_status = NO_DELIVERY
        session.add(order)
    elif order.delivery_status != DELIVERED:
        return  # waiting (for keys, for the window): the sale completes when they reach the customer
    events.emit(session, events.SALE_COMPLETED, organization_id=order.organization_id, orderId=order.id,
                phoneNumberId=order.phone_number_pk, contactId=order.contact_id, items=order.items,
                total=order.total, currency=order.currency, paidVia=order.paid_via,
                keys=[license_keys.masked(key) for key in delivered_keys])


def do_deliver(session: Session, order: Order, lines: list[tuple] | None = None) -> list[str]:
    """Give out the keys of a paid order (all, or none) and send them; answers the keys in clear
    once they were sent (for the event's masks), else [] and the order says why it waits."""
    lines = license_lines(session, order) if lines is None else lines
    if not lines:  # its products are no longer licenses of the catalog: nothing to give
        return _waiting(session, order, NO_PRODUCT)
    now = clock.now()
    held: list[tuple] = []
    try:
        with session.begin_nested():  # every product's keys, or none (leaving by _Short rolls it back)
            for product, units in lines:
                got = license_keys.try_assign(session, organization_id=order.organization_id, product_id=product.id,
                                              order_id=order.id, quantity=units, now=now)
                if got is None:
                    raise _Short()
                held.append((product, got))
    except _Short:
        return _waiting(session, order, NO_KEYS)
    texts = {product.id: [license_keys.clear(key) for key in got] for product, got in held}
    refused = _send(session, order, held, texts)
    if refused:  # the keys stay the order's; a person delivers again (the reason says when)
        return _waiting(session, order, refused)
    order.delivery_status, order.delivery_note, order.delivered_at = DELIVERED, None, now
    session.add(order)
    session.flush()
    return [key for values in texts.values() for key in values]


class _Short(Exception):
    pass


def _waiting(session: Session, order: Order, reason: str) -> list[str]:
    order.delivery_status, order.delivery_note = WAITING, reason[:40]
    session.add(order)
    session.flush()
    return []


def _messages(header: str, keys: list[str]) -> list[str]:
    """A product's keys as texts of at most WhatsApp's 4,096 characters, never a key cut in two."""
    texts, current = [], header
    for key in keys:
        if len(current) + 1 + len(key) > TEXT_MAX:
            texts.append(current)
            current = key
        else:
            current = f"{current}\n{key}"
    return texts + [current]


def _send(session: Session, order: Order, held: list[tuple], texts: dict[str, list[str]]) -> str | None:
    """Send the keys (as many texts as they need, each under its own client id, so a retry sends
    none twice); outside the customer's window, by the organization's delivery template if it has
    one. Answers why not, or None once they are queued."""
    contact = session.get(Contact, order.contact_id)
    language = customer_language(session.get(Organization, order.organization_id).country)
    bodies = [body for product, _ in held
              for body in _messages(KEYS_MESSAGE.resolve(language).format(product=product.name), texts[product.id])]
    try:
        with session.begin_nested():  # a refusal leaves nothing half-written
            for n, body in enumerate(bodies):
                do_send(session, actor=sale_actor(order.organization_id), outgoing=Outgoing(
                    phone_number_pk=order.phone_number_pk, to=contact.wa_id, type="text", payload={"body": body},
                    client_id=f"sale:{order.id}" if n == 0 else f"sale:{order.id}:{n}"))
    except AppError as error:
        if error.code != "outside_service_window":
            return error.code
        return _send_by_template(session, order, contact, held, texts)
    return None


def _send_by_template(session: Session, order: Order, contact: Contact, held: list[tuple],
                      texts: dict[str, list[str]]) -> str | None:
    number = session.get(PhoneNumber, order.phone_number_pk)
    template = delivery_template.template_of(session, order.organization_id, number.waba_pk) if number else None
    if template is None:
        return WINDOW_CLOSED
    try:
        with session.begin_nested():
            n = 0
            for product, _ in held:
                for variables in delivery_template.bodies(template, product.name, texts[product.id]):
                    do_send(session, actor=sale_actor(order.organization_id), outgoing=Outgoing(
                        phone_number_pk=order.phone_number_pk, to=contact.wa_id, type="template",
                        template_id=template.id, variables={"body": variables}, client_id=f"sale:{order.id}:t{n}"))
                    n += 1
    except AppError as error:
        return error.code
    return None


def do_deliver_waiting(session: Session, organization_id: str | None) -> int:
    """Keys came in: the organization's paid orders waiting for keys are delivered, oldest first,
    while the pools last. Answers how many were delivered."""
    waiting = session.exec(select(Order).where(Order.organization_id == organization_id, Order.payment_status == PAID,
                                               Order.delivery_status == WAITING, Order.delivery_note == NO_KEYS)
                           .order_by(Order.paid_at)).all()
    delivered = 0
    for order in waiting:
        keys = do_deliver(session, order)
        if order.delivery_status == DELIVERED:
            delivered += 1
            _completed_late(session, order, keys)
    return delivered


def _completed_late(session: Session, order: Order, keys: list[str]) -> None:
    """The keys of a sale that waited reached the customer: the webhooks hear of them now."""
    events.emit(session, events.SALE_COMPLETED, organization_id=order.organization_id, orderId=order.id,
                phoneNumberId=order.phone_number_pk, contactId=order.contact_id, items=order.items,
                total=order.total, currency=order.currency, paidVia=order.paid_via,
                keys=[license_keys.masked(key) for key in keys])


def do_retry(session: Session, order: Order) -> Order:
    """A person asks again for a paid order that waits (keys added, the customer wrote back)."""
    if order.payment_status != PAID:
        raise Conflict("The order is not paid: no key is given for an unpaid order.", code="order_not_paid")
    if order.delivery_status != WAITING:
        raise Conflict("Nothing waits to be delivered for this order.", code="nothing_to_deliver")
    keys = do_deliver(session, order)
    if keys and order.delivery_status == DELIVERED:
        _completed_late(session, order, keys)
    return order


def do_replace(session: Session, order: Order, key_id: str, reason: str, by: str | None) -> Order:
    """A key that does not work: it is set aside (kept, marked replaced) and another of the pool
    goes to the customer; `license.key_replaced` says which (masked)."""
    old = session.get(LicenseKey, key_id)
    if old is None or old.order_id != order.id or old.replaced_at is not None:
        raise NotFound("This order holds no such key.", code="license_key_not_found")
    product = catalog_service.by_id(session, old.product_id)
    before = {key.id for key in license_keys.held_by(session, order.id, old.product_id)}
    got = license_keys.try_assign(session, organization_id=order.organization_id, product_id=old.product_id,
                                  order_id=order.id, quantity=len(before) + 1)
    if got is None:
        raise Conflict("No key is left in this product's pool: add keys, then replace it.", code="no_keys_left")
    old.replaced_at, old.replaced_reason = clock.now(), reason[:300]
    session.add(old)
    session.flush()
    [new] = [key for key in got if key.id not in before]  # the one just taken, whatever the clock says
    contact = session.get(Contact, order.contact_id)
    language = customer_language(session.get(Organization, order.organization_id).country)
    text = "\n".join([REPLACED_MESSAGE.resolve(language).format(product=product.name), license_keys.clear(new)])
    try:
        with session.begin_nested():
            do_send(session, actor=sale_actor(order.organization_id), outgoing=Outgoing(
                phone_number_pk=order.phone_number_pk, to=contact.wa_id, type="text", payload={"body": text},
                client_id=f"sale:{order.id}:replace:{old.id}"))
    except AppError as error:  # nothing changes (this request's work is rolled back): try again later
        raise Conflict(f"WhatsApp refused the message ({error.code}): nothing was replaced. Try again once the "
                       "customer writes (within 24 hours of their last message).", code="key_not_sent") from None
    events.emit(session, events.LICENSE_KEY_REPLACED, organization_id=order.organization_id, orderId=order.id,
                phoneNumberId=order.phone_number_pk, contactId=order.contact_id, productId=old.product_id,
                replacedKey=license_keys.masked(license_keys.clear(old)), key=license_keys.masked(license_keys.clear(new)),
                reason=reason[:300], replacedBy=by)
    return order


@dataclass(frozen=True)
class OrderKey:
    id: str
    product_id: str
    key: str  # masked
    assigned_at: datetime | None
    replaced_at: datetime | None
    replaced_reason: str | None


def keys_of(session: Session, *, actor: OrgActor, order_id: str) -> list[OrderKey]:
    """The keys an order was given, masked, oldest first (replaced ones too)."""
    order = access_order(session, actor=actor, order_id=order_id)
    found = session.exec(select(LicenseKey).where(LicenseKey.order_id == order.id)
                         .order_by(LicenseKey.assigned_at, LicenseKey.id)).all()
    return [OrderKey(k.id, k.product_id, license_keys.masked(license_keys.clear(k)), k.assigned_at, k.replaced_at,
                     k.replaced_reason) for k in found]
