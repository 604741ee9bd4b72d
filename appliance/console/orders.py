"""Orders in the console: the carts customers sent, newest first, by status, each with its items and
total, a link to its conversation, a form to move its status (telling the customer if asked), and
its payment (a link sent to the customer, a transfer confirmed, marked paid) and the delivery of
its license keys."""

from __future__ import annotations

from flask import request
from sqlmodel import select

from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, org_actor, render
from appliance.console.texts_orders import ORDER_TEXTS
from appliance.contacts.models import Contact
from appliance.core.errors import AppError, NotFound
from appliance.http.browser import signed_in_page
from appliance.http.files import serve_stored_file
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.catalog import service as catalog_service
from appliance.einvoicing import api as einvoicing_api
from appliance.einvoicing import service as einvoicing
from appliance.einvoicing.schemas import EInvoiceCreateSchema
from appliance.orders import delivery, payments, service
from appliance.orders import api as orders_api
from appliance.orders.models import STATUS_CODES
from appliance.orders.schemas import OrderPatchSchema, PaidSchema

_ACTIVE = "console_pages.orders"


def _page(actor, error: AppError | None = None):
    session = db_session()
    status = request.args.get("status") if request.args.get("status") in STATUS_CODES else None
    found = service.list_orders(session, actor=actor, take=50, cursor=request.args.get("cursor") or None, status=status)
    contact_ids = {order.contact_id for order in found.items}
    contacts = {c.id: c for c in session.exec(select(Contact).where(Contact.id.in_(contact_ids)))} if contact_ids else {}
    names = {retailer: product.name for retailer, product in catalog_service.by_retailer_ids(
        session, actor.organization_id, [i.get("productRetailerId") for o in found.items for i in o.items or []]).items()}
    return render("console/orders.html", actor, _ACTIVE, error=error, texts=ORDER_TEXTS, page=found, chosen=status,
                  statuses=STATUS_CODES, contacts=contacts, names=names, done=request.args.get("done"),
                  invoices=einvoicing.invoices_of(session, [o.id for o in found.items]),
                  einvoicing_ready=einvoicing.get_account(session, actor=actor).configured)


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


def _after(actor, done: str, work):
    """A payment or delivery form: its work, then back to the orders (or the page saying why not)."""
    return form_outcome(work, failed=lambda error: _page(actor, error), done=lambda: back(
        "console_pages.orders", done, org_id=actor.organization_id, status=request.args.get("status")))


@console_pages.post("/console/<uuid:org_id>/orders/<uuid:order_id>/payment-link")
@performs(orders_api.PaymentLink.post)
@signed_in_page
def order_payment_link(org_id, order_id):
    actor = org_actor(org_id)
    return _after(actor, "link_sent", lambda: payments.check_payment_link(actor=actor, order_id=str(order_id),
                                                                         send_to_customer=True))


@console_pages.post("/console/<uuid:org_id>/orders/<uuid:order_id>/mark-paid")
@performs(orders_api.MarkPaid.post)
@signed_in_page
def order_mark_paid(org_id, order_id):
    actor = org_actor(org_id)
    return _after(actor, "paid", lambda: payments.do_mark_paid(
        db_session(), actor=actor, order_id=str(order_id), **check_form(PaidSchema(), _reference())))


@console_pages.post("/console/<uuid:org_id>/orders/<uuid:order_id>/confirm-transfer")
@performs(orders_api.ConfirmTransfer.post)
@signed_in_page
def order_confirm_transfer(org_id, order_id):
    actor = org_actor(org_id)
    return _after(actor, "transfer_confirmed", lambda: payments.do_confirm_transfer(
        db_session(), actor=actor, order_id=str(order_id), **check_form(PaidSchema(), _reference())))


@console_pages.post("/console/<uuid:org_id>/orders/<uuid:order_id>/deliver")
@performs(orders_api.Deliver.post)
@signed_in_page
def order_deliver(org_id, order_id):
    actor = org_actor(org_id)
    return _after(actor, "delivered", lambda: delivery.do_retry(
        db_session(), service.access_order(db_session(), actor=actor, order_id=str(order_id))))


@console_pages.post("/console/<uuid:org_id>/orders/<uuid:order_id>/e-invoice")
@performs(einvoicing_api.OrderEInvoice.post)
@signed_in_page
def order_einvoice(org_id, order_id):
    actor = org_actor(org_id)
    customer = {"documentType": forms.text("documentType", 10), "identification": forms.text("identification", 20),
                "name": forms.text("customerName", 200), **({"email": forms.text("customerEmail", 254)}
                                                             if forms.text("customerEmail", 254) else {})}
    body = {"customer": customer} if customer["identification"] else {}
    return _after(actor, "einvoice", lambda: einvoicing.check_invoice(
        actor=actor, order_id=str(order_id), **check_form(EInvoiceCreateSchema(), body)))


@console_pages.get("/console/<uuid:org_id>/orders/<uuid:order_id>/e-invoice.pdf")
@performs(einvoicing_api.OrderEInvoicePdf.get)
@signed_in_page
def order_einvoice_pdf(org_id, order_id):
    invoice = einvoicing.access_invoice(db_session(), actor=org_actor(org_id), order_id=str(order_id))
    if not invoice.has_pdf or not einvoicing.pdf_path(invoice).exists():
        raise NotFound("This invoice has no PDF yet.", code="einvoice_pdf_not_found")
    return serve_stored_file(einvoicing.pdf_path(invoice), claimed_type="application/pdf", filename=f"{invoice.number}.pdf")


def _reference() -> dict:
    reference = forms.optional("reference", 100)
    return {"reference": reference} if reference else {}
