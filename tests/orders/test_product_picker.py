"""Issue 50: the inbox composer's product picker sends what is in Meta's catalog: one product, a
list of the ones ticked, or the whole catalog (interactive messages naming the catalog the products
were pushed to); it offers nothing until the catalog was pushed."""

import re

from tests.browser_forms import csrf_of, sign_in
from tests.orders.test_sales import LICENSE


def test_the_picker_sends_one_product_a_list_or_the_catalog(client, line):
    token, org_id = line.owner["token"], line.org_id
    line.api.post(f"/organizations/{org_id}/catalog/products", LICENSE, token=token)
    line.api.post(f"/organizations/{org_id}/catalog/products", {**LICENSE, "retailerId": "win-11", "name": "Windows 11",
                                                               "kind": "GOODS"}, token=token)
    line.customer_writes()
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/inbox/{org_id}/c/{conversation['id']}")
    assert "product-picker" not in page.text  # nothing in Meta's catalog yet
    catalog_id = line.api.post(f"/organizations/{org_id}/catalog/sync", {}, token=token).json["data"]["catalogId"]
    page = client.get(f"/inbox/{org_id}/c/{conversation['id']}")
    assert "product-picker" in page.text and 'value="office-2024"' in page.text
    action = re.search(r'action="([^"]+/do/product)"', page.text).group(1)
    for form in ({"product": ["office-2024"]}, {"product": ["office-2024", "win-11"]}, {"whole": "1"}):
        sent = client.post(action, data={"csrf": csrf_of(page), **form})
        assert sent.status_code in (200, 302, 303), sent.text[:300]
    out = [m["payload"] for m in line.get(f"/conversations/{conversation['id']}/messages")["items"]
           if m["direction"] == "out"]
    kinds = {payload["type"]: payload for payload in out}
    assert kinds["product"]["action"] == {"catalog_id": catalog_id, "product_retailer_id": "office-2024"}
    assert [i["product_retailer_id"] for i in kinds["product_list"]["action"]["sections"][0]["product_items"]] == [
        "office-2024", "win-11"]
    assert kinds["catalog_message"]["body"]["text"] == "Take a look at our catalog"


def test_a_cart_shows_its_products_in_the_conversation(client, line):
    token, org_id = line.owner["token"], line.org_id
    line.api.post(f"/organizations/{org_id}/catalog/products", LICENSE, token=token)
    line.customer_writes({"type": "order", "order": {"catalog_id": "c", "text": "¿Me lo envían hoy?", "product_items": [
        {"product_retailer_id": "office-2024", "quantity": 2, "item_price": "45000", "currency": "COP"}]}})
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/inbox/{org_id}/c/{conversation['id']}")
    cart = page.text[page.text.index("data-cart"):]
    assert "Office 2024 Pro × 2 · 45000 COP" in cart and "¿Me lo envían hoy?" in cart and "See it in Orders" in cart
