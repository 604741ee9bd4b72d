"""Issue 7's walk in a real browser: `appliance serve --sandbox`, two agents signed in in two browser
contexts, a simulated customer writes in; both see it arrive live; one takes it and replies; the
customer's phone (the simulator) gets the reply; the other sees the assignment change and the reply
without reloading. Screenshots of the main screens (`make screenshots` keeps them in docs/)."""

import re

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.conftest import free_port, start_server
from tests.waiting import eventually

PASSWORD = "correct horse battery"
CUSTOMER = "5215512345678"


@pytest.fixture
def inbox_server(tmp_path, smtp):
    port = free_port()
    proc = start_server(tmp_path / "data", port, "--sandbox", env={
        "APPLIANCE_SMTP_URL": f"smtp://127.0.0.1:{smtp[1]}", "APPLIANCE_LIVE_HEARTBEAT_SECONDS": "2"})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _team(base, mailbox):
    """Olga owns the bakery's organization; Beto joins it as an agent through an invitation."""
    olga = requests.post(f"{base}/auth/signup", json={"email": "olga@sol.test", "password": PASSWORD, "name": "Olga"},
                         timeout=10).json()["data"]
    auth = {"Authorization": f"Bearer {olga['tokens']['accessToken']}"}
    org = requests.post(f"{base}/organizations", json={"name": "Panadería Sol", "slug": "panaderia-sol",
                                                       "billingEmail": "b@sol.test"}, headers=auth, timeout=10).json()["data"]
    roles = requests.get(f"{base}/organizations/{org['id']}/roles", headers=auth, timeout=10).json()["data"]
    agent_role = next(r for r in roles if r["key"] == "agent")
    invited = requests.post(f"{base}/organizations/{org['id']}/invitations",
                            json={"email": "beto@sol.test", "roleId": agent_role["id"]}, headers=auth, timeout=10)
    assert invited.status_code == 201, invited.text
    beto = requests.post(f"{base}/auth/signup", json={"email": "beto@sol.test", "password": PASSWORD, "name": "Beto"},
                         timeout=10).json()["data"]
    invitation = eventually(lambda: [m for m in mailbox.to("beto@sol.test") if "/invitations/" in m.get_content()],
                            bool)[-1]
    token = re.search(r"token=([\w-]+)", invitation.get_content()).group(1)
    accepted = requests.post(f"{base}/invitations/{token}/accept",
                             headers={"Authorization": f"Bearer {beto['tokens']['accessToken']}"}, timeout=10)
    assert accepted.status_code in (200, 201), accepted.text
    number = eventually(lambda: requests.get(f"{base}/organizations/{org['id']}/phone-numbers", headers=auth,
                                             timeout=10).json()["data"], bool)[0]
    return org, number, olga["user"]["id"]


def _signed_in_page(browser, base, email, locale="en-US", viewport=None):
    context = browser.new_context(locale=locale, viewport=viewport or {"width": 1366, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/sign-in?next=/inbox")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/inbox/**")
    return page


def test_two_agents_see_a_customer_live_one_takes_it_and_replies(inbox_server, mailbox, chromium, screenshot):
    base = inbox_server
    org, number, olga_id = _team(base, mailbox)
    olga = _signed_in_page(chromium, base, "olga@sol.test")
    beto = _signed_in_page(chromium, base, "beto@sol.test", locale="es-MX")
    olga.wait_for_selector("[data-simulate]")  # a fresh sandbox points to its simulated customer
    screenshot(olga, "inbox-empty-sandbox", full_page=False)
    assert "Sin asignar" in beto.content()  # Beto reads Spanish

    control = f"{base}/netsim/_control"
    sent = requests.post(f"{control}/inbound", json={"phoneNumberId": number["phoneNumberId"], "from": CUSTOMER,
                                                     "name": "Ana Pérez", "type": "text",
                                                     "text": {"body": "Hola, ¿tienen pan dulce hoy?"}}, timeout=10)
    assert sent.status_code == 201, sent.text
    # Both lists show her without a reload (the event stream refreshes them).
    for page in (olga, beto):
        page.wait_for_selector(".conversations a.row:has-text('Ana Pérez')", timeout=15000)
    beto.click(".conversations a.row:has-text('Ana Pérez')")
    beto.wait_for_selector("#thread .bubble.in:has-text('pan dulce')")

    olga.click(".conversations a.row:has-text('Ana Pérez')")
    olga.wait_for_selector("#thread .bubble.in:has-text('pan dulce')")
    olga.click("form[action$='/do/assign_me'] button")
    expect(olga.locator("[data-assignee]")).to_have_value(olga_id)  # (a string predicate would be eval, which the CSP forbids)
    olga.fill("[data-reply]", "¡Sí! Recién salido del horno 🥐")
    olga.press("[data-reply]", "Enter")
    olga.wait_for_selector("#thread .bubble.out:has-text('Recién salido')")

    # The customer's phone got it.
    got = eventually(lambda: requests.get(f"{control}/sent", timeout=10).json()["data"],
                     lambda items: any(m.get("text", {}).get("body", "").startswith("¡Sí!") for m in items))
    assert any(m.get("to") == CUSTOMER for m in got)
    # Beto sees the assignment and the reply arrive, without reloading.
    expect(beto.locator("[data-assignee]")).to_have_value(olga_id, timeout=15000)
    beto.wait_for_selector("#thread .bubble.out:has-text('Recién salido')", timeout=15000)
    # ...and the delivery ticks move as the simulator reports the customer read it.
    olga.wait_for_selector("#thread .bubble.out .tick-read, #thread .bubble.out .tick-delivered", timeout=15000)
    screenshot(olga, "inbox-conversation", full_page=False)
    screenshot(beto, "inbox-conversation-es", full_page=False)

    olga.fill(".panel input[name=tag_name]", "Pedido")
    olga.click(".panel form[action$='/do/tag'] button")
    olga.wait_for_selector(".panel .chip:has-text('Pedido')")
    olga.fill(".panel input[name=category]", "ventas")
    olga.fill(".panel input[name=resolution]", "vendido")
    olga.click("[data-close]")
    olga.wait_for_selector(".status-pill.status-closed")
    beto.wait_for_selector(".status-pill.status-closed", timeout=15000)

    # On a phone: the list, then the conversation alone with a way back.
    phone = _signed_in_page(chromium, base, "beto@sol.test", locale="es-MX", viewport={"width": 390, "height": 780})
    phone.click(".tabs a:has-text('Cerrados')") if phone.query_selector(".tabs a:has-text('Cerrados')") else \
        phone.goto(phone.url.split("?")[0] + "?tab=closed")
    phone.wait_for_selector(".conversations a.row:has-text('Ana Pérez')")
    screenshot(phone, "inbox-phone-list", full_page=False)
    phone.click(".conversations a.row:has-text('Ana Pérez')")
    phone.wait_for_selector(".conversation-head .back", state="visible")
    assert not phone.is_visible(".list-pane")
    screenshot(phone, "inbox-phone-conversation", full_page=False)
    # The contact panel: an icon in the header that opens a sheet over the conversation, and closes.
    assert phone.evaluate("document.querySelector('.panel-toggle svg').getBoundingClientRect().width") > 0
    phone.click(".panel-toggle")
    phone.wait_for_selector("#panel .panel-close", state="visible")
    box = phone.locator("#panel").bounding_box()
    assert box["y"] == 0 and box["height"] >= 780 - 1  # over the page, not below the composer
    screenshot(phone, "inbox-phone-panel", full_page=False)
    phone.keyboard.press("Escape")
    phone.wait_for_selector("#panel", state="hidden")
    for page in (olga, beto, phone):
        page.context.close()


def test_the_inbox_says_when_the_server_is_gone_and_comes_back(tmp_path, chromium, smtp, mailbox):
    port = free_port()
    data_dir = tmp_path / "data"
    env = {"APPLIANCE_LIVE_HEARTBEAT_SECONDS": "1", "APPLIANCE_SMTP_URL": f"smtp://127.0.0.1:{smtp[1]}"}
    proc = start_server(data_dir, port, "--sandbox", env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        _team(base, mailbox)
        page = _signed_in_page(chromium, base, "olga@sol.test")
        proc.terminate()
        proc.wait(timeout=30)
        page.wait_for_selector("#live-status:not([hidden])", timeout=15000)
        assert "Reconnecting" in page.inner_text("#live-status")
        proc = start_server(data_dir, port, "--sandbox", env=env)
        page.wait_for_selector("#live-status.ok", timeout=20000)
        assert "Connected again" in page.inner_text("#live-status")
        page.context.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
