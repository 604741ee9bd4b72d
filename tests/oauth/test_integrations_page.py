"""The person's side of OAuth in the browser: the integrations page, and consent for a signed-in browser."""

import re
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.browser_forms import csrf_of, sign_in
from tests.oauth.conftest import Flow, register


def test_integrations_page_lists_and_revokes_what_the_person_approved(client, api, owner):
    client_id, _ = register()
    flow = Flow(client, client_id)
    pair = flow.exchange(flow.code(owner["org"]["id"])).json  # signing in there signed the browser in
    page = client.get("/settings/integrations")
    assert page.status_code == 200 and "Helper" in page.text and "Acme" in page.text
    assert page.headers["X-Frame-Options"] == "DENY"
    authorization_id = re.search(r'data-authorization-id="([^"]+)"', page.text).group(1)
    foreign = client.post("/settings/integrations/not-mine/revoke", data={"csrf": csrf_of(page)})
    assert foreign.status_code == 404
    revoked = client.post(f"/settings/integrations/{authorization_id}/revoke", data={"csrf": csrf_of(page)})
    assert revoked.status_code == 302
    after = client.get(revoked.headers["Location"])
    assert "Access revoked" in after.text and "data-authorization-id" not in after.text
    org_path = f"/organizations/{owner['org']['id']}"
    assert client.get(org_path, headers={"Authorization": f"Bearer {pair['access_token']}"}).status_code == 401
    assert flow.refresh(pair["refresh_token"]).json["error"] == "invalid_grant"


def test_a_signed_in_browser_goes_straight_to_consent_and_prompt_none_needs_no_screen(client, api, owner):
    sign_in(client, email="owner@example.com")
    flow = Flow(client, register()[0])
    consent = client.get(f"/oauth/authorize?{urlencode(flow.params())}")
    assert consent.status_code == 200 and 'name="ticket"' in consent.text and "owner@example.com" in consent.text
    approved = flow.consent(flow.params(), consent, owner["org"]["id"])
    assert approved.status_code == 302
    silent = client.get(f"/oauth/authorize?{urlencode(flow.params(prompt='none'))}")
    assert silent.status_code == 302
    assert "code" in parse_qs(urlsplit(silent.headers["Location"]).query)
