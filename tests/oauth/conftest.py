import base64
import re
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from appliance.core import runtime
from appliance.oauth import service as oauth_service

REDIRECT = "http://127.0.0.1:8765/callback"


def register(*, public=True, scopes=("organizations:read", "roles:read", "api-keys:read"), redirect=REDIRECT):
    with runtime.get().db.unit_of_work(write=True) as session:
        registered = oauth_service.do_register_client(session, name="Helper", redirect_uris=[redirect],
                                                      scopes=list(scopes), public=public)
        return registered.client.client_id, registered.secret


def pkce() -> tuple[str, str]:
    from authlib.oauth2.rfc7636 import create_s256_code_challenge
    verifier = secrets.token_urlsafe(48)
    return verifier, create_s256_code_challenge(verifier)


class Flow:
    """A third-party application and the person in front of the browser, over the test client."""

    def __init__(self, client, client_id, secret=None, scope="organizations:read roles:read"):
        self.client, self.client_id, self.secret, self.scope = client, client_id, secret, scope
        self.verifier, self.challenge = pkce()

    def params(self, **extra):
        params = {"response_type": "code", "client_id": self.client_id, "redirect_uri": REDIRECT,
                  "scope": self.scope, "state": "s-123", "code_challenge": self.challenge,
                  "code_challenge_method": "S256", **extra}
        return {k: v for k, v in params.items() if v is not None}

    def sign_in(self, params, email="owner@example.com", password="correct horse battery"):
        query = urlencode(params)
        return self.client.post(f"/oauth/authorize?{query}", data={"step": "signin", "email": email,
                                                                    "password": password})

    def consent(self, params, signed_in, organization_id, decision="approve"):
        ticket = re.search(r'name="ticket" value="([^"]+)"', signed_in.text).group(1)
        return self.client.post(f"/oauth/authorize?{urlencode(params)}", data={
            "step": "consent", "ticket": ticket, "organization_id": organization_id, "decision": decision})

    def code(self, organization_id, **extra) -> str:
        params = self.params(**extra)
        answer = self.consent(params, self.sign_in(params), organization_id)
        assert answer.status_code == 302, answer.text
        query = parse_qs(urlsplit(answer.headers["Location"]).query)
        assert query["state"] == ["s-123"]
        return query["code"][0]

    def token(self, **form):
        headers = {}
        if self.secret:
            basic = base64.b64encode(f"{self.client_id}:{self.secret}".encode()).decode()
            headers["Authorization"] = f"Basic {basic}"
        else:
            form.setdefault("client_id", self.client_id)
        return self.client.post("/oauth/token", data=form, headers=headers)

    def exchange(self, code, verifier=None, redirect_uri=REDIRECT):
        return self.token(grant_type="authorization_code", code=code, redirect_uri=redirect_uri,
                          code_verifier=verifier or self.verifier)

    def refresh(self, refresh_token):
        return self.token(grant_type="refresh_token", refresh_token=refresh_token)


@pytest.fixture
def flow(client):
    client_id, _ = register()
    return Flow(client, client_id)
