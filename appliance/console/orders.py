"""Orders in the console: the carts customers sent, newest first, by status, each with its items and
total, a link to its conversation, and a form to move its status (telling the customer if asked)."""

from __future__ import annotations

from flask import request
from sqlmodel import select

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_orders import ORDER_TEXTS
from appliance.contacts.models import Contact
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.orders import service
from appliance.orders import api as orders_api
from appliance.orders.models import STATUS_CODES
from appliance.orders.schemas import OrderPatchSchema

_ACTIVE = "console_pages.orders"


def _page(actor, error: AppError | None = None):
    session = db_session()
    status = request.args.get("status") if request.args.get("status") in STATUS_CODES else None
    found = service.list_orders(session, actor=actor, take=50, cursor=request.args.get("cursor") or None, status=status)
    contact_ids = {order.contact_id for order in found.items}
    contacts = {c.id: c for c in session.exec(select(Contact).where(Contact.id.in_(contact_ids)))} if contact_ids else {}
    return render("console/orders.html", actor, _ACTIVE, error=error, texts=ORDER_TEXTS, page=found, chosen=status,
                  statuses=STATUS_CODES, contacts=contacts, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/orders")
@performs(orders_api.Orders.get)
@signed_in_page
def orders(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/orders/<uuid:order_id>")
@performs(orders_api.OrderById.patch)
@signed_in_page
def order_status(org_id, order_id):
    actor = org_actor(org_id)
    service.access_order(db_session(), actor=actor, order_id=str(order_id))  # 404 before the form
    body = {"status": {"code": forms.text("code", 12), "note": forms.optional("note", 500),
                       "notifyCustomer": bool(request.form.get("notify"))}}
    try:
        order = service.do_set_status(db_session(), actor=actor, order_id=str(order_id),
                                      **check_form(OrderPatchSchema(), body))
    except AppError as error:
        db_session().rollback()
        return _page(actor, error)
    done = "notified" if order.customer_notified else ("not_notified" if order.customer_notified is False else "saved")
    return back("console_pages.orders", done, org_id=actor.organization_id, status=request.args.get("status"))
