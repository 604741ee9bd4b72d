"""Issue 45's pages as a new owner uses them in a real browser on a real server that is not live
yet: the WhatsApp checklist shows the callback URL and the verify token (and why Meta cannot reach a
loopback address), ticks by itself when Meta verifies with that token, and the Go live page takes
the public address, after which every link (the callback URL) starts with it. Screenshots for the docs."""

import urllib.request
from urllib.parse import urlencode

from tests.e2e.test_console_browser import _browser, _first_run, _phone_at
from tests.e2e.conftest import go_to


def test_a_new_owner_gets_meta_verified_then_sets_the_public_address(appliance, chromium, screenshot):
    base = appliance.base_url
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    org_id = olga.url.split("/console/")[1].split("/")[0]

    olga.wait_for_selector("#step-webhook")
    assert olga.inner_text("#webhook-url") == f"{base}/webhooks/whatsapp"
    assert "Customers cannot open the callback URL yet" in olga.inner_text("#step-webhook")
    token = olga.inner_text("#verify-token")
    olga.wait_for_selector("[data-step-state=waiting]")

    # Meta's dashboard checks the callback at once, before any account is connected.
    query = urlencode({"hub.mode": "subscribe", "hub.verify_token": token, "hub.challenge": "987654"})
    with urllib.request.urlopen(f"{base}/webhooks/whatsapp?{query}", timeout=10) as answer:
        assert answer.status == 200 and answer.read() == b"987654"
    olga.wait_for_selector("[data-step-state=verified]", timeout=15000)  # no reload: the page re-reads itself
    screenshot(olga, "console-whatsapp-checklist")
    olga.reload()
    assert olga.inner_text("#verify-token") == token  # the same token on every load

    go_to(olga, 'Go live')
    olga.wait_for_selector("text=an address only this computer opens")
    olga.fill("input[name=base_url]", "https://chat.panaderia-sol.test/")
    olga.click("button:has-text('Save the address')")
    olga.wait_for_selector("text=The public address is saved")
    olga.wait_for_selector("text=Nothing keeps customers, Meta or browsers from using it.")
    screenshot(olga, "console-go-live")

    olga.goto(f"{base}/console/{org_id}/whatsapp")
    assert olga.inner_text("#webhook-url") == "https://chat.panaderia-sol.test/webhooks/whatsapp"
    assert "Customers cannot open" not in olga.inner_text("#step-webhook")

    go_to(olga, 'Status')
    olga.wait_for_selector("progress.disk-bar")
    screenshot(olga, "console-status")

    phone = _phone_at(chromium, base, "/console/go-live")
    phone.wait_for_selector("main h1:has-text('Salir en vivo')")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing off-screen
    screenshot(phone, "console-go-live-phone")
    phone.goto(f"{base}/console/status")
    phone.wait_for_selector("text=Almacenamiento")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(phone, "console-status-phone")
