"""Invoices and collection (billing/invoices.py, billing/collection.py), with APPLIANCE_BILLING on:
each period billed once at its start, paid from the wallet when it covers it; unpaid, the owner
is told once, the invoice tried again, and 7 days past due the organization is suspended (it
reads, it does not send, its bot is silent) until a payment lifts it at once. The billing round
is the minute task's own function, run as the worker runs it, with the clock moved."""

from __future__ import annotations

import pytest

from appliance.billing import tasks
from appliance.core import clock
from tests.billing.test_billing import fund, wallet
from tests.problems import assert_problem


@pytest.fixture
def settings(settings):
    return settings.replace(billing="on")


def billing_round() -> None:
    tasks.billing_minute_check.call_local()


def test_a_period_is_billed_once_and_paid_from_the_wallet(api, owner, mailbox):
    token, org_id = owner["token"], owner["org"]["id"]
    fund(api, owner, "500000.00")
    billing_round()
    billing_round()  # the same period again: nothing more
    [invoice] = api.get(f"/organizations/{org_id}/billing/invoices", token=token).json["data"]["items"]
    assert (invoice["status"], invoice["total"], invoice["currency"]) == ("PAID", "189000.00", "COP")
    assert invoice["lines"] == [{"kind": "PLAN", "description": "Business plan, monthly", "quantity": 1,
                                 "unitAmount": "189000.00", "amount": "189000.00"}]
    assert wallet(api, owner) == "311000.00"
    one = api.get(f"/organizations/{org_id}/billing/invoices/{invoice['id']}", token=token).json["data"]
    assert one["number"] == invoice["number"] and one["paidAt"] is not None
    [receipt] = mailbox.to(owner["org"]["billingEmail"])  # one receipt, to the billing address, for the round run twice
    assert receipt["Subject"] == f"Invoice {invoice['number']} of {owner['org']['name']}: paid"
    assert "189000.00 COP" in receipt.get_content() and f"/console/{org_id}/billing" in receipt.get_content()


def test_unpaid_the_owner_is_told_then_suspended_and_paying_lifts_it(api, owner, mailbox):
    org_id = owner["org"]["id"]
    billing_round()
    [invoice] = api.get(f"/organizations/{org_id}/billing/invoices", token=owner["token"]).json["data"]["items"]
    assert invoice["status"] == "OPEN" and invoice["attempts"] == 1
    assert "auto-pay is off" in invoice["lastFailure"]
    told = mailbox.last_to("owner@example.com")
    assert f"Invoice {invoice['number']}" in told["Subject"] and "/billing" in told.get_content()
    count = len(mailbox.to("owner@example.com"))
    for gap in (1, 2, 2):  # tried again 1, 3 and 5 days after it fell due; the owner not told again
        clock.advance(gap * 86400)
        billing_round()
    assert len(mailbox.to("owner@example.com")) == count
    token = api.login("owner@example.com")["tokens"]["accessToken"]
    seen = api.get(f"/organizations/{org_id}/billing/invoices/{invoice['id']}", token=token).json["data"]
    assert seen["attempts"] == 4 and seen["nextAttemptAt"] is None

    clock.advance(2 * 86400 + 60)  # 7 days past due
    billing_round()
    token = api.login("owner@example.com")["tokens"]["accessToken"]
    suspension = api.get(f"/organizations/{org_id}/suspension", token=token).json["data"]
    assert suspension["suspended"] and suspension["reason"] == "payment_overdue"
    assert [i["id"] for i in suspension["pendingInvoices"]] == [invoice["id"]]
    assert api.get(f"/organizations/{org_id}/contacts", token=token).status_code == 200  # reading works
    assert_problem(api.post(f"/organizations/{org_id}/tags", {"name": "VIP"}, token=token), 403, "organization_suspended")

    fund(api, {**owner, "token": token}, "200000.00", reference="TRX-late")  # approving it pays the invoice
    assert api.get(f"/organizations/{org_id}/suspension", token=token).json["data"]["suspended"] is False
    assert api.post(f"/organizations/{org_id}/tags", {"name": "VIP"}, token=token).status_code == 201
    assert wallet(api, {**owner, "token": token}) == "11000.00"



def test_an_invoice_is_a_pdf_with_its_lines_and_another_tenants_is_404(api, owner):
    from io import BytesIO

    from pypdf import PdfReader

    from tests import factories
    fund(api, owner, "500000.00")
    billing_round()
    invoice = api.get(f"/organizations/{owner['org']['id']}/billing/invoices", token=owner["token"]).json["data"]["items"][0]
    answer = api.client.get(f"/organizations/{owner['org']['id']}/billing/invoices/{invoice['id']}/pdf?lang=es",
                            headers={"Authorization": f"Bearer {owner['token']}"})
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert f'invoice-{invoice["number"]}.pdf' in answer.headers["Content-Disposition"]
    text = PdfReader(BytesIO(answer.data)).pages[0].extract_text()
    assert f"Factura #{invoice['number']}" in text and "189000.00 COP" in text and "Pagada" in text
    eve = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]
    other = factories.organization(api, eve, name="Eve", slug="eve")
    assert_problem(api.get(f"/organizations/{other['id']}/billing/invoices/{invoice['id']}/pdf", token=eve), 404,
                   "invoice_not_found")
