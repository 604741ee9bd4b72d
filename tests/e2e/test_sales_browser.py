"""Issue 50's "done means", in a real browser on a sandbox server: a new owner adds a license with
its keys and pushes the catalog to Meta (the simulator's); a customer (the sandbox's, played from
the inbox) is sent the product and orders it; the owner sends the payment link; the customer pays
it on the Wompi double's checkout page; the key reaches the customer in the chat, the order is paid
and delivered, an e-invoice is made (the Factus double), and a webhook hears `sale.completed`.
Screenshots for the docs."""

import json

from tests.e2e.conftest import go_to
from tests.e2e.test_console_browser import _browser, _first_run, _phone_at


def test_a_license_is_sold_paid_by_link_delivered_and_invoiced(sandbox_server, chromium, screenshot, hook):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]

    go_to(olga, "Webhooks")
    olga.fill("input[name=url]", hook.url)
    olga.check("input[name=events][value='sale.completed']")
    olga.click("button:has-text('Create webhook')")
    olga.wait_for_selector("text=Webhook created")

    go_to(olga, "Catalog")
    olga.wait_for_selector("text=No products yet")
    olga.fill("input[name=name]", "Office 2024 Pro")
    olga.fill("input[name=retailerId]", "office-2024")
    olga.fill("input[name=price]", "45000")
    olga.select_option("select[name=kind]", "LICENSE")
    olga.fill("input[name=imageUrl]", "https://tienda.example.com/office.png")
    olga.click("button:has-text('Add the product')")
    olga.wait_for_selector("text=Product added.")
    olga.click("a:has-text('Office 2024 Pro')")
    olga.fill("textarea[name=keys]", "KEY-AAAA-0001\nKEY-BBBB-0002\nKEY-CCCC-0003")
    olga.click("button:has-text('Add the keys')")
    olga.wait_for_selector("text=3 left · 0 delivered")
    screenshot(olga, "sales-product")
    olga.click("a:has-text('All products')")
    olga.click("button[data-sync]")
    olga.wait_for_selector("[data-sync-state]:has-text('In Meta')")
    screenshot(olga, "sales-catalog")

    # The customer writes; the owner sends the product from the inbox; the customer orders it.
    olga.goto(f"{base}/inbox/{org_id}")
    olga.fill("form.simulate input[name=text]", "Hola, ¿tienen Office?")
    olga.click("form.simulate button[type=submit]")
    olga.click("a.row >> nth=0")
    olga.click("details.product-picker summary")
    olga.check("input[name=product][value='office-2024']")
    olga.click("button[data-send-products]")
    olga.wait_for_selector("[data-products-sent]:has-text('Office 2024 Pro')")
    olga.click("form[data-simulate-order] button")
    olga.wait_for_selector("[data-cart]:has-text('Office 2024 Pro × 1')", timeout=15000)
    screenshot(olga, "sales-inbox-cart")

    # The owner sends the payment link; the customer pays it on the checkout page.
    go_to(olga, "Orders")
    olga.click("button[data-send-link]")
    olga.wait_for_selector("text=Payment link sent to the customer.")
    link = olga.get_attribute("a[data-payment-link]", "href")
    customer = _browser(chromium, locale="es-CO", viewport={"width": 390, "height": 844})
    customer.goto(link)
    customer.wait_for_selector("text=45.000,00 COP")
    customer.fill("input[name=number]", "4242 4242 4242 4242")
    customer.fill("input[name=email]", "cliente@example.com")
    screenshot(customer, "sales-checkout")
    customer.click("button:has-text('Pagar')")
    customer.wait_for_selector("h1[data-status=APPROVED]", timeout=30000)  # the page looks again until it ends

    for _ in range(40):
        olga.goto(f"{base}/console/{org_id}/orders")
        if olga.locator("[data-delivery=DELIVERED]").count():
            break
        olga.wait_for_timeout(500)
    assert "Paid with the payment link" in olga.inner_text("[data-payment]")
    olga.click("details:has(button[data-make-einvoice]) summary")
    olga.fill("input[name=identification]", "1020304050")
    olga.fill("input[name=customerName]", "Ana Pérez")
    olga.click("button[data-make-einvoice]")
    olga.wait_for_selector("[data-einvoice=ISSUED]")
    assert "SETP99" in olga.inner_text("[data-einvoice]")
    screenshot(olga, "sales-orders")

    olga.goto(f"{base}/inbox/{org_id}")
    olga.click("a.row >> nth=0")
    olga.wait_for_selector(".bubble.out:has-text('KEY-AAAA-0001')")
    screenshot(olga, "sales-inbox-key")
    for _ in range(40):
        sales = [json.loads(r["body"]) for r in hook.requests if json.loads(r["body"])["type"] == "sale.completed"]
        if sales:
            break
        olga.wait_for_timeout(250)
    assert sales and sales[0]["data"]["keys"] == ["••••0001"] and sales[0]["data"]["paidVia"] == "LINK"

    phone = _phone_at(chromium, base, f"/console/{org_id}/catalog")
    phone.wait_for_selector("[data-products] [data-stock]")
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(phone, "sales-catalog-phone-es")
