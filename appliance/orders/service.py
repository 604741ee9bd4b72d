"""Orders as the team works them: listed (by status, newest first), read by their message, and moved
through PENDING, IN_PROCESS, COMPLETED, CANCELLED. With `notifyCustomer` the customer is told in the
organization's language, as an ordinary message of the conversation, when the 24-hour window is
open; otherwise the change is kept and says why the customer was not told."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core.locales import customer_language
from appliance.contacts.models import Contact
from appliance.core import clock, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import AppError, NotFound
from appliance.core.i18n import _l
from appliance.messages.sending.service import Outgoing, do_send
from appliance.orders.models import Order
from appliance.organizations.models import Organization
from appliance.phone_numbers import service as phone_numbers_service

# What the customer is told when their order changes, in their language (core/locales.customer_language).
NOTICES = {"PENDING": _l("We received your order and will start on it soon."),
           "IN_PROCESS": _l("Your order is being prepared."), "COMPLETED": _l("Your order is ready. Thank you!"),
           "CANCELLED": _l("Your order was cancelled.")}
WINDOW_CLOSED = "window_closed"


def list_orders(session: Session, *, actor: OrgActor, take: int, cursor: str | None = None,
                status: str | None = None) -> pagination.Page:
    query = select(Order).where(Order.organization_id == actor.organization_id)
    query = phone_numbers_service.scope_of(session, actor).only_numbers(query, Order.phone_number_pk)
    if status:
        query = query.where(Order.status_code == status)
    return pagination.paginate(session, query, key=[Order.created_at, Order.id], take=take, cursor=cursor)


def access_order(session: Session, *, actor: OrgActor, order_id: str) -> Order:
    """An order of a number the actor reaches: 404 for another tenant's or another number's."""
    scope = phone_numbers_service.scope_of(session, actor)
    return tenancy.access_in_org(session, Order, order_id, actor, what="order", code="order_not_found",
                                 usable=lambda order: scope.reaches(order.phone_number_pk))


def by_message(session: Session, *, actor: OrgActor, message_id: str) -> Order:
    order = session.exec(select(Order).where(Order.message_id == message_id,
                                             Order.organization_id == actor.organization_id)).first()
    if order is None or not phone_numbers_service.scope_of(session, actor).reaches(order.phone_number_pk):
        raise NotFound("No order was made from this message.", code="order_not_found")
    return order


def do_set_status(session: Session, *, actor: OrgActor, order_id: str, status: dict) -> Order:
    order = access_order(session, actor=actor, order_id=order_id)
    order.status_code, order.status_note = status["code"], status.get("note")
    order.status_changed_by_user_id, order.updated_at = actor.user_id, clock.now()
    order.customer_notified, order.not_notified_reason = None, None
    if status.get("notify_customer"):
        order.customer_notified, order.not_notified_reason = _notify(session, actor, order)
    session.add(order)
    session.flush()
    return order


def _notify(session: Session, actor: OrgActor, order: Order) -> tuple[bool, str | None]:
    """Tell the customer (a text in the conversation); outside the window, or when sending is refused
    (a number gone, the shift not started...), say why instead, without undoing the change."""
    contact = session.get(Contact, order.contact_id)
    country = session.exec(select(Organization.country).where(Organization.id == order.organization_id)).first()
    text = NOTICES[order.status_code].resolve(customer_language(country))
    if order.status_note:
        text = f"{text}\n{order.status_note}"
    try:
        with session.begin_nested():  # a refusal leaves nothing half-written
            do_send(session, actor=actor, outgoing=Outgoing(phone_number_pk=order.phone_number_pk, to=contact.wa_id,
                                                            type="text", payload={"body": text}))
    except AppError as error:
        return False, WINDOW_CLOSED if error.code == "outside_service_window" else error.code[:40]
    return True, None
