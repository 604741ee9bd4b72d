from datetime import timedelta

from appliance.core import clock
from tests.factories import add_member
from tests.problems import assert_problem


def _keys(owner):
    return f"/organizations/{owner['org']['id']}/api-keys"


def _create(api, owner, **body):
    response = api.post(_keys(owner), {"name": "ERP", **body}, token=owner["token"])
    assert response.status_code == 201, response.json
    return response.json["data"]


def test_secret_is_shown_once_and_works_in_both_headers(api, owner, client):
    """The key works as X-Api-Key and as Bearer; listings never show the secret."""
    key = _create(api, owner)
    assert key["secret"].startswith(f"mk_live_{key['prefix']}.")
    org_url = f"/organizations/{owner['org']['id']}"
    assert client.get(org_url, headers={"X-Api-Key": key["secret"]}).status_code == 200
    assert client.get(org_url, headers={"Authorization": f"Bearer {key['secret']}"}).status_code == 200
    listing = api.get(_keys(owner), token=owner["token"]).json["data"]
    assert "secret" not in listing[0] and key["secret"] not in str(listing)


def test_wrong_prefix_or_secret_is_401_without_fallback(api, owner, client):
    """A bad X-Api-Key is 401 even with a valid JWT beside it."""
    key = _create(api, owner)
    org_url = f"/organizations/{owner['org']['id']}"
    tampered = key["secret"][:-2] + ("yy" if key["secret"].endswith("xx") else "xx")  # never the real secret
    for bad in (tampered, "mk_live_nope.secret", "mk_test_", "mk_live_" + key["prefix"], "garbage"):
        response = client.get(org_url, headers={"X-Api-Key": bad, "Authorization": f"Bearer {owner['token']}"})
        assert_problem(response, 401, "invalid_api_key", bad)


def test_revoked_and_expired_keys_are_401(api, owner, client):
    """Revocation takes effect at once (also for a key just used, whose row the server keeps in
    memory); an expired key stops at its time."""
    org_url = f"/organizations/{owner['org']['id']}"
    revoked = _create(api, owner)
    assert client.get(org_url, headers={"X-Api-Key": revoked["secret"]}).status_code == 200
    assert api.delete(f"{_keys(owner)}/{revoked['id']}", token=owner["token"]).status_code == 200
    assert client.get(org_url, headers={"X-Api-Key": revoked["secret"]}).status_code == 401
    expiring = _create(api, owner, expiresAt=(clock.now() + timedelta(hours=1)).isoformat())
    assert client.get(org_url, headers={"X-Api-Key": expiring["secret"]}).status_code == 200
    clock.advance(3601)
    assert client.get(org_url, headers={"X-Api-Key": expiring["secret"]}).status_code == 401


def test_scoped_key_is_403_outside_its_scopes(api, owner, client):
    """A key with contacts:read cannot read roles; both read their org. An unscoped key holds every
    permission of the organization (the reference: "empty = full access"), and only someone holding
    every permission may create one."""
    org_id = owner["org"]["id"]
    scoped = _create(api, owner, scopes=["contacts:read"])
    response = client.get(f"/organizations/{org_id}/roles", headers={"X-Api-Key": scoped["secret"]})
    assert_problem(response, 403, "scope_missing")
    unscoped = _create(api, owner)
    assert client.get(_keys(owner), headers={"X-Api-Key": unscoped["secret"]}).status_code == 200
    assert client.get(f"/organizations/{org_id}/roles", headers={"X-Api-Key": unscoped["secret"]}).status_code == 200
    assert client.get(f"/organizations/{org_id}", headers={"X-Api-Key": scoped["secret"]}).status_code == 200
    made = client.post(_keys(owner), json={"name": "child"}, headers={"X-Api-Key": unscoped["secret"]})
    assert made.status_code == 201, made.json
    assert_problem(client.post(_keys(owner), json={"name": "x"}, headers={"X-Api-Key": scoped["secret"]}),
                   403, "scope_missing")


def test_only_someone_holding_every_permission_creates_a_full_access_key(api, owner, client):
    """An admin lacking one permission may create scoped keys, not an unscoped (full) one."""
    org_id = owner["org"]["id"]
    role = api.post(f"/organizations/{org_id}/roles", {"name": "Keys", "permissions": [
        "api-keys:read", "api-keys:write", "contacts:read"]}, token=owner["token"]).json["data"]
    keeper = add_member(api, org_id, role["key"], "keys@example.com")
    assert api.post(_keys(owner), {"name": "scoped", "scopes": ["contacts:read"]}, token=keeper).status_code == 201
    assert_problem(api.post(_keys(owner), {"name": "full"}, token=keeper), 403, "permission_escalation")


def test_keys_do_not_reach_person_routes_or_other_organizations(api, owner, client):
    """/users/me and another organization answer 403 to a key."""
    key = _create(api, owner)
    assert client.get("/users/me", headers={"X-Api-Key": key["secret"]}).json["code"] == "api_key_not_allowed"
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    other_org = api.post("/organizations", {"name": "O", "slug": "other", "billingEmail": "b@o.test"},
                         token=other).json["data"]
    response = client.get(f"/organizations/{other_org['id']}/memberships", headers={"X-Api-Key": key["secret"]})
    assert response.status_code == 403


def test_update_never_changes_the_secret(api, owner, client):
    """PATCH renames and rescopes; the same secret keeps working; secret in the body is refused."""
    key = _create(api, owner)
    updated = api.patch(f"{_keys(owner)}/{key['id']}", {"name": "ERP 2", "scopes": ["contacts:read"]},
                        token=owner["token"])
    assert updated.status_code == 200 and updated.json["data"]["scopes"] == ["contacts:read"]
    refused = api.patch(f"{_keys(owner)}/{key['id']}", {"secret": "mine"}, token=owner["token"])
    assert refused.status_code == 400
    assert client.get(f"/organizations/{owner['org']['id']}/memberships",
                      headers={"X-Api-Key": key["secret"]}).status_code == 403  # now contacts:read only


def test_key_validation(api, owner):
    """Unknown scopes, past expiry, bad phone number ids are 400; admins cannot mint billing:write keys."""
    for body in ({"scopes": ["roles:write"]}, {"scopes": ["nope"]},
                 {"expiresAt": (clock.now() - timedelta(minutes=1)).isoformat()},
                 {"phoneNumberIds": ["not-a-uuid"]}, {"expiresAt": "2030-01-01T00:00:00"}):
        response = api.post(_keys(owner), {"name": "X", **body}, token=owner["token"])
        assert response.status_code == 400, body
    admin = add_member(api, owner["org"]["id"], "admin", "admin@example.com")
    response = api.post(_keys(owner), {"name": "X", "scopes": ["billing:write"]}, token=admin)
    assert_problem(response, 403, "permission_escalation")


def test_last_used_is_recorded(api, owner, client):
    """Using a key sets lastUsedAt (at most once a minute)."""
    key = _create(api, owner)
    client.get(f"/organizations/{owner['org']['id']}", headers={"X-Api-Key": key["secret"]})
    listed = api.get(_keys(owner), token=owner["token"]).json["data"][0]
    assert listed["lastUsedAt"] is not None


def test_another_organizations_key_id_is_404(api, owner):
    """Revoking a key id of another organization is 404 and leaves it working."""
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    other_org = api.post("/organizations", {"name": "O", "slug": "other", "billingEmail": "b@o.test"},
                         token=other).json["data"]
    theirs = api.post(f"/organizations/{other_org['id']}/api-keys", {"name": "T"}, token=other).json["data"]
    assert api.delete(f"{_keys(owner)}/{theirs['id']}", token=owner["token"]).status_code == 404
    assert api.client.get(f"/organizations/{other_org['id']}/memberships",
                          headers={"X-Api-Key": theirs["secret"]}).status_code == 200  # still works
