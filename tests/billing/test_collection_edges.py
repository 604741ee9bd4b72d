"""The edges of collection a review found (billing on): an approved card payment pays its own
invoice first, and one the wallet no longer covers is tried again; money the processor took after
an attempt was given up is still credited; a child that joins a billing group with an invoice open
pays it from its new payer; a child sees only its own movements and keeps no cards; a suspended
organization reads but does not send from the inbox or the console."""

from __future__ import annotations

import pytest

from appliance.billing import collection, invoices
from appliance.billing.models import Invoice, Payment
from appliance.billing.processor import APPROVED, Transaction
from appliance.core import clock, runtime
from tests import factories
from tests.billing.test_billing import fund, wallet
from tests.billing.test_collection import billing_round
from tests.browser_forms import csrf_of, sign_in
from tests.problems import assert_problem


@pytest.fixture
def settings(settings):
    return settings.replace(billing="on", org_quota=10)


def _invoice(organization_id: str) -> Invoice:
    with runtime.get().db.unit_of_work(write=False) as session:
        return invoices.pending(session, organization_id)[0]


def test_an_approved_card_payment_pays_its_own_invoice_or_it_is_tried_again(api, owner):
    org_id = owner["org"]["id"]
    billing_round()  # the invoice, unpaid: no funds, no auto-pay
    invoice = _invoice(org_id)
    clock.hold()  # the moment the settlement writes is the test's
    now = clock.now()
    with runtime.get().db.unit_of_work(write=True) as session:
        attempt = Payment(organization_id=org_id, wallet_id=org_id, purpose="INVOICE", invoice_id=invoice.id,
                          reference=f"inv:{invoice.id}:try:9", method="CARD", amount_minor=invoice.total_minor - 100_00,
                          currency="COP", created_at=now)
        session.add(attempt)
        session.flush()
        collection.do_settle_payment(session, attempt, None, failure="Never reached the processor.")  # given up
        assert attempt.status == "ERROR"
        # ...but the processor took the money after all: it is credited, and pays the invoice with
        # what the wallet lacked (nothing: 100.00 short, so the invoice is tried again at once).
        collection.do_settle_payment(session, attempt, Transaction("tx-late", attempt.reference, APPROVED,
                                                                   attempt.amount_minor, "COP", "CARD"))
        assert attempt.status == APPROVED
        kept = session.get(Invoice, invoice.id)
        assert kept.status == "OPEN" and kept.next_attempt_at == now
    fund(api, owner, "100.00")  # the 100.00 it lacked: paid
    assert _invoice_status(invoice.id) == "PAID"


def _invoice_status(invoice_id: str) -> str:
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.get(Invoice, invoice_id).status


def test_a_child_pays_an_open_invoice_from_its_new_payer_and_sees_only_its_movements(api, owner):
    token, parent_id = owner["token"], owner["org"]["id"]
    child = factories.organization(api, token, name="Sede", slug="sede")
    fund(api, owner, "400000.00")  # the parent's invoice is paid at the round; the child's is not
    billing_round()
    assert api.post(f"/organizations/{child['id']}/billing-group/link", {"parentOrgId": parent_id},
                    token=token).status_code == 201
    fund(api, owner, "200000.00", reference="TRX-2")  # the parent's wallet pays what its new child owes
    [paid] = api.get(f"/organizations/{child['id']}/billing/invoices", token=token).json["data"]["items"]
    assert paid["status"] == "PAID"
    seen = api.get(f"/organizations/{child['id']}/billing/wallet", token=token).json["data"]
    assert seen["walletOrganizationId"] == parent_id and {e["forOrganizationId"] for e in seen["entries"]} == {child["id"]}
    assert wallet(api, owner) == "222000.00"  # 600,000 less two invoices of 189,000
    assert_problem(api.patch(f"/organizations/{child['id']}/billing/auto-pay", {"enabled": True}, token=token), 409,
                   "billing_group_pays")


def test_a_suspended_organization_reads_but_neither_its_inbox_nor_its_console_sends(line, api, client):
    org_id = line.org_id
    line.customer_writes({"type": "text", "text": {"body": "Hola"}})
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    billing_round()
    clock.advance(7 * 86400 + 60)
    billing_round()
    sign_in(line.client, email="owner@example.com")
    path = f"/inbox/{org_id}/c/{conversation['id']}"
    page = line.client.get(path)
    assert page.status_code == 200  # reading works
    sent = line.client.post(f"{path}/do/reply", data={"csrf": csrf_of(page), "body": "¿Sigues ahí?"})
    assert sent.status_code == 403
    console = line.client.get(f"/console/{org_id}/quick-replies")
    assert console.status_code == 200
    assert line.client.post(f"/console/{org_id}/quick-replies", data={
        "csrf": csrf_of(console), "shortcut": "/hola", "text": "Hola"}).status_code == 403
    billing_page = line.client.get(f"/console/{org_id}/billing")
    reported = line.client.post(f"/console/{org_id}/billing/reports", data={
        "csrf": csrf_of(billing_page), "amount": "189000", "bank": "Banco", "reference": "R-1", "paidOn": "2026-11-20"})
    assert reported.status_code == 302  # paying stays open
