"""Issue 45: the Go live page (the installation's administrators), the WhatsApp page as a checklist
with the organization's stable verify token, and the warning beside links nobody outside can open."""

import html
import re

import pytest

from appliance.settings import SETTINGS
from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.fixtures import engines


@pytest.fixture
def settings(settings):
    """As it ships: no APPLIANCE_BASE_URL, so links start at http://127.0.0.1:8080."""
    unset = next(s.default for s in SETTINGS if s.name == "APPLIANCE_BASE_URL")
    return settings.replace(base_url=unset)


def _save(client, address):
    return client.post("/console/go-live", data={"csrf": csrf_of(client.get("/console/go-live")), "base_url": address})


def test_the_administrator_sees_why_nobody_reaches_the_default_then_keeps_an_address(client, owner):
    sign_in(client, email="owner@example.com")
    page = client.get("/console/go-live").text
    assert "http://127.0.0.1:8080" in page and "an address only this computer opens" in page
    assert "is not https" in page and 'href="/console/go-live"' in page  # in the navigation

    refused = _save(client, "https://chat.example.com/app")
    assert refused.status_code == 400 and 'id="error-baseUrl"' in refused.text
    assert 'value="https://chat.example.com/app"' in refused.text  # what was typed stays

    saved = _save(client, "https://1.2.3.4")
    assert saved.status_code == 302 and saved.headers["Location"].endswith("done=public_address_saved#done")
    page = client.get("/console/go-live").text
    assert "Links start with <code class=\"break\">https://1.2.3.4</code>" in page
    assert "Nothing keeps customers, Meta or browsers from using it." in page


def test_only_an_administrator_of_the_installation_opens_it(client, api, owner):
    factories.add_member(api, owner["org"]["id"], "admin", "bo@example.com")
    sign_in(client, email="bo@example.com")
    assert client.get("/console/go-live").status_code == 403
    whatsapp = client.get(f"/console/{owner['org']['id']}/whatsapp")
    assert 'href="/console/go-live"' not in whatsapp.text
    assert client.post("/console/go-live", data={"csrf": csrf_of(whatsapp), "base_url": "https://1.2.3.4"}).status_code == 403
    assert "Ask the installation's administrator to set its public address" in html.unescape(whatsapp.text)


def test_the_whatsapp_checklist_shows_one_token_and_ticks_when_meta_verifies(client, owner):
    sign_in(client, email="owner@example.com")
    path = f"/console/{owner['org']['id']}/whatsapp"
    first = client.get(path).text
    token = html.unescape(re.search(r'<code id="verify-token" class="break">([^<]+)</code>', first).group(1))
    assert token in client.get(path).text  # the same on every load: what was pasted into Meta stays good
    assert "Waiting for Meta to verify it" in first and 'data-live-every="5"' in first
    assert "Customers cannot open the callback URL yet" in first  # loopback, not https

    verified = client.get("/webhooks/whatsapp", query_string={"hub.mode": "subscribe", "hub.verify_token": token,
                                                              "hub.challenge": "42"})
    assert verified.status_code == 200 and verified.text == "42"
    page = client.get(path).text
    assert "✓ Meta verified it" in page and 'data-step-state="verified"' in page


def test_a_qr_code_nobody_outside_can_open_is_never_shown_without_the_warning(client, line):
    sign_in(client, email="owner@example.com")
    org_id = line.org_id
    link = line.api.post(f"/organizations/{org_id}/chatapp-links", {"phoneNumberId": line.number["id"], "name": "Afiche"},
                         token=line.owner["token"]).json["data"]
    page = client.get(f"/console/{org_id}/links/{link['id']}").text
    assert "Customers cannot open this QR code and link yet" in page and "only this computer opens" in page
    assert 'class="qr"' in page

    assert _save(client, "https://1.2.3.4").status_code == 302
    page = client.get(f"/console/{org_id}/links/{link['id']}").text
    assert 'class="qr"' in page and "Customers cannot open" not in page


def test_the_checklist_sends_a_test_message_to_the_owners_own_phone(client, line):
    import requests

    sign_in(client, email="owner@example.com")
    path = f"/console/{line.org_id}/whatsapp"
    waba, token = line.account["wabaId"], line.account["accessToken"]
    netsim = line.netsim_url

    def send(to):
        page = client.get(path)
        number = re.search(r'name="phone_number_id" value="([^"]+)"', page.text).group(1)
        return client.post(f"{path}/test-message", data={"csrf": csrf_of(page), "phone_number_id": number, "to": to})

    missing = send("+57 300 555 0199")  # the account has no hello_world template on the network yet
    assert missing.status_code == 400 and "132001" in missing.text
    bad = send("call me")
    assert bad.status_code == 400 and 'id="error-to"' in bad.text

    made = requests.post(f"{netsim}/v23.0/{waba}/message_templates", headers={"Authorization": f"Bearer {token}"},
                         json={"name": "hello_world", "category": "UTILITY", "language": "en_US",
                               "components": [{"type": "BODY", "text": "Hello World"}]}, timeout=5)
    assert made.status_code == 200, made.text
    requests.post(f"{netsim}/_control/templates/{waba}/status",
                  json={"name": "hello_world", "language": "en_US", "status": "APPROVED"}, timeout=5).raise_for_status()
    sent = send("+57 300 555 0199")
    assert sent.status_code == 302 and sent.headers["Location"].endswith("done=test_sent#done")
    on_network = requests.get(f"{netsim}/_control/sent", params={"phoneNumberId": line.number["phoneNumberId"]},
                              timeout=5).json()["data"]
    assert [(m["to"], m["type"]) for m in on_network][-1:] == [("573005550199", "template")]


def test_the_status_page_says_the_installation_at_a_glance_to_its_administrators(client, api, owner):
    sign_in(client, email="owner@example.com")
    page = client.get("/console/status")
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert "Version" in text and re.search(r"\d+ waiting, \d+ failed since the start", text) and "free of" in text
    assert 'class="disk-bar"' in text and 'data-live-every="15"' in text
    assert "only this computer opens" in text  # the default public address, said in words
    if engines.ON_POSTGRES:  # its backups are PostgreSQL's own (backups/service.py), not "never" made
        assert "The database's backups are PostgreSQL's" in text and "Last backup" not in text
    else:
        assert "Last backup: Never" in text
    factories.add_member(api, owner["org"]["id"], "admin", "bo@example.com")
    client.post("/sign-out", data={"csrf": csrf_of(client.get("/console/status"))})
    sign_in(client, email="bo@example.com")
    assert client.get("/console/status").status_code == 403
