"""The authorization layer fails closed: every organization route states its permission."""


def test_every_organization_route_declares_a_permission(client):
    """Each operation under /organizations/{org_id} carries x-permission from the catalog."""
    from appliance.permissions.service import permission_keys

    spec = client.get("/openapi.json").json
    checked = 0
    for path, item in spec["paths"].items():
        if "{org_id}" not in path:
            continue
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                assert operation.get("x-permission") in permission_keys(), f"{method} {path}"
                checked += 1
    assert checked >= 9
