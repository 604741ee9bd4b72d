"""Issue 17, finding 10: no CORS at all, and OPTIONS answered 401 even on public routes, so a
single-page app registered as a public OAuth client on another origin could not call /oauth/token.
Also: a key issued as mk_live_ worked as mk_test_."""

from tests.problems import assert_problem

ORIGIN = {"Origin": "https://app.example"}


def test_a_browser_on_another_origin_may_call_the_api_without_credentials(client, owner):
    preflight = client.options("/oauth/token", headers={**ORIGIN, "Access-Control-Request-Method": "POST",
                                                        "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]
    assert "Access-Control-Allow-Credentials" not in preflight.headers  # never with cookies
    org = f"/organizations/{owner['org']['id']}"
    guarded = client.options(org, headers={**ORIGIN, "Access-Control-Request-Method": "GET",
                                           "Access-Control-Request-Headers": "authorization"})
    assert guarded.status_code == 204  # preflights carry no credentials: not a 401
    plain = client.options(org)
    assert plain.status_code == 200 and "GET" in plain.headers["Allow"]
    read = client.get(org, headers={**ORIGIN, "Authorization": f"Bearer {owner['token']}"})
    assert read.status_code == 200 and read.headers["Access-Control-Allow-Origin"] == "*"
    assert "Retry-After" in read.headers["Access-Control-Expose-Headers"]
    refused = client.get(org, headers=ORIGIN)
    assert refused.status_code == 401 and refused.headers["Access-Control-Allow-Origin"] == "*"  # readable errors


def test_pages_are_not_shared_with_other_origins(client):
    page = client.get("/sign-in", headers=ORIGIN)
    assert "Access-Control-Allow-Origin" not in page.headers
    preflight = client.options("/sign-in", headers={**ORIGIN, "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_a_key_works_only_with_the_prefix_it_was_issued_with(client, api, owner):
    org = f"/organizations/{owner['org']['id']}"
    secret = api.post(f"{org}/api-keys", {"name": "erp"}, token=owner["token"]).json["data"]["secret"]
    assert client.get(org, headers={"X-Api-Key": secret}).status_code == 200
    as_test = secret.replace("mk_live_", "mk_test_", 1)
    assert_problem(client.get(org, headers={"X-Api-Key": as_test}), 401, "invalid_api_key")
