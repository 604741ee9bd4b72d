"""Issue 43, item 7: without APPLIANCE_BASE_URL, every link the appliance writes reaches the server
where it is served. Here the server is on port 18080 (APPLIANCE_PORT) and no base URL is set: the
invitation mail, a chat link, a link page, the ICS feed, the OAuth issuer and the webhook URL the
console shows all start with http://127.0.0.1:18080, never the default port."""

import re

import pytest

from appliance.settings import SETTINGS
from tests.browser_forms import sign_in

SERVED = "http://127.0.0.1:18080"


@pytest.fixture
def settings(settings):
    """The tests' settings with APPLIANCE_BASE_URL left as it ships (unset)."""
    unset = next(s.default for s in SETTINGS if s.name == "APPLIANCE_BASE_URL")
    return settings.replace(port=18080, base_url=unset)


def test_every_link_is_written_on_the_port_served(api, client, line, mailbox):
    org_id, token = line.org_id, line.owner["token"]
    roles = api.get(f"/organizations/{org_id}/roles", token=token).json["data"]
    invited = api.post(f"/organizations/{org_id}/invitations",
                       {"email": "bo@example.com", "roleId": next(r["id"] for r in roles if r["key"] == "agent")},
                       token=token)
    assert invited.status_code == 201, invited.json
    mail = mailbox.last_to("bo@example.com").get_content()
    assert re.search(rf"{re.escape(SERVED)}/invitations/accept\?token=[\w-]+", mail), mail

    link = api.post(f"/organizations/{org_id}/chatapp-links", {"phoneNumberId": line.number["id"], "name": "Afiche"},
                    token=token).json["data"]
    assert link["url"] == f"{SERVED}/l/{link['slug']}"

    page = api.post(f"/organizations/{org_id}/link-pages", {"handle": "panaderia-sol", "title": "Panadería Sol",
                    "items": [{"label": "Chat", "chatLinkId": link["id"]}]}, token=token).json["data"]
    assert page["url"] == f"{SERVED}/link-pages/p/panaderia-sol"

    feed = api.post(f"/organizations/{org_id}/agenda/feed-token", token=token).json["data"]
    assert feed["url"].startswith(f"{SERVED}/public/agenda/")

    assert client.get("/.well-known/oauth-authorization-server").json["issuer"] == SERVED

    sign_in(client, email="owner@example.com")
    assert f"{SERVED}/webhooks/whatsapp" in client.get(f"/console/{org_id}/whatsapp").text


PUBLIC = "https://tienda.example.com"


def test_the_address_an_administrator_keeps_is_in_every_link_written_after(api, client, line, mailbox):
    """Issue 45: the public address kept by the installation's administrator (no APPLIANCE_BASE_URL)
    starts every link written from then on: nothing keeps the old one."""
    org_id, token = line.org_id, line.owner["token"]
    kept = api.put("/installation/public-address", {"baseUrl": PUBLIC + "/"}, token=token)
    assert kept.status_code == 200, kept.json
    assert kept.json["data"]["baseUrl"] == PUBLIC and kept.json["data"]["source"] == "console"

    roles = api.get(f"/organizations/{org_id}/roles", token=token).json["data"]
    assert api.post(f"/organizations/{org_id}/invitations", {"email": "bo@example.com", "roleId": next(
        r["id"] for r in roles if r["key"] == "agent")}, token=token).status_code == 201
    assert re.search(rf"{re.escape(PUBLIC)}/invitations/accept\?token=[\w-]+", mailbox.last_to("bo@example.com").get_content())
    link = api.post(f"/organizations/{org_id}/chatapp-links", {"phoneNumberId": line.number["id"], "name": "Afiche"},
                    token=token).json["data"]
    assert link["url"] == f"{PUBLIC}/l/{link['slug']}"
    feed = api.post(f"/organizations/{org_id}/agenda/feed-token", token=token).json["data"]
    assert feed["url"].startswith(f"{PUBLIC}/public/agenda/")
    assert client.get("/.well-known/oauth-authorization-server").json["issuer"] == PUBLIC
    setup = api.get(f"/organizations/{org_id}/wabas/webhook-setup", token=token).json["data"]
    assert setup["callbackUrl"] == f"{PUBLIC}/webhooks/whatsapp"
