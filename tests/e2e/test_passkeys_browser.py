"""Passkeys' "done means", in a real Chromium with its virtual authenticator (DevTools' WebAuthn
domain: a CTAP2 platform authenticator holding discoverable keys, which verifies the person): an
agent signs in with a password, adds a passkey on My account, signs out and signs in with it, with
no email typed. The server runs on its default address, http://127.0.0.1:<port>, whose relying party
is `localhost`: the browser opens http://localhost:<port>, and at 127.0.0.1 the pages say where
passkeys work instead of offering them. Screenshots for the docs."""

import re

import requests

from tests.e2e.conftest import PASSWORD

AGENT = {"email": "lucia@sol.test", "password": PASSWORD, "name": "Lucía"}
ACCOUNT = re.compile(r"^http://localhost:\d+/console/account(\?.*)?$")


def _with_virtual_authenticator(page) -> tuple:
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable", {"enableUI": False})
    added = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return devtools, added["authenticatorId"]


def test_an_agent_registers_a_passkey_and_signs_in_with_it(appliance, chromium, screenshot):
    port = appliance.base_url.rsplit(":", 1)[1]
    local = f"http://localhost:{port}"
    signed_up = requests.post(f"{appliance.base_url}/auth/signup", json=AGENT, timeout=10)
    assert signed_up.status_code == 201, signed_up.text

    page = chromium.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    # At the loopback address the browser would refuse a ceremony: the page says where they work.
    page.goto(f"{appliance.base_url}/sign-in")
    assert page.locator("#passkey-sign-in").count() == 0
    assert page.get_attribute("#passkeys-hidden a", "href") == f"{local}/sign-in?next=/"

    devtools, authenticator = _with_virtual_authenticator(page)
    page.goto(f"{local}/sign-in?next=/console/account")
    page.fill("input[name=email]", AGENT["email"])
    page.fill("input[name=password]", PASSWORD)
    page.click("form[action^='/sign-in?'] button[type=submit]")
    page.wait_for_url(ACCOUNT)
    page.wait_for_selector("text=No passkeys yet")
    page.fill("#passkey-name", "Work laptop")
    page.click("#add-passkey")
    page.wait_for_selector("text=Passkey added.")
    row = page.locator("#passkeys .passkey-list li")
    assert row.count() == 1 and "Work laptop" in row.inner_text() and "Checks it is you" in row.inner_text()
    assert "Not used yet" in row.inner_text()
    held = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(held) == 1 and held[0]["isResidentCredential"] and held[0]["rpId"] == "localhost"
    page.locator("#passkeys").scroll_into_view_if_needed()
    screenshot(page, "passkeys-account")

    # Signed out, the sign-in page's button signs in with it. (Chromium's virtual authenticator answers a
    # conditional request at once, as a person picking the passkey in the email field would: this page
    # plays a browser without that, so the button is what signs in.)
    page.add_init_script("PublicKeyCredential.isConditionalMediationAvailable = async () => false")
    page.click("form[action='/sign-out'] button")
    page.wait_for_url("**/sign-in**")
    page.goto(f"{local}/sign-in?next=/console/account")
    page.wait_for_selector("#passkey-sign-in:visible")
    screenshot(page, "passkeys-sign-in")
    page.click("#passkey-sign-in")
    page.wait_for_url(ACCOUNT)
    assert "Not used yet" not in page.locator("#passkeys .passkey-list li").inner_text()
    assert page.locator("text=this one").count() == 1

    # Another browser holding the same passkey: the email field offers it (conditional mediation), and
    # picking it signs in with no email typed.
    other = chromium.new_context(locale="es-ES", viewport={"width": 390, "height": 844}).new_page()
    other_devtools, other_authenticator = _with_virtual_authenticator(other)
    # (as it is now: the first browser's sign-in counted a use, and a copy that counts from before is refused)
    now_held = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"][0]
    other_devtools.send("WebAuthn.addCredential", {"authenticatorId": other_authenticator, "credential": now_held})
    other.goto(f"{local}/sign-in?next=/console/account")
    other.wait_for_url(ACCOUNT)
    assert other.locator("#passkeys .passkey-list li").count() == 1

    # On a phone (in Spanish) the section fits the screen.
    assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    other.locator("#passkeys").scroll_into_view_if_needed()
    screenshot(other, "passkeys-account-phone", full_page=False)
