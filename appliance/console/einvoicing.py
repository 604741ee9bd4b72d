"""E-invoicing in the console: the organization's account at the provider (Factus), its secrets
typed once and never shown again. The invoices themselves are made from the orders page."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, org_actor, render
from appliance.console.texts_products import PRODUCT_TEXTS
from appliance.core.errors import AppError
from appliance.einvoicing import api as einvoicing_api
from appliance.einvoicing import service
from appliance.einvoicing.schemas import InvoicingAccountPutSchema
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session

_ACTIVE = "console_pages.einvoicing"


def _page(actor, error: AppError | None = None, values: dict | None = None):
    account = service.get_account(db_session(), actor=actor)
    return render("console/einvoicing.html", actor, _ACTIVE, error=error, status=error.status if error else 200,
                  texts=PRODUCT_TEXTS, account=account, values=values or {},
                  sandboxed=account.url == service.SANDBOX_URL, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/e-invoicing")
@performs(einvoicing_api.Account.get)
@signed_in_page
def einvoicing(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/e-invoicing")
@performs(einvoicing_api.Account.put)
@signed_in_page
def einvoicing_save(org_id):
    actor = org_actor(org_id)
    body = {"url": forms.text("url", 300), "clientId": forms.text("clientId", 200), "username": forms.text("username", 254),
            "taxRate": forms.text("taxRate", 6) or "19.00"}
    for name in ("clientSecret", "password"):
        if request.form.get(name):
            body[name] = request.form.get(name, "")[:500]
    numbering = forms.text("numberingRangeId", 10)
    if numbering:
        body["numberingRangeId"] = forms.whole_number(numbering)
    typed = {k: v for k, v in body.items() if k not in ("clientSecret", "password")}  # secrets never shown back
    return form_outcome(
        lambda: service.do_put_account(db_session(), actor=actor, **check_form(InvoicingAccountPutSchema(), body)),
        failed=lambda error: _page(actor, error, typed),
        done=lambda: back(_ACTIVE, "einvoicing_saved", org_id=actor.organization_id))
