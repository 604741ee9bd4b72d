"""The authorization-code flow with PKCE, end to end through the authorize page and the token endpoint."""

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from appliance.core import clock
from tests.oauth.conftest import REDIRECT, Flow, register
from tests.problems import assert_problem


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_full_flow_then_refresh_then_revoke(client, api, owner, flow):
    org_id = owner["org"]["id"]
    page = client.get("/oauth/authorize?" + urlencode(flow.params()))
    assert page.status_code == 200 and "Helper" in page.text and page.headers["X-Frame-Options"] == "DENY"
    tokens = flow.exchange(flow.code(org_id))
    assert tokens.status_code == 200, tokens.json
    body = tokens.json
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["scope"] == "organizations:read roles:read"
    assert body["access_token"].startswith("mo_at_") and body["refresh_token"].startswith("mo_rt_")
    assert tokens.headers["Cache-Control"] == "no-store"

    assert client.get(f"/organizations/{org_id}", headers=_bearer(body["access_token"])).status_code == 200
    assert client.get(f"/organizations/{org_id}/roles", headers=_bearer(body["access_token"])).status_code == 200
    # Out of scope: 403; routes about persons refuse OAuth tokens.
    denied = client.get(f"/organizations/{org_id}/api-keys", headers=_bearer(body["access_token"]))
    assert_problem(denied, 403, "scope_missing")
    assert client.get("/users/me", headers=_bearer(body["access_token"])).json["code"] == "oauth_token_not_allowed"
    info = client.get("/oauth/userinfo", headers=_bearer(body["access_token"]))
    assert info.json["org_id"] == org_id and info.json["email"] == "owner@example.com"

    renewed = flow.refresh(body["refresh_token"])
    assert renewed.status_code == 200 and renewed.json["access_token"] != body["access_token"]
    revoked = client.post("/oauth/revoke", data={"token": renewed.json["refresh_token"], "client_id": flow.client_id})
    assert revoked.status_code == 200
    # A refresh token cuts the whole chain: both pairs are dead.
    for access in (body["access_token"], renewed.json["access_token"]):
        assert client.get(f"/organizations/{org_id}", headers=_bearer(access)).status_code == 401
    assert flow.refresh(renewed.json["refresh_token"]).json["error"] == "invalid_grant"


def test_deny_sends_access_denied_with_state(client, owner, flow):
    params = flow.params()
    answer = flow.consent(params, flow.sign_in(params), owner["org"]["id"], decision="deny")
    query = parse_qs(urlsplit(answer.headers["Location"]).query)
    assert answer.status_code == 302 and query["error"] == ["access_denied"] and query["state"] == ["s-123"]


def test_unknown_client_or_redirect_is_a_page_never_a_redirect(client, flow):
    for params in (flow.params(client_id="mc_nobody"), flow.params(redirect_uri="http://127.0.0.1:8765/other"),
                   flow.params(redirect_uri=REDIRECT + "/")):
        answer = client.get("/oauth/authorize?" + urlencode(params))
        assert answer.status_code == 400 and "Location" not in answer.headers


def test_pkce_is_s256_and_mandatory(client, flow):
    for extra in ({"code_challenge_method": "plain"}, {"code_challenge": None, "code_challenge_method": None},
                  {"code_challenge_method": None}):
        answer = client.get("/oauth/authorize?" + urlencode(flow.params(**extra)))
        assert answer.status_code == 302, extra
        assert parse_qs(urlsplit(answer.headers["Location"]).query)["error"] == ["invalid_request"], extra


def test_scope_and_response_type_errors_go_back_to_the_application(client, flow):
    for extra, error in (({"scope": "organizations:read billing:write"}, "invalid_scope"),
                         ({"scope": "made:up"}, "invalid_scope"),
                         ({"response_type": "token"}, "unsupported_response_type")):
        answer = client.get("/oauth/authorize?" + urlencode(flow.params(**extra)))
        query = parse_qs(urlsplit(answer.headers["Location"]).query)
        assert query["error"] == [error] and query["error_description"][0], extra


def _described(answer, error):
    """An OAuth error answer: always `error` and a non-empty `error_description`."""
    assert answer.json["error"] == error, answer.json
    assert isinstance(answer.json.get("error_description"), str) and answer.json["error_description"], answer.json
    return answer


def test_token_endpoint_errors(client, owner, flow):
    code = flow.code(owner["org"]["id"])
    _described(flow.exchange(code, redirect_uri=REDIRECT + "?x=1"), "invalid_grant")
    wrong = _described(flow.exchange(code, verifier="x" * 50), "invalid_grant")
    assert wrong.status_code == 400
    _described(flow.token(grant_type="authorization_code", code=code, redirect_uri=REDIRECT), "invalid_request")
    _described(flow.token(grant_type="password", username="a", password="b"), "unsupported_grant_type")
    unknown = client.post("/oauth/token", data={"grant_type": "authorization_code", "code": code,
                                                "client_id": "mc_nobody"})
    assert _described(unknown, "invalid_client").status_code == 401
    _described(client.post("/oauth/token", data={}), "unsupported_grant_type")
    _described(client.post("/oauth/revoke", data={"token": "x", "client_id": "mc_nobody"}), "invalid_client")
    assert flow.exchange(code).status_code == 200  # the failed attempts spent nothing


ENDPOINTS = ("/oauth/token", "/oauth/revoke", "/oauth/introspect", "/oauth/userinfo", "/oauth/authorize",
             "/.well-known/oauth-authorization-server")
BODIES = {"none": {}, "json": {"json": {"grant_type": "authorization_code"}},
          "form": {"data": {"grant_type": "authorization_code"}},
          "broken json": {"data": "{nope", "content_type": "application/json"},
          "xml": {"data": "<grant/>", "content_type": "text/xml"}}


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_a_method_an_oauth_endpoint_does_not_take_is_405_whatever_the_body(client, method, body):
    for path in ENDPOINTS:
        answer = client.open(path, method=method, **BODIES[body])
        assert answer.status_code == 405, (path, answer.status_code, answer.get_data(as_text=True)[:200])
        assert "POST" in answer.headers["Allow"] or "GET" in answer.headers["Allow"]


def test_code_replay_with_the_right_verifier_revokes_what_it_issued(client, owner, flow):
    org_id = owner["org"]["id"]
    code = flow.code(org_id)
    first = flow.exchange(code).json
    clock.advance(30)
    wrong = flow.exchange(code, verifier="y" * 50)
    assert wrong.json["error"] == "invalid_grant"
    assert client.get(f"/organizations/{org_id}", headers=_bearer(first["access_token"])).status_code == 200
    replay = flow.exchange(code)
    assert replay.status_code == 400 and replay.json["error"] == "invalid_grant"
    assert client.get(f"/organizations/{org_id}", headers=_bearer(first["access_token"])).status_code == 401
    assert flow.refresh(first["refresh_token"]).json["error"] == "invalid_grant"


def test_refresh_rotation_window_and_reuse(client, owner, flow):
    org_id = owner["org"]["id"]
    first = flow.exchange(flow.code(org_id)).json
    a = flow.refresh(first["refresh_token"]).json
    b = flow.refresh(first["refresh_token"]).json  # a second tab, within 60 seconds: its own valid pair
    assert a["access_token"] != b["access_token"]
    for pair in (a, b):
        assert client.get(f"/organizations/{org_id}", headers=_bearer(pair["access_token"])).status_code == 200
    clock.advance(61)
    reuse = flow.refresh(first["refresh_token"])
    assert reuse.status_code == 400 and reuse.json["error"] == "invalid_grant"
    # The whole authorization is gone: every token of it, and its refresh tokens.
    assert client.get(f"/organizations/{org_id}", headers=_bearer(a["access_token"])).status_code == 401
    assert flow.refresh(b["refresh_token"]).json["error"] == "invalid_grant"


def test_tokens_expire(client, owner, flow):
    org_id = owner["org"]["id"]
    pair = flow.exchange(flow.code(org_id)).json
    clock.advance(3601)
    assert client.get(f"/organizations/{org_id}", headers=_bearer(pair["access_token"])).status_code == 401
    assert flow.refresh(pair["refresh_token"]).status_code == 200
    clock.advance(30 * 86400)
    assert flow.refresh(pair["refresh_token"]).json["error"] == "invalid_grant"


def test_suspended_between_authorize_and_token_is_unauthorized_client(client, owner, flow):
    from appliance.core import runtime
    from appliance.oauth import service
    code = flow.code(owner["org"]["id"])
    with runtime.get().db.unit_of_work(write=True) as session:
        service.do_set_client_suspended(session, client_id=flow.client_id, suspended=True)
    answer = flow.exchange(code)
    assert answer.status_code == 400 and answer.json["error"] == "unauthorized_client"
    assert client.get("/oauth/authorize?" + urlencode(flow.params())).status_code == 400


def test_introspection_only_for_the_owning_confidential_client(client, owner):
    org_id = owner["org"]["id"]
    owner_id, owner_secret = register(public=False)
    other_id, other_secret = register(public=False)
    app_flow = Flow(client, owner_id, owner_secret)
    pair = app_flow.exchange(app_flow.code(org_id)).json
    answer = client.post("/oauth/introspect", data={"token": pair["access_token"]},
                         headers=_basic(owner_id, owner_secret))
    assert answer.json["active"] is True and answer.json["org_id"] == org_id
    assert answer.json["scope"] == "organizations:read roles:read" and answer.json["client_id"] == owner_id
    foreign = client.post("/oauth/introspect", data={"token": pair["access_token"]},
                          headers=_basic(other_id, other_secret))
    assert foreign.status_code == 200 and foreign.json == {"active": False}
    public_id, _ = register()
    public = client.post("/oauth/introspect", data={"token": pair["access_token"], "client_id": public_id})
    assert public.status_code == 401 and public.json["error"] == "invalid_client"
    wrong_secret = client.post("/oauth/introspect", data={"token": "x"}, headers=_basic(owner_id, "nope"))
    assert wrong_secret.status_code == 401


def _basic(client_id, secret):
    import base64
    return {"Authorization": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


def test_prompt_none_skips_consent_only_with_exactly_one_prior_organization(client, api, owner, flow):
    org_id = owner["org"]["id"]
    flow.exchange(flow.code(org_id))
    params = flow.params(prompt="none")
    skipped = flow.sign_in(params)
    assert skipped.status_code == 302 and "code=" in skipped.headers["Location"]
    second = api.post("/organizations", {"name": "Beta", "slug": "beta", "billingEmail": "b@beta.test"},
                      token=owner["token"]).json["data"]
    flow.exchange(flow.code(second["id"]))
    shown = flow.sign_in(params)  # two organizations authorized it: the screen appears
    assert shown.status_code == 200 and 'name="ticket"' in shown.text


def test_demotion_cuts_the_scope_at_once(client, api, owner):
    from tests.factories import add_member
    org_id = owner["org"]["id"]
    add_member(api, org_id, "admin", "ada@example.com")
    client_id, _ = register()
    flow = Flow(client, client_id)
    params = flow.params()
    signed_in = flow.sign_in(params, email="ada@example.com")
    answer = flow.consent(params, signed_in, org_id)
    code = parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]
    pair = flow.exchange(code).json
    assert client.get(f"/organizations/{org_id}/roles", headers=_bearer(pair["access_token"])).status_code == 200
    members = api.get(f"/organizations/{org_id}/memberships", token=owner["token"]).json["data"]
    ada = next(m for m in members if m["email"] == "ada@example.com")
    roles = api.get(f"/organizations/{org_id}/roles", token=owner["token"]).json["data"]
    agent = next(r for r in roles if r["key"] == "agent")
    assert api.patch(f"/organizations/{org_id}/memberships/{ada['id']}", {"roleId": agent["id"]},
                     token=owner["token"]).status_code == 200
    demoted = client.get(f"/organizations/{org_id}/roles", headers=_bearer(pair["access_token"]))
    assert demoted.status_code == 403


def test_person_revokes_from_their_authorizations(client, api, owner, flow):
    org_id = owner["org"]["id"]
    pair = flow.exchange(flow.code(org_id)).json
    listed = api.get("/users/me/authorizations", token=owner["token"]).json["data"]
    assert len(listed) == 1 and listed[0]["applicationName"] == "Helper" and listed[0]["organizationId"] == org_id
    assert api.delete(f"/users/me/authorizations/{listed[0]['id']}", token=owner["token"]).status_code == 204
    assert client.get(f"/organizations/{org_id}", headers=_bearer(pair["access_token"])).status_code == 401
    assert flow.refresh(pair["refresh_token"]).json["error"] == "invalid_grant"
    assert api.get("/users/me/authorizations", token=owner["token"]).json["data"] == []
    # Someone else's authorization is not found for me.
    other = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    assert api.delete(f"/users/me/authorizations/{listed[0]['id']}", token=other).status_code == 404


def test_discovery_document(client):
    doc = client.get("/.well-known/oauth-authorization-server").json
    assert doc["issuer"] and doc["token_endpoint"].endswith("/oauth/token")
    assert doc["code_challenge_methods_supported"] == ["S256"]
    assert doc["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert doc["response_types_supported"] == ["code"] and "organizations:read" in doc["scopes_supported"]
    for key in ("authorization_endpoint", "revocation_endpoint", "introspection_endpoint", "userinfo_endpoint"):
        assert doc[key].startswith(doc["issuer"])


def test_consent_form_refuses_forged_expired_or_foreign_input(client, api, owner, flow):
    """The consent POST answers a page or access_denied for bad input, never a 500 or a code."""
    params = flow.params()
    signed_in = flow.sign_in(params)
    ticket = re.search(r'name="ticket" value="([^"]+)"', signed_in.text).group(1)
    query = "/oauth/authorize?" + urlencode(params)
    org_id = owner["org"]["id"]
    tampered = ticket[:-2] + ("11" if ticket.endswith("00") else "00")  # always differs from the real signature
    for forged in ("", "garbage", tampered, "ñandú.ü", ticket.split(".")[0] + ".x" * 40):
        answer = client.post(query, data={"step": "consent", "ticket": forged, "organization_id": org_id,
                                          "decision": "approve"})
        assert answer.status_code == 400 and 'name="password"' in answer.text, forged
    other_query = "/oauth/authorize?" + urlencode(flow.params(state="another"))  # a ticket is bound to its request
    assert client.post(other_query, data={"step": "consent", "ticket": ticket, "organization_id": org_id,
                                          "decision": "approve"}).status_code == 400
    stranger = api.signup(email="eve@example.com")
    foreign_org = api.post("/organizations", {"name": "Eve Co", "slug": "eve-co", "billingEmail": "e@eve.test"},
                           token=stranger["tokens"]["accessToken"]).json["data"]["id"]
    foreign = client.post(query, data={"step": "consent", "ticket": ticket, "organization_id": foreign_org,
                                       "decision": "approve"})
    assert parse_qs(urlsplit(foreign.headers["Location"]).query)["error"] == ["access_denied"]
    clock.advance(601)
    expired = client.post(query, data={"step": "consent", "ticket": ticket, "organization_id": org_id,
                                       "decision": "approve"})
    assert expired.status_code == 400 and "Location" not in expired.headers


def test_sign_in_errors_stay_on_the_page(client, owner, flow):
    params = flow.params()
    wrong = flow.sign_in(params, password="not the password")
    assert wrong.status_code == 401 and 'name="password"' in wrong.text and "Location" not in wrong.headers
    nobody = flow.sign_in(params, email="nobody@example.com")
    assert nobody.status_code == 401 and "Location" not in nobody.headers
