"""Cards, auto-pay and Nequi through the API, with the Wompi double over loopback as the processor
(APPLIANCE_BILLING on): a card kept from the browser's token, auto-pay charging an unpaid invoice
once (its event replayed changes nothing, a forged one credits nothing), a decline leading to the
next attempt under a new reference, a lost answer found by its reference and never charged twice,
and a Nequi push credited when its owner accepts."""

from __future__ import annotations

import json

import pytest
import requests

from appliance.billing import tasks
from appliance.core import clock
from tests.billing.test_billing import wallet
from tests.billing.test_wompi import card_token, control
from tests.problems import assert_problem, error_fields


@pytest.fixture
def settings(settings, netsim_url, simulator):
    state = simulator.wompi
    return settings.replace(billing="on", wompi_url=f"{netsim_url}/wompi/v1", wompi_public_key=state.public_key,
                            wompi_private_key=state.private_key, wompi_events_secret=state.events_secret,
                            wompi_integrity_secret=state.integrity_secret)


@pytest.fixture
def keys(simulator) -> dict:
    return {"public_key": simulator.wompi.public_key}


def add_card(api, owner, netsim_url, keys, number="4242 4242 4242 4242") -> dict:
    token = card_token(netsim_url, keys, number)["id"]
    added = api.post(f"/organizations/{owner['org']['id']}/billing/payment-methods",
                     {"token": token, "email": "owner@example.com", "firstName": "Ana"}, token=owner["token"])
    assert added.status_code == 201, added.json
    return added.json["data"]


def settle(netsim_url: str, status: str | None = None, **which) -> list:
    answer = requests.post(f"{netsim_url}/_control/wompi/settle", json={**which, **({"status": status} if status else {})},
                           timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["settled"]


def events(netsim_url: str) -> list[dict]:
    return requests.get(f"{netsim_url}/_control/wompi", timeout=5).json()["events"]


def deliver(api, event: dict):
    """What Wompi posts, byte for byte."""
    body = event["body"] if isinstance(event["body"], str) else json.dumps(event["body"])
    return api.client.post("/billing/wompi/events", data=body, content_type="application/json")


def billing_round() -> None:
    tasks.billing_minute_check.call_local()


def invoice_of(api, owner) -> dict:
    [invoice] = api.get(f"/organizations/{owner['org']['id']}/billing/invoices", token=owner["token"]).json["data"]["items"]
    return invoice


def test_cards_are_kept_by_their_last_digits_and_one_is_the_default(api, owner, netsim_url, keys):
    org_id, token = owner["org"]["id"], owner["token"]
    first = add_card(api, owner, netsim_url, keys)
    assert (first["brand"], first["last4"], first["isDefault"]) == ("VISA", "4242", True)
    assert "token" not in first and "sourceId" not in first
    second = add_card(api, owner, netsim_url, keys, "4111 1111 1111 1111")
    assert second["isDefault"] is False
    assert api.post(f"/organizations/{org_id}/billing/payment-methods/{second['id']}/default",
                    token=token).status_code == 201
    listed = api.get(f"/organizations/{org_id}/billing/payment-methods", token=token).json["data"]
    assert [(m["last4"], m["isDefault"]) for m in listed] == [("4242", False), ("1111", True)]
    assert api.delete(f"/organizations/{org_id}/billing/payment-methods/{second['id']}", token=token).status_code == 200
    listed = api.get(f"/organizations/{org_id}/billing/payment-methods", token=token).json["data"]
    assert [(m["last4"], m["isDefault"]) for m in listed] == [("4242", True)]
    sources = requests.get(f"{netsim_url}/_control/wompi", timeout=5).json()["sources"]
    assert sorted(s["status"] for s in sources) == ["AVAILABLE", "VOIDED"]
    used = api.post(f"/organizations/{org_id}/billing/payment-methods",
                    {"token": "tok_test_unknown_1234", "email": "owner@example.com"}, token=token)
    assert_problem(used, 400, "card_refused")
    assert_problem(api.patch(f"/organizations/{org_id}/billing/auto-pay",
                             {"enabled": True, "methodId": second["id"]}, token=token), 400, "validation_failed")


def test_auto_pay_charges_an_unpaid_invoice_once(api, owner, netsim_url, keys):
    org_id, token = owner["org"]["id"], owner["token"]
    card = add_card(api, owner, netsim_url, keys)
    assert api.patch(f"/organizations/{org_id}/billing/auto-pay", {"enabled": True}, token=token).json["data"] == {
        "autoPayEnabled": True, "autoPayMethodId": None}
    billing_round()
    invoice = invoice_of(api, owner)
    assert (invoice["status"], invoice["attempts"]) == ("OPEN", 1)
    [settled] = settle(netsim_url, "APPROVED", reference=f"inv:{invoice['id']}:try:1")
    [event] = [e for e in events(netsim_url) if e["status"] == "APPROVED"]
    received = deliver(api, event)
    assert received.status_code == 200 and received.json["data"] == {"received": True, "matched": True}
    assert invoice_of(api, owner)["status"] == "PAID"
    assert wallet(api, owner) == "0.00"
    assert deliver(api, event).status_code == 200  # Wompi sends it again: nothing more
    entries = api.get(f"/organizations/{org_id}/billing/wallet", token=token).json["data"]["entries"]
    assert [(e["source"], e["amount"]) for e in entries] == [("INVOICE", "-189000.00"), ("CARD", "189000.00")]
    forged = json.loads(event["body"]) if isinstance(event["body"], str) else dict(event["body"])
    forged["data"]["transaction"]["amount_in_cents"] = 999999999
    answer = api.client.post("/billing/wompi/events", data=json.dumps(forged), content_type="application/json")
    assert_problem(answer, 401, "invalid_event_checksum")
    assert wallet(api, owner) == "0.00" and card["isDefault"]


def test_a_declined_card_is_tried_again_under_a_new_reference(api, owner, netsim_url, keys, mailbox):
    org_id, token = owner["org"]["id"], owner["token"]
    add_card(api, owner, netsim_url, keys, "4111 1111 1111 1111")
    api.patch(f"/organizations/{org_id}/billing/auto-pay", {"enabled": True}, token=token)
    billing_round()
    invoice = invoice_of(api, owner)
    settle(netsim_url, reference=f"inv:{invoice['id']}:try:1")  # 4111: declined
    clock.advance(60)
    billing_round()  # the poll finds what the events would have said
    token = api.login("owner@example.com")["tokens"]["accessToken"]
    owner = {**owner, "token": token}
    invoice = invoice_of(api, owner)
    assert invoice["status"] == "OPEN" and invoice["lastFailure"] and invoice["nextAttemptAt"] is not None
    assert "is not paid" in mailbox.last_to("owner@example.com")["Subject"]
    clock.advance(86400)
    billing_round()
    tried = requests.get(f"{netsim_url}/_control/wompi", timeout=5).json()["transactions"]
    assert sorted(t["reference"] for t in tried) == [f"inv:{invoice['id']}:try:1", f"inv:{invoice['id']}:try:2"]


def test_a_charge_whose_answer_was_lost_is_found_and_not_made_twice(api, owner, netsim_url, keys):
    org_id, token = owner["org"]["id"], owner["token"]
    add_card(api, owner, netsim_url, keys)
    api.patch(f"/organizations/{org_id}/billing/auto-pay", {"enabled": True}, token=token)
    control(netsim_url, fail="502", failTimes=1)  # the charge is made, its answer lost
    billing_round()
    invoice = invoice_of(api, owner)
    assert invoice["status"] == "OPEN" and invoice["nextAttemptAt"] is None  # waiting: not failed, not retried
    settle(netsim_url, "APPROVED", reference=f"inv:{invoice['id']}:try:1")
    clock.advance(60)
    billing_round()
    token = api.login("owner@example.com")["tokens"]["accessToken"]
    assert invoice_of(api, {**owner, "token": token})["status"] == "PAID"
    tried = requests.get(f"{netsim_url}/_control/wompi", timeout=5).json()["transactions"]
    assert [t["reference"] for t in tried] == [f"inv:{invoice['id']}:try:1"]


def test_nequi_push_credits_the_wallet_when_accepted(api, owner, netsim_url):
    org_id, token = owner["org"]["id"], owner["token"]
    pushed = api.post(f"/organizations/{org_id}/billing/nequi/push", {"phoneNumber": "399 111 1111", "amount": "50000.00"},
                      token=token)
    assert pushed.status_code == 201 and pushed.json["data"]["status"] == "PENDING", pushed.json
    declined = api.post("/billing/nequi/push", {"organizationId": org_id, "phoneNumber": "3992222222", "amount": 20000},
                        token=token).json["data"]
    settle(netsim_url)
    for event in events(netsim_url):
        assert deliver(api, event).status_code == 200
    followed = api.get(f"/organizations/{org_id}/billing/nequi/push/{pushed.json['data']['id']}", token=token).json["data"]
    assert followed["status"] == "APPROVED"
    assert api.get(f"/organizations/{org_id}/billing/nequi/push/{declined['id']}", token=token).json["data"][
        "status"] == "DECLINED"
    assert wallet(api, owner) == "50000.00"
    for body, field in (({"phoneNumber": "12345"}, "phoneNumber"), ({"amount": "-5"}, "amount")):
        answer = api.post(f"/organizations/{org_id}/billing/nequi/push",
                          {"phoneNumber": "3991111111", "amount": "1000.00", **body}, token=token)
        assert answer.status_code == 400 and field in error_fields(answer), answer.json
