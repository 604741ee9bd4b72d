"""The catalog's pages (console/products.py) and the orders' payment forms, without JavaScript: a
license added with its keys (counted, never shown), pushed to Meta; a customer's order paid by a
person, its key sent in the chat, and not paid twice. (Who may open which page is the matrix's:
tests/organizations/test_matrix.py.)"""

import re

from tests.browser_forms import csrf_of, sign_in


def test_a_license_with_keys_is_sold_from_the_console(client, line):
    org_id = line.org_id
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org_id}/catalog")
    assert page.status_code == 200 and "No products yet" in page.text
    assert f'href="/console/{org_id}/catalog"' in page.text  # in the navigation
    refused = client.post(f"/console/{org_id}/catalog", data={
        "csrf": csrf_of(page), "name": "Office", "retailerId": "office-2024", "price": "-5", "currency": "COP"})
    assert refused.status_code == 400 and 'value="office-2024"' in refused.text  # what was typed stays
    made = client.post(f"/console/{org_id}/catalog", data={
        "csrf": csrf_of(page), "name": "Office 2024 Pro", "retailerId": "office-2024", "price": "45000",
        "currency": "COP", "kind": "LICENSE", "available": "1", "lowStockAt": "1",
        "imageUrl": "https://tienda.example.com/office.png"})
    assert made.status_code == 302 and "done=created" in made.headers["Location"]
    listed = client.get(f"/console/{org_id}/catalog")
    product_path = re.search(r'href="(/console/[^"]+/catalog/[0-9a-f-]{36})"', listed.text).group(1)
    detail = client.get(product_path)
    added = client.post(f"{product_path}/keys", data={"csrf": csrf_of(detail), "keys": "AAA-111\nBBB-222\nAAA-111\n"})
    assert added.status_code == 302 and "done=keys_added" in added.headers["Location"]
    detail = client.get(product_path)
    assert "2 left · 0 delivered" in detail.text and "AAA-111" not in detail.text
    synced = client.post(f"/console/{org_id}/catalog/sync", data={"csrf": csrf_of(detail)})
    assert synced.status_code == 302
    assert "In Meta" in client.get(f"/console/{org_id}/catalog").text

    line.customer_writes({"type": "order", "order": {"catalog_id": "c", "product_items": [
        {"product_retailer_id": "office-2024", "quantity": 1, "item_price": "45000", "currency": "COP"}]}})
    line.deliver()
    orders = client.get(f"/console/{org_id}/orders")
    assert "Office 2024 Pro" in orders.text and 'data-payment="UNPAID"' in orders.text
    order_id = re.search(r'data-order="([^"]+)"', orders.text).group(1)
    paid = client.post(f"/console/{org_id}/orders/{order_id}/mark-paid", data={"csrf": csrf_of(orders),
                                                                               "reference": "efectivo"})
    assert paid.status_code == 302 and "done=paid" in paid.headers["Location"]
    orders = client.get(f"/console/{org_id}/orders")
    assert 'data-delivery="DELIVERED"' in orders.text and "Marked paid" in orders.text
    assert "1 left · 1 delivered" in client.get(product_path).text
    again = client.post(f"/console/{org_id}/orders/{order_id}/mark-paid", data={"csrf": csrf_of(orders)})
    assert again.status_code == 409 and "already paid" in again.text



def test_a_paid_order_is_invoiced_from_the_orders_page(client, line, simulator, netsim_url):
    from tests.orders.test_sales import ordered, product_with_keys
    org_id, state = line.org_id, simulator.factus
    sign_in(client, email="owner@example.com")
    product_with_keys(line)
    order = ordered(line)
    page = client.get(f"/console/{org_id}/e-invoicing")
    assert page.status_code == 200 and "Not set up yet" in page.text
    refused = client.post(f"/console/{org_id}/e-invoicing", data={"csrf": csrf_of(page), "url": "not a url",
                                                                  "clientId": "x", "username": "u"})
    assert refused.status_code == 400
    saved = client.post(f"/console/{org_id}/e-invoicing", data={
        "csrf": csrf_of(page), "url": f"{netsim_url}/factus", "clientId": state.client_id,
        "clientSecret": state.client_secret, "username": state.username, "password": state.password, "taxRate": "19.00"})
    assert saved.status_code == 302 and "done=einvoicing_saved" in saved.headers["Location"]
    page = client.get(f"/console/{org_id}/e-invoicing")
    assert state.client_secret not in page.text and state.password not in page.text
    orders = client.get(f"/console/{org_id}/orders")
    client.post(f"/console/{org_id}/orders/{order['id']}/mark-paid", data={"csrf": csrf_of(orders)})
    orders = client.get(f"/console/{org_id}/orders")
    assert 'data-einvoice="NONE"' in orders.text
    made = client.post(f"/console/{org_id}/orders/{order['id']}/e-invoice", data={
        "csrf": csrf_of(orders), "documentType": "CC", "identification": "1020304050", "customerName": "Ana Pérez"})
    assert made.status_code == 302 and "done=einvoice" in made.headers["Location"]
    orders = client.get(f"/console/{org_id}/orders")
    assert 'data-einvoice="ISSUED"' in orders.text and "SETP99" in orders.text
    pdf = client.get(re.search(r'href="([^"]+e-invoice\.pdf)"', orders.text).group(1))
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_the_template_for_keys_after_24_hours_is_chosen_on_the_catalog_page(client, line):
    from tests.messages.test_template_send import _approved
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{line.org_id}/catalog")
    assert "No template can carry keys yet" in page.text
    _approved(line, "claves_licencia", "es", [{"type": "BODY", "text": "Tu licencia: {{1}}",
                                              "example": {"body_text": [["ABCD-1234"]]}}])
    page = client.get(f"/console/{line.org_id}/catalog")
    saved = client.post(f"/console/{line.org_id}/catalog/delivery-template",
                        data={"csrf": csrf_of(page), "template": "claves_licencia|es"})
    assert saved.status_code == 302
    chosen = line.api.get(f"/organizations/{line.org_id}/orders/settings", token=line.owner["token"]).json["data"]
    assert chosen["deliveryTemplate"] == {"name": "claves_licencia", "language": "es"}
    refused = client.post(f"/console/{line.org_id}/catalog/delivery-template",
                          data={"csrf": csrf_of(page), "template": "otra|es"})
    assert refused.status_code == 400
