"""Generated from the app's url_map (tests/organizations/routes.py): who may call what, on the API
and on the console's and the inbox's pages, and that no route crosses tenants."""

import io
import re

import pytest
from sqlalchemy import inspect

from appliance.core import runtime
from appliance.permissions.service import list_system_roles
from tests.browser_forms import csrf_of, sign_in
from tests.factories import add_member
from tests.organizations import every_record, routes
from tests.problems import assert_problem

UNKNOWN_ID = "00000000-0000-7000-8000-0000000000aa"


def _call(client, route, values, headers=None):
    """The route with `values` in its path (an unknown id for any other record), as an API client
    calls it: empty bodies change nothing (they fail validation or update no field)."""
    url = route.url({name: values.get(name, every_record.NOT_RECORDS.get(name, UNKNOWN_ID)) for name in route.arguments})
    response = client.open(url, method=route.method, headers=headers or {},
                           **({"json": {}} if route.method in ("POST", "PUT", "PATCH") else {}))
    response.close()  # an event stream that was let in gives its slot back now, not when collected
    return response


def _open_page(client, route, values, csrf):
    """The page with `values` in its path, as a browser opens it: a form posts its CSRF token and
    nothing else. Errors come as problems (the client asks for no HTML)."""
    url = route.url({name: values.get(name, every_record.NOT_RECORDS.get(name, UNKNOWN_ID)) for name in route.arguments})
    response = client.open(url, method=route.method, data={"csrf": csrf} if route.method != "GET" else None)
    response.close()
    return response


def _let_in(response, refusal: str) -> bool:
    """Let in: whatever it answers, not a refusal for want of the permission, and never a 500."""
    return response.status_code < 500 and (response.get_json(silent=True) or {}).get("code") != refusal


def _granted(role_key: str) -> set[str]:
    return next(set(r.permissions) for r in list_system_roles() if r.key == role_key)


@pytest.mark.parametrize("role_key", [r.key for r in list_system_roles()])
def test_each_system_role_gets_exactly_its_permissions(api, client, owner, role_key):
    """For every organization route of the API: denied for want of permission exactly when the role lacks it."""
    org_id = owner["org"]["id"]
    token = owner["token"] if role_key == "owner" else add_member(api, org_id, role_key, f"{role_key}@example.com")
    granted, checked = _granted(role_key), 0
    for route in routes.api_operations(client.application):
        response = _call(client, route, {"org_id": org_id}, {"Authorization": f"Bearer {token}"})
        if route.permission in granted:
            assert _let_in(response, "permission_missing"), (role_key, str(route), response.status_code, response.json)
        else:
            assert_problem(response, 403, "permission_missing", f"{role_key}: {route}")
        checked += 1
    assert checked >= 200


@pytest.mark.parametrize("role_key", [r.key for r in list_system_roles()])
def test_each_system_role_gets_exactly_its_permissions_on_pages(api, client, owner, role_key):
    """Every page of the console and the inbox in an organization, as a member with each system role
    signed in: refused for want of permission exactly when the role lacks the permission of the API
    operation the page performs (any member, for pages open to all)."""
    org_id = owner["org"]["id"]
    email = "owner@example.com" if role_key == "owner" else f"{role_key}@example.com"
    if role_key != "owner":
        add_member(api, org_id, role_key, email)
    sign_in(client, email=email)
    csrf, granted, checked = csrf_of(client.get("/console/account")), _granted(role_key), 0
    for route in routes.pages(client.application):
        if not route.in_organization:
            continue
        response = _open_page(client, route, {"org_id": org_id}, csrf)
        if route.permission is None or route.permission in granted:
            assert _let_in(response, "permission_missing"), (role_key, str(route), response.status_code,
                                                             response.get_json(silent=True))
        else:
            assert_problem(response, 403, "permission_missing", f"{role_key}: {route}")
        checked += 1
    assert checked >= 170


def test_a_narrow_key_reaches_only_its_scope(api, client, owner):
    """A contacts:read key: every organization route is 403 scope_missing except reading the organization."""
    org_id = owner["org"]["id"]
    secret = api.post(f"/organizations/{org_id}/api-keys", {"name": "narrow", "scopes": ["contacts:read"]},
                      token=owner["token"]).json["data"]["secret"]
    for route in routes.api_operations(client.application):
        response = _call(client, route, {"org_id": org_id}, {"X-Api-Key": secret})
        if route.permission in ("contacts:read", "organizations:read"):
            assert _let_in(response, "scope_missing"), (str(route), response.status_code, response.json)
        else:
            assert_problem(response, 403, "scope_missing", str(route))


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
        tables = [name for name in inspect(connection).get_table_names()  # either engine's catalog
                  if not name.startswith(("sqlite_", "fts_", "vec_", "queue_")) and name not in volatile]
        return {name: sorted(map(repr, connection.exec_driver_sql(f'SELECT * FROM "{name}"'))) for name in tables}


def _records(route) -> list[str]:
    """The path arguments of `route` that name a record of an organization or a person."""
    return [name for name in route.arguments
            if name != "org_id" and name not in every_record.NOT_RECORDS and name not in route.chosen]


def test_no_route_crosses_tenants(api, client, line):
    """Issue 44, item 19, and issue 47: generated from the url_map, the API's and the pages' routes,
    with every kind of id their paths name filled with one of our records (every_record.py; a kind
    it cannot fill fails the test). Another organization's owner: 403 not_a_member on every route
    of ours; 404 on each of theirs named with one of our ids (an API call with a body that passes
    validation, so that it reaches the record; a page's GET, or its form posted empty), the pages
    of a person (their devices, their phones) 404 with our owner's ids too, the installation's
    (backups) refused to whoever does not administer it; and not a row of the database changed."""
    app, spec = client.application, client.get("/openapi.json").json
    ours = every_record.one_of_each(line)
    intruder = api.signup(email="intruder@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Evil", "slug": "evil", "billingEmail": "e@evil.test"},
                      token=intruder).json["data"]["id"]
    sign_in(client, email="intruder@example.com")  # the intruder's browser, for the pages
    csrf = csrf_of(client.get("/console/account"))
    before = _snapshot()
    headers = {"Authorization": f"Bearer {intruder}"}
    crossed_kinds, wrong = set(), []
    for route in routes.api_operations(app):
        names = _records(route)
        filled = {name: every_record.id_for(name, route.rule, ours) for name in names}
        assert_problem(_call(client, route, {"org_id": line.org_id, **filled}, headers), 403, "not_a_member", str(route))
        if not names:
            continue
        operation = spec["paths"][routes.path(route)][route.method.lower()]
        crossed = client.open(route.url({**every_record.NOT_RECORDS, **filled, "org_id": theirs}), method=route.method,
                              headers=headers, **_request_body(spec, operation))
        crossed.close()
        if crossed.status_code != 404 or not crossed.headers["Content-Type"].startswith("application/problem+json"):
            wrong.append(f"{route}: {crossed.status_code} {crossed.get_json(silent=True)}")
        crossed_kinds.update(every_record.key_for(name, route.rule) for name in names)
    for route in routes.pages(app):
        names = _records(route)
        filled = {name: every_record.id_for(name, route.rule, ours) for name in names}
        if route.in_organization:
            assert_problem(_open_page(client, route, {"org_id": line.org_id, **filled}, csrf), 403, "not_a_member",
                           str(route))
        if not names:
            continue
        crossed = _open_page(client, route, {**filled, "org_id": theirs}, csrf)
        refused = (crossed.get_json(silent=True) or {}).get("code") == "not_installation_admin"
        if crossed.status_code != 404 and not (refused and not route.in_organization):
            wrong.append(f"page {route}: {crossed.status_code} {crossed.get_json(silent=True)}")
        crossed_kinds.update(every_record.key_for(name, route.rule) for name in names)
    assert wrong == [], "\n".join(wrong)
    assert crossed_kinds == set(ours), "a kind of record made for nothing, or one not crossed"
    assert _snapshot() == before
