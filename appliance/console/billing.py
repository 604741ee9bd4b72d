"""Billing in the console: the owner's page (the plan and its interval, what is used against what
is paid for, the wallet and its movements, add-ons with a preview whose amount is the one charged,
Nequi and bank-transfer top-ups, cards and auto-pay, invoices, and the banner of an unpaid one).
Every form works without JavaScript but the card's (its number goes to the processor from the
browser, never here). The administrators' pages are console/hosting.py."""

from __future__ import annotations

from datetime import datetime, time, timezone
from typing import Callable
from urllib.parse import urlsplit

from flask import Response, request

from appliance import sandbox
from appliance.billing import addons, invoice_pdf, nequi, payment_methods, payment_reports, periods, service
from appliance.billing import api as billing_api
from appliance.billing.schemas import (AddonChangeSchema, AutoPaySchema, BillingIntervalSchema, NequiPushCreateSchema,
                                       PaymentMethodCreateSchema, PaymentReportCreateSchema)
from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, org_actor, render
from appliance.console.texts_billing import BILLING_TEXTS
from appliance.core import clock, runtime
from appliance.core.errors import AppError, Invalid
from appliance.http import headers
from appliance.http.api import takes_upload, uploaded_file
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form, page_language
from appliance.http.unit_of_work import db_session

_ACTIVE = "console_pages.billing"


def _page(actor, error: AppError | None = None, *, preview=None, status: int = 200):
    settings = runtime.get().settings
    wompi_url = sandbox.wompi_public_url(settings)
    html, status = render("console/billing.html", actor, _ACTIVE, error=error, status=status, texts=BILLING_TEXTS,
                          billing=service.overview(db_session(), actor=actor), preview=preview,
                          cards_possible=bool(settings.wompi_private_key), wompi_url=wompi_url,
                          wompi_public_key=settings.wompi_public_key, done=request.args.get("done"),
                          today=clock.now().date().isoformat())
    parts = urlsplit(wompi_url)
    return html, status, {"Content-Security-Policy": headers.page_policy_reaching(f"{parts.scheme}://{parts.netloc}")}


def _done(actor, done: str, work: Callable[[], object]):
    """A form's work: back to the page saying `done`, or the page again with what went wrong."""
    return form_outcome(work, failed=lambda error: _page(actor, error, status=error.status),
                        done=lambda: back(_ACTIVE, done, org_id=actor.organization_id))


def _failed(actor, error: AppError):
    db_session().rollback()
    return _page(actor, error, status=error.status)


@console_pages.get("/console/<uuid:org_id>/billing")
@performs(billing_api.Addons.get)
@signed_in_page
def billing(org_id):
    return _page(org_actor(org_id))


def _addon_form() -> dict:
    quantity = forms.text("quantity", 6)
    return check_form(AddonChangeSchema(), {"addonType": forms.text("addonType", 20),
                                            "quantity": forms.whole_number(quantity)})


@console_pages.get("/console/<uuid:org_id>/billing/invoices/<uuid:invoice_id>.pdf")
@performs(billing_api.InvoicePdf.get)
@signed_in_page
def billing_invoice_pdf(org_id, invoice_id):
    number, pdf = invoice_pdf.pdf_of(db_session(), actor=org_actor(org_id), invoice_id=str(invoice_id),
                                     language=page_language())
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="invoice-{number}.pdf"'})


@console_pages.post("/console/<uuid:org_id>/billing/addons/preview")
@performs(billing_api.AddonPreview.post)
@signed_in_page
def billing_addon_preview(org_id):
    actor = org_actor(org_id)
    try:
        shown = addons.preview(db_session(), actor=actor, **_addon_form())
    except AppError as error:
        return _failed(actor, error)
    return _page(actor, preview=shown)


@console_pages.post("/console/<uuid:org_id>/billing/addons")
@performs(billing_api.Addons.patch)
@signed_in_page
def billing_addon_change(org_id):
    actor = org_actor(org_id)
    try:
        shown_at = datetime.fromisoformat(forms.text("prorationAt", 40).replace("Z", "+00:00"))
    except ValueError:
        shown_at = None
    if shown_at is None or shown_at.tzinfo is None:  # only a preview's own moment (UTC, with its offset)
        return _failed(actor, Invalid("Preview the change first.", errors={"prorationAt": ["Preview first."]}))
    return _done(actor, "addon_changed",
                 lambda: addons.do_change(db_session(), actor=actor, proration_at=shown_at, **_addon_form()))


@console_pages.post("/console/<uuid:org_id>/billing/interval")
@performs(billing_api.Interval.patch)
@signed_in_page
def billing_interval(org_id):
    actor = org_actor(org_id)
    return _done(actor, "interval_saved", lambda: periods.do_set_interval(
        db_session(), organization_id=actor.organization_id,
        **check_form(BillingIntervalSchema(), {"interval": forms.text("interval", 10)})))


@console_pages.post("/console/<uuid:org_id>/billing/nequi")
@performs(billing_api.NequiPush.post)
@signed_in_page
def billing_nequi(org_id):
    actor = org_actor(org_id)
    return _done(actor, "nequi_sent", lambda: nequi.check_push(db_session(), actor=actor, **check_form(
        NequiPushCreateSchema(), {"phoneNumber": forms.text("phoneNumber", 20), "amount": forms.text("amount", 20)})))


@console_pages.post("/console/<uuid:org_id>/billing/reports")
@performs(billing_api.PaymentReports.post)
@takes_upload(max_bytes=payment_reports.RECEIPT_MAX_BYTES, content_types=())
@signed_in_page
def billing_report(org_id):
    actor = org_actor(org_id)
    paid_on = forms.text("paidOn", 10)
    try:  # a day: its noon, or now for a transfer made today (the form asks the day, the API a moment)
        paid_at = min(datetime.combine(datetime.fromisoformat(paid_on).date(), time(12), tzinfo=timezone.utc),
                      clock.now()).isoformat()
    except ValueError:
        paid_at = paid_on
    body = {"amount": forms.text("amount", 20), "bank": forms.text("bank", 80),
            "reference": forms.text("reference", 80), "paidAt": paid_at}
    return _done(actor, "reported", lambda: payment_reports.check_report(
        db_session(), actor=actor, receipt=uploaded_file(required=False),
        **check_form(PaymentReportCreateSchema(), body)))


@console_pages.post("/console/<uuid:org_id>/billing/cards")
@performs(billing_api.PaymentMethods.post)
@signed_in_page
def billing_card(org_id):
    actor = org_actor(org_id)
    body = {"token": forms.text("token", 200), "email": forms.text("email", 254)}
    return _done(actor, "card_added", lambda: payment_methods.check_add(
        db_session(), actor=actor, **check_form(PaymentMethodCreateSchema(), body)))


@console_pages.post("/console/<uuid:org_id>/billing/cards/<uuid:method_id>/default")
@performs(billing_api.DefaultPaymentMethod.post)
@signed_in_page
def billing_card_default(org_id, method_id):
    actor = org_actor(org_id)
    payment_methods.do_make_default(db_session(), actor=actor, method_id=str(method_id))
    return back(_ACTIVE, "default_set", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/billing/cards/<uuid:method_id>/remove")
@performs(billing_api.PaymentMethodById.delete)
@signed_in_page
def billing_card_remove(org_id, method_id):
    actor = org_actor(org_id)
    return _done(actor, "card_removed",
                 lambda: payment_methods.check_remove(db_session(), actor=actor, method_id=str(method_id)))


@console_pages.post("/console/<uuid:org_id>/billing/auto-pay")
@performs(billing_api.AutoPay.patch)
@signed_in_page
def billing_auto_pay(org_id):
    actor = org_actor(org_id)
    body = {"enabled": bool(request.form.get("enabled")),
            **({"methodId": forms.text("methodId", 40)} if forms.text("methodId", 40) else {})}
    return _done(actor, "auto_pay_saved", lambda: payment_methods.do_set_auto_pay(
        db_session(), actor=actor, **check_form(AutoPaySchema(), body)))
