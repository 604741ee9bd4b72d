"""Issue 24, part 4: orders. A customer's cart (an inbound `order` message) becomes an order once,
with its items and a decimal total; it is read by its message and listed by status; a status
outside the list is 400; a change can tell the customer inside the 24-hour window (a message of the
conversation, in the organization's language) and says why it did not outside it."""

import pytest

from appliance.core import clock
from tests.problems import assert_problem, error_fields

CART = {"type": "order", "order": {"catalog_id": "cat-sol", "text": "Para el sábado",
                                   "product_items": [{"product_retailer_id": "pan-masa-madre", "quantity": 2,
                                                      "item_price": 12500.5, "currency": "COP"},
                                                     {"product_retailer_id": "croissant", "quantity": "3",
                                                      "item_price": "4000", "currency": "COP"}]}}


def _order(line):
    line.customer_writes(CART)
    answers = line.deliver()
    assert all(a.status_code == 200 for a in answers)
    [order] = line.get("/orders")["items"]
    return order


def test_a_cart_becomes_an_order_read_by_its_message(line):
    order = _order(line)
    assert (order["catalogId"], order["note"], order["total"], order["currency"]) == ("cat-sol", "Para el sábado", "37001.0", "COP")
    assert [i["productRetailerId"] for i in order["items"]] == ["pan-masa-madre", "croissant"]
    assert order["status"] == {"code": "PENDING", "note": None, "customerNotified": None, "notNotifiedReason": None}
    assert line.get(f"/orders/by-message/{order['messageId']}")["id"] == order["id"]
    line.deliver()  # nothing new: still one order
    assert len(line.get("/orders")["items"]) == 1
    assert line.get("/orders?status=PENDING")["items"] and not line.get("/orders?status=COMPLETED")["items"]
    text_message = [m for m in line.get(f"/conversations/{order['conversationId']}/messages")["items"]]
    assert text_message  # the cart shows in the conversation too


def test_status_changes_tell_the_customer_inside_the_window_only(line):
    order = _order(line)
    path = f"/organizations/{line.org_id}/orders/{order['id']}"
    token = line.owner["token"]
    moved = line.api.patch(path, {"status": {"code": "IN_PROCESS", "note": "Sale a las 4", "notifyCustomer": True}}, token=token)
    assert moved.status_code == 200, moved.json
    assert moved.json["data"]["status"] == {"code": "IN_PROCESS", "note": "Sale a las 4", "customerNotified": True,
                                            "notNotifiedReason": None}
    sent = [m for m in line.get(f"/conversations/{order['conversationId']}/messages")["items"] if m["direction"] == "out"]
    assert sent and "Sale a las 4" in sent[0]["payload"]["body"]
    clock.advance(25 * 3600)
    token = line.api.login("owner@example.com")["tokens"]["accessToken"]
    late = line.api.patch(path, {"status": {"code": "COMPLETED", "notifyCustomer": True}}, token=token).json["data"]
    assert late["status"] == {"code": "COMPLETED", "note": None, "customerNotified": False, "notNotifiedReason": "window_closed"}
    quiet = line.api.patch(path, {"status": {"code": "CANCELLED"}}, token=token).json["data"]
    assert quiet["status"]["customerNotified"] is None


@pytest.mark.parametrize("body", [{"status": {"code": "SHIPPED"}}, {"status": {}}, {}, {"status": "COMPLETED"},
                                  {"status": {"code": "COMPLETED", "note": "x" * 501}}])
def test_bad_statuses_are_refused(line, body):
    order = _order(line)
    answer = line.api.patch(f"/organizations/{line.org_id}/orders/{order['id']}", body, token=line.owner["token"])
    assert answer.status_code == 400 and "status" in error_fields(answer), answer.json


def test_another_organization_cannot_read_or_move_an_order(line, api):
    order = _order(line)
    rival = api.signup(email="rival@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Rival", "slug": "rival", "billingEmail": "r@r.test"}, token=rival).json["data"]["id"]
    assert_problem(api.get(f"/organizations/{theirs}/orders/{order['id']}", token=rival), 404, "order_not_found")
    assert_problem(api.get(f"/organizations/{theirs}/orders/by-message/{order['messageId']}", token=rival), 404, "order_not_found")
    assert api.get(f"/organizations/{theirs}/orders", token=rival).json["data"]["items"] == []


def test_the_console_lists_orders_and_moves_them(line, client):
    from tests.browser_forms import csrf_of, sign_in
    order = _order(line)
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{line.org_id}/orders")
    assert page.status_code == 200 and "pan-masa-madre" in page.text and "37001.0 COP" in page.text
    moved = client.post(f"/console/{line.org_id}/orders/{order['id']}", data={
        "csrf": csrf_of(page), "code": "IN_PROCESS", "note": "Listo a las 4", "notify": "1"})
    assert moved.status_code == 302
    assert "the customer told" in client.get(moved.headers["Location"]).text
    assert "pan-masa-madre" in client.get(f"/console/{line.org_id}/orders?status=IN_PROCESS").text
    assert "No orders" in client.get(f"/console/{line.org_id}/orders?status=COMPLETED").text
    wrong = client.post(f"/console/{line.org_id}/orders/{order['id']}", data={"csrf": csrf_of(page), "code": "LOST"})
    assert wrong.status_code == 400
