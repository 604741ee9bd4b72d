"""Generated from the route table: who may call what, and that no route crosses tenants."""

import io
import re

import pytest

from appliance.core import runtime
from appliance.permissions.service import list_system_roles
from tests.factories import add_member
from tests.organizations import every_record
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
        if permission in granted:  # let in: whatever it answers, not a refusal for want of it, and never a 500
            assert response.status_code < 500 and (response.json or {}).get("code") != "permission_missing", \
                (where, response.status_code, response.json)
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
            assert response.status_code < 500 and (response.json or {}).get("code") != "scope_missing", \
                (where, response.status_code, response.json)
        else:
            assert_problem(response, 403, "scope_missing", where)


def _value(spec: dict, schema: dict):
    """The smallest value the document says `schema` takes: what a generated call sends so that it
    passes validation and reaches the record it names."""
    if "$ref" in schema:
        return _value(spec, spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]])
    for combined in ("allOf", "oneOf", "anyOf"):
        if schema.get(combined):
            return _value(spec, schema[combined][0])
    if "enum" in schema:
        return next(value for value in schema["enum"] if value is not None)
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        names = [name for name in properties if name in schema.get("required", ())]
        names += [name for name in properties if name not in names][:max(0, schema.get("minProperties", 0) - len(names))]
        return {name: _value(spec, properties[name]) for name in names}
    if kind == "array":
        return [_value(spec, schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    text = {"uuid": UNKNOWN_ID, "date-time": "2030-01-01T10:00:00Z", "date": "2030-01-01", "email": "x@example.com",
            "uri": "https://example.com/x", "url": "https://example.com/x"}.get(
        schema.get("format"), "x" * max(1, schema.get("minLength", 1)))
    if schema.get("pattern") and not re.search(schema["pattern"], text):  # a handle, a shortcut, digits...
        text = next(word for word in ("xxx-1", "/hola", "1234", "x") if re.search(schema["pattern"], word))
    return text


def _request_body(spec: dict, operation: dict) -> dict:
    """Keyword arguments for the test client: a valid body of the operation's first content type."""
    content = (operation.get("requestBody") or {}).get("content") or {}
    if "application/json" in content:
        return {"json": _value(spec, content["application/json"]["schema"])}
    if "multipart/form-data" in content:  # the file a route of a CSV takes, else a picture
        file = (io.BytesIO(b"phone\n573001112233\n"), "x.csv", "text/csv") if "text/csv" in content else \
            (io.BytesIO(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64), "x.png", "image/png")
        return {"data": {"file": file}, "content_type": "multipart/form-data"}
    return {}


def _snapshot() -> dict[str, list]:
    """Every row of every table but the bookkeeping that any request may add (who called, when)."""
    volatile = {"outbox_events", "outbox_cursors", "throttle_buckets", "idempotency_keys", "auth_sessions",
                "alembic_version"}
    with runtime.get().db.unit_of_work(write=False) as session:
        connection = session.connection()
        tables = [name for (name,) in connection.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE 'fts_%' AND name NOT LIKE 'vec_%'") if name not in volatile]
        return {name: sorted(map(repr, connection.exec_driver_sql(f'SELECT * FROM "{name}"'))) for name in tables}


def test_no_route_crosses_tenants(api, client, line):
    """Issue 44, item 19: generated from the route table, with every kind of id its paths name
    filled with one of our records (it filled only roles, keys and memberships). Another
    organization's owner: 403 not_a_member on every route of ours; 404 on each of theirs named with
    one of our ids, with a body that passes validation so the call reaches the record; and not a row
    of the database changed afterwards."""
    spec = client.get("/openapi.json").json
    ours = every_record.one_of_each(line)
    intruder = api.signup(email="intruder@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Evil", "slug": "evil", "billingEmail": "e@evil.test"},
                      token=intruder).json["data"]["id"]
    before = _snapshot()
    headers = {"Authorization": f"Bearer {intruder}"}
    crossed_kinds, wrong = set(), []
    for path, item in spec["paths"].items():
        if "{org_id}" not in path:
            continue
        names = [name for name in re.findall(r"\{(\w+)\}", path) if name not in every_record.NOT_RECORDS]
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            filled = {name: every_record.id_for(name, path, ours) for name in names}
            on_ours = _call(client, method, path, headers, {"org_id": line.org_id, "provider": "LOCAL", **filled})
            assert_problem(on_ours, 403, "not_a_member", f"{method} {path}")
            if not names:
                continue
            url = re.sub(r"\{(\w+)\}", lambda m: {"org_id": theirs, "provider": "LOCAL", **filled}[m.group(1)], path)
            crossed = client.open(url, method=method.upper(), headers=headers, **_request_body(spec, operation))
            crossed.close()
            if crossed.status_code != 404 or not crossed.headers["Content-Type"].startswith("application/problem+json"):
                wrong.append(f"{method.upper()} {path}: {crossed.status_code} {crossed.get_json(silent=True)}")
            crossed_kinds.update(names)
    assert wrong == []
    assert crossed_kinds == set(ours) - {"person_id"}, "a kind of record made for nothing, or one not crossed"
    assert _snapshot() == before
