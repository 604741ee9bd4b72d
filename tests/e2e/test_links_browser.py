"""Issue 24's chat links in a real browser on a sandbox server: the owner makes a link for her
sandbox number, finds its QR code and address, a customer's phone follows the address (a redirect
to wa.me, counted), and the link's page shows the click; the page on a phone in Spanish."""

import http.client
from urllib.parse import urlsplit

from tests.e2e.test_console_browser import _browser, _first_run, _phone_at
from tests.e2e.conftest import go_to


def test_an_owner_shares_a_chat_link_and_sees_the_click(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]
    go_to(olga, 'Links')
    olga.wait_for_selector("text=No links yet")
    olga.fill("input[name=name]", "Afiche de la tienda")
    olga.fill("input[name=campaign_tag]", "noviembre")
    olga.fill("textarea[name=prefilled_message]", "Hola, vi el afiche 🥐")
    olga.click("button:has-text('Make link')")
    olga.wait_for_selector("text=Link made")
    assert olga.evaluate("document.querySelector('img.qr').naturalWidth") > 0
    short = olga.inner_text("#short-url")

    parts = urlsplit(short)  # a customer's phone follows it (the server's own address in a trial)
    conn = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=10)
    conn.request("GET", parts.path, headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"})
    answer = conn.getresponse()
    assert answer.status == 302 and answer.getheader("Location").startswith("https://wa.me/")
    for _ in range(20):  # the server writes clicks every half second
        olga.reload()
        if olga.inner_text(".kpis .kpi >> nth=0") == "1":
            break
        olga.wait_for_timeout(300)
    assert olga.inner_text(".kpis .kpi >> nth=0") == "1"
    screenshot(olga, "console-link")

    olga.goto(f"{base}/console/{org_id}/links")
    olga.click(".subnav a:has-text('Link pages')")
    olga.fill("input[name=handle]", "panaderia-sol")
    olga.fill("input[name=title]", "Panadería Sol")
    olga.click("button:has-text('New link page')")
    olga.wait_for_selector("text=Link page made")
    chat_option = olga.get_attribute("#targets option", "value")
    olga.fill("textarea[name=description]", "Pan de masa madre, todos los días desde las 7.")
    olga.check("input[name=published]")
    olga.fill("input[name=item_label] >> nth=0", "Pide por WhatsApp")
    olga.fill("input[name=item_target] >> nth=0", chat_option)
    olga.fill("input[name=item_label] >> nth=1", "Nuestro menú")
    olga.fill("input[name=item_target] >> nth=1", "https://example.com/menu")
    olga.click("button:has-text('Save')")
    olga.wait_for_selector(".phone-frame :text('Pide por WhatsApp')")
    screenshot(olga, "console-link-page")

    visitor = _browser(chromium, locale="es-ES", viewport={"width": 390, "height": 844})
    visitor.goto(f"{base}/link-pages/p/panaderia-sol")
    visitor.wait_for_selector("text=Pide por WhatsApp")
    screenshot(visitor, "link-page-phone")

    phone = _phone_at(chromium, base, f"/console/{org_id}/links")
    phone.click(".link-list a")
    phone.wait_for_selector("text=Clics por día")
    screenshot(phone, "console-link-phone")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(phone, "console-link-phone")
