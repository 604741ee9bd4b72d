"""Issue 17, finding 11 (what the fuzzer found in the document), each kept true here as well as by
tests/fuzz: errors are documented as problem+json; what the server enforces is in the schemas; a
required body is required; methods a route does not have answer 405."""

from tests.problems import assert_problem


def _document(client):
    return client.get("/openapi.json").json


def test_errors_are_documented_as_problem_json_and_oauth_errors_as_rfc_6749_json(client):
    document = _document(client)
    login = document["paths"]["/auth/login"]["post"]["responses"]
    errors = [r for status, r in login.items() if status == "default" or status[0] in "45"]
    assert errors and all("application/problem+json" in r.get("content", {"application/problem+json": 1})
                          for r in errors)
    token = document["paths"]["/oauth/token"]["post"]["responses"]["400"]["content"]
    assert "application/json" in token  # {error, error_description}, as the RFC says


def test_schemas_say_what_the_server_enforces(client):
    schemas = _document(client)["components"]["schemas"]
    name = schemas["OrganizationCreate"]["properties"]["name"]
    assert "\\x00-\\x08" in name["pattern"]  # no control characters
    slug = schemas["OrganizationCreate"]["properties"]["slug"]
    assert slug["pattern"] and "admin" in slug["not"]["enum"]
    assert "America/Bogota" in schemas["OrganizationCreate"]["properties"]["timezone"]["enum"]
    assert schemas["ContactUpdate"]["minProperties"] == 1 and schemas["Categorize"]["minProperties"] == 1


def test_a_required_body_is_required_and_nested_errors_are_one_flat_map(client, owner):
    auth = {"Authorization": f"Bearer {owner['token']}"}
    assert_problem(client.patch("/users/me", headers=auth), 400, "body_required")
    assert client.patch("/users/me", json={}, headers=auth).status_code == 200  # {} is a body
    hours = client.patch(f"/organizations/{owner['org']['id']}", headers=auth,
                         json={"businessHoursSchedule": {"tue": [{"open": "18:00", "close": "09:00"}]}})
    assert_problem(hours, 400, "validation_failed")
    assert hours.json["errors"] == {"businessHoursSchedule.tue.0.close": ["open must be before close."]}


def test_methods_a_route_does_not_have_answer_405(client):
    for method in ("PUT", "PATCH", "DELETE"):
        for path in ("/oauth/token", "/oauth/revoke", "/oauth/introspect"):
            answer = client.open(path, method=method)
            assert_problem(answer, 405, "method_not_allowed")
            assert "POST" in answer.headers["Allow"]
