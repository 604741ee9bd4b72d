from tests.factories import add_member
from tests.problems import assert_problem


def _roles(api, owner):
    return f"/organizations/{owner['org']['id']}/roles"


def test_permission_catalog(api, owner):
    """GET /permissions lists the 18 API-key scopes and the module permissions, in en and es."""
    catalog = api.get("/permissions", token=owner["token"]).json["data"]
    keys = [p["key"] for p in catalog]
    assert len(keys) == len(set(keys)) == 41
    assert sum(p["apiKeyScope"] for p in catalog) == 18
    assert {"organizations:read", "attendance:manage", "messages:send"} <= set(keys)
    assert all(p["description"]["en"] and p["description"]["es"] for p in catalog)


def test_custom_role_lifecycle(api, owner):
    """Create, rename, replace permissions, delete a custom role."""
    base = _roles(api, owner)
    created = api.post(base, {"name": "Night shift", "permissions": ["messages:send", "conversations:read"]},
                       token=owner["token"])
    assert created.status_code == 201
    role = created.json["data"]
    assert role["key"] == "custom-night-shift" and role["system"] is False
    assert role["permissions"] == ["conversations:read", "messages:send"]  # catalog order
    renamed = api.patch(f"{base}/{role['id']}", {"name": "Late shift"}, token=owner["token"])
    assert renamed.json["data"]["name"] == "Late shift"
    replaced = api.put(f"{base}/{role['id']}/permissions", {"permissions": ["contacts:read"]}, token=owner["token"])
    assert replaced.status_code == 200 and replaced.json["data"]["permissions"] == ["contacts:read"]
    assert api.delete(f"{base}/{role['id']}", token=owner["token"]).status_code == 200
    assert api.patch(f"{base}/{role['id']}", {"name": "Gone"}, token=owner["token"]).status_code == 404


def test_role_rules(api, owner):
    """Unknown permissions 400, duplicate names 409, system roles locked 409."""
    base = _roles(api, owner)
    unknown = api.post(base, {"name": "X", "permissions": ["nuclear:launch"]}, token=owner["token"])
    assert_problem(unknown, 400, "unknown_permission")
    api.post(base, {"name": "Sales"}, token=owner["token"])
    assert api.post(base, {"name": "Sales"}, token=owner["token"]).status_code == 409
    agent_role = next(r for r in api.get(base, token=owner["token"]).json["data"] if r["key"] == "agent")
    locked = api.put(f"{base}/{agent_role['id']}/permissions", {"permissions": []}, token=owner["token"])
    assert_problem(locked, 409, "system_role")
    assert api.delete(f"{base}/{agent_role['id']}", token=owner["token"]).status_code == 409


def test_no_one_grants_what_they_do_not_hold(api, owner):
    """An admin (no billing:write) cannot create a role with billing:write."""
    admin = add_member(api, owner["org"]["id"], "admin", "admin@example.com")
    response = api.post(_roles(api, owner), {"name": "Sneaky", "permissions": ["billing:write"]}, token=admin)
    assert_problem(response, 403, "permission_escalation")


def test_role_ids_of_another_organization_are_404(api, owner):
    """A role id from another organization is not found, and stays unchanged."""
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    other_org = api.post("/organizations", {"name": "Other", "slug": "other", "billingEmail": "b@o.test"},
                         token=other).json["data"]
    theirs = api.post(f"/organizations/{other_org['id']}/roles", {"name": "Theirs"}, token=other).json["data"]
    response = api.patch(f"{_roles(api, owner)}/{theirs['id']}", {"name": "Mine now"}, token=owner["token"])
    assert response.status_code == 404
    assert api.get(f"/organizations/{other_org['id']}/roles", token=other).json["data"][-1]["name"] == "Theirs"
