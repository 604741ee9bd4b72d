"""Generated from the route table: who may call what, and that no route crosses tenants."""

import re

import pytest

from appliance.permissions.service import list_system_roles
from tests.factories import add_member
from tests.problems import assert_problem

UNKNOWN_ID = "00000000-0000-7000-8000-0000000000aa"


def _operations(client):
    spec = client.get("/openapi.json").json
    for path, item in spec["paths"].items():
        if "{org_id}" not in path:
            continue
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation["x-permission"]


def _call(client, method, path, headers, ids):
    url = re.sub(r"\{(\w+)\}", lambda m: ids.get(m.group(1), UNKNOWN_ID), path)
    kwargs = {"headers": headers}
    if method in ("post", "put", "patch"):
        kwargs["json"] = {}  # empty bodies change nothing: they fail validation or update no field
    response = getattr(client, method)(url, **kwargs)
    response.close()  # an event stream that was let in gives its slot back now, not when collected
    return response


@pytest.mark.parametrize("role_key", [r.key for r in list_system_roles()])
def test_each_system_role_gets_exactly_its_permissions(api, client, owner, role_key):
    """For every organization route: denied for want of permission exactly when the role lacks it."""
    org_id = owner["org"]["id"]
    token = owner["token"] if role_key == "owner" else add_member(api, org_id, role_key, f"{role_key}@example.com")
    granted = next(set(r.permissions) for r in list_system_roles() if r.key == role_key)
    checked = 0
    for path, method, permission in _operations(client):
        response = _call(client, method, path, {"Authorization": f"Bearer {token}"}, {"org_id": org_id})
        where = f"{role_key}: {method.upper()} {path} ({permission})"
        if permission in granted:
            assert (response.json or {}).get("code") != "permission_missing", where
        else:
            assert_problem(response, 403, "permission_missing", where)
        checked += 1
    assert checked >= 14


def test_a_narrow_key_reaches_only_its_scope(api, client, owner):
    """A contacts:read key: every organization route is 403 scope_missing except reading the organization."""
    org_id = owner["org"]["id"]
    secret = api.post(f"/organizations/{org_id}/api-keys", {"name": "narrow", "scopes": ["contacts:read"]},
                      token=owner["token"]).json["data"]["secret"]
    for path, method, permission in _operations(client):
        response = _call(client, method, path, {"X-Api-Key": secret}, {"org_id": org_id})
        where = f"{method.upper()} {path} ({permission})"
        if permission in ("contacts:read", "organizations:read"):
            assert (response.json or {}).get("code") != "scope_missing", where
        else:
            assert_problem(response, 403, "scope_missing", where)


def _valid_body(method, path):
    """A body that passes validation, so the call reaches the record lookup."""
    if path.endswith("/permissions"):
        return {"permissions": []}
    if path.endswith("/waba-scope"):
        return {"wabaIds": []}
    if "/memberships/" in path:
        return {"roleId": UNKNOWN_ID}
    return {"name": "Stolen"}


def test_no_route_crosses_tenants(api, client, owner):
    """Another organization's owner: 403 on every route of ours, 404 for our ids inside theirs,
    and our records are unchanged afterwards."""
    org_id = owner["org"]["id"]
    ours = {
        "role_id": api.post(f"/organizations/{org_id}/roles", {"name": "Ours"}, token=owner["token"]).json["data"]["id"],
        "key_id": api.post(f"/organizations/{org_id}/api-keys", {"name": "ours"}, token=owner["token"]).json["data"]["id"],
        "membership_id": api.get(f"/organizations/{org_id}/memberships", token=owner["token"]).json["data"][0]["id"],
    }
    before = {p: api.get(f"/organizations/{org_id}{p}", token=owner["token"]).json["data"]
              for p in ("", "/roles", "/memberships", "/api-keys")}
    intruder = api.signup(email="intruder@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Evil", "slug": "evil", "billingEmail": "e@evil.test"},
                      token=intruder).json["data"]["id"]
    headers = {"Authorization": f"Bearer {intruder}"}
    for path, method, _ in _operations(client):
        on_ours = _call(client, method, path, headers, {"org_id": org_id, **ours})
        assert_problem(on_ours, 403, "not_a_member", f"{method} {path}")
        if re.search(r"\{(role_id|key_id|membership_id)\}", path):
            url = re.sub(r"\{(\w+)\}", lambda m: theirs if m.group(1) == "org_id" else ours[m.group(1)], path)
            kwargs = {"headers": headers}
            if method in ("post", "put", "patch"):
                kwargs["json"] = _valid_body(method, path)
            crossed = getattr(client, method)(url, **kwargs)
            assert crossed.status_code == 404, f"{method} {url}: {crossed.status_code} {crossed.json}"
    after = {p: api.get(f"/organizations/{org_id}{p}", token=owner["token"]).json["data"]
             for p in ("", "/roles", "/memberships", "/api-keys")}
    before[""].pop("updatedAt"), after[""].pop("updatedAt")
    for listing in ("/api-keys",):
        for item in before[listing] + after[listing]:
            item.pop("lastUsedAt", None)
    assert before == after
