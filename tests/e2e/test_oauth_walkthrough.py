"""Issue 4, tried as a new third-party developer would: register a public CLI client, run the
browser flow with PKCE through authlib's own OAuth2Session (an independent client library) and a
real Chromium, call an organization route with the token, refresh it, revoke it from the
integrations page, and watch the next call fail."""

from __future__ import annotations

import http.server
import threading

import pytest
import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session

from tests.e2e.conftest import free_port

PASSWORD = "correct horse battery"


class _Callback(http.server.BaseHTTPRequestHandler):
    """The CLI application's loopback redirect URI: remembers where the browser came back to."""

    received: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.received.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"Signed in. You can close this window.")

    def log_message(self, *args):
        pass


@pytest.fixture
def callback_server():
    server = http.server.HTTPServer(("127.0.0.1", free_port()), _Callback)
    _Callback.received = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/callback"
    server.shutdown()


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
