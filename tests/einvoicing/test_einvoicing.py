"""Issue 50, e-invoicing: a paid order's electronic invoice made at the provider (the Factus
double, through the real client): issued with its number, CUFE and PDF, the same one when asked
again; DIAN's refusal shown with its reason and taken up again with corrected data; a provider
that does not answer leaves it pending with why, and the minute task issues it later (the clock
moved); the account's secrets never shown."""

from __future__ import annotations

import requests

from appliance.core import clock
from appliance.einvoicing import tasks
from tests.orders.test_sales import ordered, product_with_keys
from tests.problems import assert_problem


def account(line, simulator, netsim_url, **changes) -> dict:
    state = simulator.factus
    body = {"url": f"{netsim_url}/factus", "clientId": state.client_id, "clientSecret": state.client_secret,
            "username": state.username, "password": state.password, **changes}
    answer = line.api.put(f"/organizations/{line.org_id}/e-invoicing/account", body, token=line.owner["token"])
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def paid_order(line) -> str:
    product_with_keys(line)
    order = ordered(line)
    paid = line.api.post(f"/organizations/{line.org_id}/orders/{order['id']}/mark-paid", {}, token=line.owner["token"])
    assert paid.status_code == 200
    return order["id"]


def test_a_paid_order_is_invoiced_once_with_its_pdf(line, simulator, netsim_url):
    token = line.owner["token"]
    product_with_keys(line)
    order = ordered(line)
    path = f"/organizations/{line.org_id}/orders/{order['id']}/e-invoice"
    assert_problem(line.api.post(path, {}, token=token), 409, "einvoicing_not_configured")
    shown = account(line, simulator, netsim_url)
    assert shown["configured"] and "clientSecret" not in shown and "password" not in shown
    assert_problem(line.api.post(path, {}, token=token), 409, "order_not_paid")
    line.api.post(f"/organizations/{line.org_id}/orders/{order['id']}/mark-paid", {}, token=token)
    made = line.api.post(path, {"customer": {"documentType": "CC", "identification": "1020304050",
                                             "name": "Ana Pérez", "email": "ana@example.com"}}, token=token)
    assert made.status_code == 201, made.json
    invoice = made.json["data"]
    assert invoice["status"] == "ISSUED" and invoice["number"].startswith("SETP99") and len(invoice["cufe"]) == 96
    pdf = line.api.client.get(invoice["pdfUrl"], headers={"Authorization": f"Bearer {token}"})
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
    again = line.api.post(path, {}, token=token).json["data"]
    assert again["id"] == invoice["id"] and again["number"] == invoice["number"]
    [bill] = requests.get(f"{netsim_url}/_control/factus", timeout=5).json()["bills"]
    assert bill["reference_code"] == invoice["id"]  # our id is the provider's reference: never two invoices
    assert line.api.get(path, token=token).json["data"]["status"] == "ISSUED"


def test_a_refusal_says_why_and_corrected_data_is_invoiced(line, simulator, netsim_url):
    account(line, simulator, netsim_url)
    order_id = paid_order(line)
    path = f"/organizations/{line.org_id}/orders/{order_id}/e-invoice"
    token = line.owner["token"]
    refused = line.api.post(path, {"customer": {"documentType": "CC", "identification": "1111111", "name": "Ana"}},
                            token=token).json["data"]
    assert refused["status"] == "REJECTED" and "FAK24" in refused["reason"]
    fixed = line.api.post(path, {"customer": {"documentType": "CC", "identification": "1020304050", "name": "Ana"}},
                          token=token).json["data"]
    assert fixed["status"] == "ISSUED" and fixed["id"] != refused["id"]
    bad = line.api.post(path, {"customer": {"documentType": "XX", "identification": "12a", "name": ""}}, token=token)
    assert bad.status_code == 400 and {"customer.documentType", "customer.identification", "customer.name"} <= set(bad.json["errors"])


def test_a_provider_down_keeps_it_pending_and_it_is_issued_later(line, simulator, netsim_url):
    account(line, simulator, netsim_url)
    order_id = paid_order(line)
    requests.put(f"{netsim_url}/_control/factus", json={"down": 2}, timeout=5)
    pending = line.api.post(f"/organizations/{line.org_id}/orders/{order_id}/e-invoice", {},
                            token=line.owner["token"]).json["data"]
    assert pending["status"] == "PENDING" and pending["reason"].startswith("provider_unavailable")
    assert pending["customer"]["identification"] == "222222222222"  # the final consumer, with the contact's name
    tasks.einvoices_minute_check.call_local()  # not due yet: nothing asked
    assert requests.get(f"{netsim_url}/_control/factus", timeout=5).json()["down"] == 1
    clock.advance(61)
    tasks.einvoices_minute_check.call_local()  # the provider still down: later again
    clock.advance(5 * 60 + 1)
    tasks.einvoices_minute_check.call_local()
    token = line.api.login("owner@example.com")["tokens"]["accessToken"]
    issued = line.api.get(f"/organizations/{line.org_id}/orders/{order_id}/e-invoice", token=token).json["data"]
    assert issued["status"] == "ISSUED" and issued["attempts"] == 3, issued["reason"]


def test_the_secrets_go_only_where_they_were_given(line, simulator, netsim_url):
    account(line, simulator, netsim_url)
    moved = line.api.put(f"/organizations/{line.org_id}/e-invoicing/account",
                         {"url": "https://factus.attacker.example", "clientId": simulator.factus.client_id,
                          "username": simulator.factus.username}, token=line.owner["token"])
    assert_problem(moved, 409, "secrets_required")
    private = line.api.put(f"/organizations/{line.org_id}/e-invoicing/account",
                           {"url": "http://169.254.169.254/latest", "clientId": "x", "clientSecret": "s", "username": "u",
                            "password": "p"}, token=line.owner["token"])
    assert_problem(private, 400, "url_not_allowed")


def test_wrong_credentials_are_said(line, simulator, netsim_url):
    account(line, simulator, netsim_url, clientSecret="wrong")
    order_id = paid_order(line)
    refused = line.api.post(f"/organizations/{line.org_id}/orders/{order_id}/e-invoice", {},
                            token=line.owner["token"]).json["data"]
    assert refused["status"] == "REJECTED" and "credentials" in refused["reason"]
