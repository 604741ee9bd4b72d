"""Issue 4, tried as a new third-party developer would: register a public CLI client, run the
browser flow with PKCE through authlib's own OAuth2Session (an independent client library) and a
real Chromium, call an organization route with the token, refresh it, revoke it from the
integrations page, and watch the next call fail."""

from __future__ import annotations

import threading

import pytest
import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session

from tests.fixtures.local_server import QuietHandler, serving

PASSWORD = "correct horse battery"


class _Callback(QuietHandler):
    """The CLI application's loopback redirect URI: remembers where the browser came back to."""

    received: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.received.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"Signed in. You can close this window.")


@pytest.fixture
def callback_server():
    _Callback.received = []
    with serving(_Callback) as server:
        yield f"{server.url}/callback"


def test_a_cli_application_signs_in_refreshes_and_is_revoked(appliance, chromium, callback_server, screenshot):
    base = appliance.base_url
    signup = requests.post(f"{base}/auth/signup", json={"email": "owner@example.com", "password": PASSWORD,
                                                        "name": "Olga"}, timeout=10).json()["data"]
    bearer = {"Authorization": f"Bearer {signup['tokens']['accessToken']}"}
    org = requests.post(f"{base}/organizations", json={"name": "Acme", "slug": "acme", "billingEmail": "b@acme.test"},
                        headers=bearer, timeout=10).json()["data"]

    registered = appliance.cli("oauth", "register", "--name", "Acme CLI", "--redirect-uri", callback_server,
                               "--scope", "organizations:read roles:read", "--public")
    assert "client_secret" not in registered

    # The developer's side: authlib's client, PKCE S256, no secret (a public client).
    oauth = OAuth2Session(registered["client_id"], scope="organizations:read roles:read",
                          redirect_uri=callback_server, code_challenge_method="S256",
                          token_endpoint_auth_method="none")
    verifier = generate_token(64)
    authorize_url, state = oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier=verifier)

    # The person's side: a real browser signs in and approves.
    context = chromium.new_context(locale="en-US")
    page = context.new_page()
    page.goto(authorize_url)
    assert "Acme CLI" in page.inner_text("main")
    screenshot(page, "oauth-sign-in")
    page.fill("input[name=email]", "owner@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Approve")
    assert page.is_checked(f"input[value='{org['id']}']")
    screenshot(page, "oauth-consent")
    with page.expect_navigation(url=f"{callback_server}?*"):
        page.click("button[value=approve]")
    assert "You can close this window" in page.inner_text("body")
    back = [path for path in _Callback.received if path.startswith("/callback?")]  # not /favicon.ico
    assert len(back) == 1
    callback_url = f"http://127.0.0.1{back[0]}"

    token = oauth.fetch_token(f"{base}/oauth/token", authorization_response=callback_url, state=state,
                              code_verifier=verifier)
    assert token["token_type"].lower() == "bearer" and token["scope"] == "organizations:read roles:read"
    org_url = f"{base}/organizations/{org['id']}"
    assert oauth.get(org_url, timeout=10).json()["data"]["slug"] == "acme"

    refreshed = oauth.refresh_token(f"{base}/oauth/token")
    assert refreshed["access_token"] != token["access_token"]
    assert oauth.get(f"{org_url}/roles", timeout=10).status_code == 200

    # Revoked from the integrations page: the browser is still signed in from the consent.
    page.goto(f"{base}/settings/integrations")
    assert "Acme CLI" in page.inner_text("main")
    screenshot(page, "integrations")
    page.click("button.danger")
    page.wait_for_selector("text=Access revoked")
    screenshot(page, "integrations-revoked")
    context.close()

    after = oauth.get(org_url, timeout=10)
    assert after.status_code == 401
    with pytest.raises(OAuthError) as refused:
        oauth.refresh_token(f"{base}/oauth/token")
    assert refused.value.error == "invalid_grant"


def test_two_simultaneous_refreshes_each_get_a_valid_pair(appliance):
    """Two tabs of one application refresh with the same token at the same moment, against the
    real server (waitress threads, SQLite's write lock): both get a working pair, nothing is revoked."""
    import re
    from concurrent.futures import ThreadPoolExecutor
    from urllib.parse import parse_qs, urlsplit

    base = appliance.base_url
    signup = requests.post(f"{base}/auth/signup", json={"email": "owner@example.com", "password": PASSWORD,
                                                        "name": "Olga"}, timeout=10).json()["data"]
    org = requests.post(f"{base}/organizations", json={"name": "Acme", "slug": "acme", "billingEmail": "b@acme.test"},
                        headers={"Authorization": f"Bearer {signup['tokens']['accessToken']}"}, timeout=10).json()["data"]
    redirect_uri = "http://127.0.0.1:9/callback"
    registered = appliance.cli("oauth", "register", "--name", "Tabs", "--redirect-uri", redirect_uri,
                               "--scope", "organizations:read", "--public")
    oauth = OAuth2Session(registered["client_id"], scope="organizations:read", redirect_uri=redirect_uri,
                          code_challenge_method="S256", token_endpoint_auth_method="none")
    verifier = generate_token(64)
    url, _ = oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier=verifier)
    person = requests.Session()  # the authorize page is plain HTML forms
    consent = person.post(url, data={"step": "signin", "email": "owner@example.com", "password": PASSWORD}, timeout=10)
    ticket = re.search(r'name="ticket" value="([^"]+)"', consent.text).group(1)
    back = person.post(url, data={"step": "consent", "ticket": ticket, "organization_id": org["id"],
                                  "decision": "approve"}, allow_redirects=False, timeout=10)
    code = parse_qs(urlsplit(back.headers["Location"]).query)["code"][0]
    token = oauth.fetch_token(f"{base}/oauth/token", code=code, code_verifier=verifier)

    barrier = threading.Barrier(2)

    def refresh(_):
        barrier.wait()
        return requests.post(f"{base}/oauth/token", data={"grant_type": "refresh_token", "client_id": registered["client_id"],
                                                          "refresh_token": token["refresh_token"]}, timeout=10)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(refresh, range(2)))
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    pairs = [a.json() for a in answers]
    assert pairs[0]["access_token"] != pairs[1]["access_token"]
    for pair in pairs:
        answer = requests.get(f"{base}/organizations/{org['id']}", headers={"Authorization": f"Bearer {pair['access_token']}"},
                              timeout=10)
        assert answer.status_code == 200
