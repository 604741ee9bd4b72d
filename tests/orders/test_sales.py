"""Issue 50, sales: an order is paid once (a payment link's approved transaction, a transfer a
person confirms against the receipt the customer sent, a person's word) and only then are its
license keys given out, all or none, never the same key twice, and sent to the customer in the
chat; a replayed event delivers nothing more; a dry pool leaves the order paid and waiting until
keys are added; a payment that matches no unpaid order is said to the webhooks."""

from __future__ import annotations

import json

import pytest
import requests
from sqlmodel import select

from appliance.core import runtime
from appliance.core.events import OutboxEvent
from tests.billing.test_payments import deliver, events, settle
from tests.problems import assert_problem

LICENSE = {"retailerId": "office-2024", "name": "Office 2024 Pro", "price": "45000.00", "currency": "COP",
           "kind": "LICENSE", "imageUrl": "https://tienda.example.com/office.png"}


def cart(quantity=1):
    return {"type": "order", "order": {"catalog_id": "cat-1", "product_items": [
        {"product_retailer_id": "office-2024", "quantity": quantity, "item_price": "45000", "currency": "COP"}]}}


@pytest.fixture
def settings(settings, netsim_url, simulator):
    state = simulator.wompi
    return settings.replace(wompi_url=f"{netsim_url}/wompi/v1", wompi_checkout_url=f"{netsim_url}/wompi/checkout",
                            wompi_public_key=state.public_key, wompi_private_key=state.private_key,
                            wompi_events_secret=state.events_secret, wompi_integrity_secret=state.integrity_secret)


def product_with_keys(line, keys=("KEY-AAAA-0001", "KEY-BBBB-0002", "KEY-CCCC-0003")) -> dict:
    token = line.owner["token"]
    product = line.api.post(f"/organizations/{line.org_id}/catalog/products", LICENSE, token=token).json["data"]
    if keys:
        line.api.post(f"/organizations/{line.org_id}/catalog/products/{product['id']}/license-keys",
                      {"keys": list(keys)}, token=token)
    return product


def ordered(line, quantity=1) -> dict:
    line.customer_writes(cart(quantity))
    line.deliver()
    return line.get("/orders")["items"][0]


def sent_texts(line, order) -> list[str]:
    return [m["payload"].get("body", "") for m in line.get(f"/conversations/{order['conversationId']}/messages")["items"]
            if m["direction"] == "out" and m["type"] == "text"]


def outbox(name: str) -> list[dict]:
    with runtime.get().db.unit_of_work(write=False) as session:
        return [row.data for row in session.exec(select(OutboxEvent).where(OutboxEvent.name == name))]


def test_paid_through_its_link_the_customer_gets_a_key_once(line, netsim_url):
    product = product_with_keys(line)
    order = ordered(line)
    path = f"/organizations/{line.org_id}/orders/{order['id']}"
    token = line.owner["token"]
    assert order["payment"]["status"] == "UNPAID" and order["delivery"]["status"] == "NONE"
    linked = line.api.post(f"{path}/payment-link", {"sendToCustomer": True}, token=token)
    assert linked.status_code == 201, linked.json
    url = linked.json["data"]["payment"]["linkUrl"]
    assert url.startswith(f"{netsim_url}/wompi/checkout/l/") and any(url in text for text in sent_texts(line, order))
    assert line.api.post(f"{path}/payment-link", {}, token=token).json["data"]["payment"]["linkUrl"] == url  # once

    page = requests.get(url, timeout=5)
    assert page.status_code == 200 and "45.000,00 COP" in page.text
    paid = requests.post(url, data={"number": "4242 4242 4242 4242", "email": "ana@example.com"}, timeout=5,
                         allow_redirects=False)
    assert paid.status_code == 303
    settle(netsim_url)
    [event] = [e for e in events(netsim_url) if e["body"]["data"]["transaction"].get("payment_link_id")]
    assert deliver(line.api, event).status_code == 200
    line.deliver()
    seen = line.api.get(path, token=token).json["data"]
    assert (seen["payment"]["status"], seen["payment"]["paidVia"], seen["delivery"]["status"]) == ("PAID", "LINK", "DELIVERED")
    assert sum("KEY-AAAA-0001" in text for text in sent_texts(line, order)) == 1
    assert deliver(line.api, event).status_code == 200  # the same event again: nothing more
    line.deliver()
    assert sum("KEY-" in text for text in sent_texts(line, order)) == 1
    [sale] = outbox("sale.completed")
    assert sale["orderId"] == order["id"] and sale["keys"] == ["••••0001"] and sale["paidVia"] == "LINK"
    stock = line.api.get(f"/organizations/{line.org_id}/catalog/products/{product['id']}/license-keys", token=token)
    assert (stock.json["data"]["available"], stock.json["data"]["delivered"]) == (2, 1)
    [key] = line.api.get(f"{path}/license-keys", token=token).json["data"]["items"]
    assert key["key"] == "••••0001"
    assert_problem(line.api.post(f"{path}/mark-paid", {}, token=token), 409, "order_already_paid")
    requests.get(url, timeout=5)  # spent: a single-use link takes no second payment
    assert "ya fue pagado" in requests.get(url, timeout=5).text

    replaced = line.api.post(f"{path}/license-keys/{key['id']}/replace", {"reason": "No activa"}, token=token)
    assert replaced.status_code == 200, replaced.json
    assert any("KEY-BBBB-0002" in text for text in sent_texts(line, order))
    [change] = outbox("license.key_replaced")
    assert (change["replacedKey"], change["key"], change["reason"]) == ("••••0001", "••••0002", "No activa")


def test_a_dry_pool_keeps_the_paid_order_waiting_until_keys_come(line):
    product = product_with_keys(line, keys=("ONLY-ONE-0001",))
    order = ordered(line, quantity=2)
    path = f"/organizations/{line.org_id}/orders/{order['id']}"
    token = line.owner["token"]
    paid = line.api.post(f"{path}/mark-paid", {"reference": "efectivo"}, token=token).json["data"]
    assert (paid["payment"]["paidVia"], paid["delivery"]) == ("MANUAL", {"status": "WAITING", "reason": "no_keys",
                                                                        "deliveredAt": None})
    assert line.api.get(f"{path}/license-keys", token=token).json["data"]["items"] == []  # none given: all or none
    assert not any("ONLY-ONE" in text for text in sent_texts(line, order))
    assert_problem(line.api.patch(f"/organizations/{line.org_id}/catalog/products/{product['id']}", {"kind": "GOODS"},
                                  token=token), 409, "product_has_waiting_orders")  # the waiting order finds it
    line.api.post(f"/organizations/{line.org_id}/catalog/products/{product['id']}/license-keys",
                  {"keys": ["SECOND-0002"]}, token=token)
    line.deliver()
    seen = line.api.get(path, token=token).json["data"]
    assert seen["delivery"]["status"] == "DELIVERED"
    assert any("ONLY-ONE-0001" in text and "SECOND-0002" in text for text in sent_texts(line, order))
    assert [sale["keys"] for sale in outbox("sale.completed")] == [["••••0001", "••••0002"]]


def test_a_transfer_is_confirmed_by_a_person_never_by_the_picture(line):
    product_with_keys(line)
    order = ordered(line)
    path = f"/organizations/{line.org_id}/orders/{order['id']}"
    token = line.owner["token"]
    assert_problem(line.api.post(f"{path}/confirm-transfer", {}, token=token), 409, "no_transfer_reported")
    line.customer_writes({"type": "image", "image": {"caption": "Ya pagué"}},
                         media={"contentBase64": "iVBORw0KGgo=", "mimeType": "image/png"})
    line.deliver()
    seen = line.api.get(path, token=token).json["data"]
    assert seen["payment"]["status"] == "UNPAID" and seen["payment"]["receiptMessageId"]  # kept, not believed
    confirmed = line.api.post(f"{path}/confirm-transfer", {"reference": "BANCO-778"}, token=token).json["data"]
    assert (confirmed["payment"]["paidVia"], confirmed["delivery"]["status"]) == ("TRANSFER", "DELIVERED")
    [said] = outbox("license.transfer_confirmed")
    assert said["orderId"] == order["id"] and said["receiptMessageId"] == seen["payment"]["receiptMessageId"]


def test_money_that_pays_no_unpaid_order_is_said(line):
    from appliance.orders import payments
    product_with_keys(line)
    order = ordered(line)
    token = line.owner["token"]
    line.api.post(f"/organizations/{line.org_id}/orders/{order['id']}/mark-paid", {}, token=token)
    with runtime.get().db.unit_of_work(write=True) as session:
        from appliance.orders.models import Order
        session.get(Order, order["id"]).payment_link_id = "test_link1"
        payments.do_receive(session, {"paymentLinkId": "test_link1", "status": "APPROVED", "transactionId": "tx-2",
                                      "reference": "r-2", "amountMinor": 4500000, "currency": "COP"})
    [unmatched] = outbox("license.payment_unmatched")
    assert (unmatched["orderId"], unmatched["reason"], unmatched["amount"]) == (order["id"], "already_paid", "45000.00")
    hook = line.api.post(f"/organizations/{line.org_id}/webhooks-outbound",
                         {"url": "https://hooks.example.com/in", "events": ["sale.completed", "license.payment_unmatched",
                                                                            "license.key_replaced",
                                                                            "license.transfer_confirmed"]}, token=token)
    assert hook.status_code == 201, hook.json


def test_many_long_keys_go_in_as_many_texts_as_they_need(line):
    long_keys = [f"LONG-{n:02d}-" + "X" * 400 for n in range(12)]
    product_with_keys(line, keys=long_keys)
    order = ordered(line, quantity=12)
    paid = line.api.post(f"/organizations/{line.org_id}/orders/{order['id']}/mark-paid", {}, token=line.owner["token"])
    assert paid.json["data"]["delivery"]["status"] == "DELIVERED"
    key_texts = [text for text in sent_texts(line, order) if "LONG-" in text]  # the sale's, not the cart's notice
    assert len(key_texts) == 2 and all(len(text) <= 4096 for text in key_texts)
    assert sorted(key for text in key_texts for key in text.split("\n") if key.startswith("LONG-")) == long_keys  # none cut


def test_outside_the_window_the_keys_go_by_the_chosen_template(line):
    from appliance.core import clock
    from tests.messages.test_template_send import _approved
    product_with_keys(line)
    order = ordered(line)
    clock.advance(25 * 3600)  # the customer's window has closed
    token = line.owner["token"] = line.api.login("owner@example.com")["tokens"]["accessToken"]
    path = f"/organizations/{line.org_id}/orders/{order['id']}"
    paid = line.api.post(f"{path}/mark-paid", {}, token=token).json["data"]
    assert paid["delivery"] == {"status": "WAITING", "reason": "window_closed", "deliveredAt": None}
    assert outbox("sale.completed") == []
    _approved(line, "claves_licencia", "es", [{"type": "BODY", "text": "Gracias por tu compra. Tu licencia de {{1}}: {{2}}",
                                              "example": {"body_text": [["Office", "ABCD-1234"]]}}])
    _approved(line, "con_foto", "es", [{"type": "HEADER", "format": "IMAGE", "example": {"header_handle": ["4::aW1n"]}},
                                       {"type": "BODY", "text": "Hola {{1}}", "example": {"body_text": [["Ana"]]}}])
    settings = f"/organizations/{line.org_id}/orders/settings"
    refused = line.api.put(settings, {"deliveryTemplate": {"name": "con_foto", "language": "es"}}, token=token)
    assert refused.status_code == 400 and "deliveryTemplate" in refused.json["errors"]
    chosen = line.api.put(settings, {"deliveryTemplate": {"name": "claves_licencia", "language": "es"}}, token=token)
    assert chosen.status_code == 200 and chosen.json["data"]["deliveryTemplate"] == {"name": "claves_licencia",
                                                                                     "language": "es"}
    delivered = line.api.post(f"{path}/deliver", {}, token=token).json["data"]
    assert delivered["delivery"]["status"] == "DELIVERED"
    [sent] = [m for m in line.get(f"/conversations/{order['conversationId']}/messages")["items"] if m["type"] == "template"]
    assert sent["payload"]["name"] == "claves_licencia"
    assert "KEY-AAAA-0001" in json.dumps(sent["payload"])
    assert len(outbox("sale.completed")) == 1
    assert line.api.put(settings, {"deliveryTemplate": None}, token=token).json["data"]["deliveryTemplate"] is None
