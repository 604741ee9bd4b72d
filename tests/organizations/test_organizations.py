from tests.factories import add_member
from tests.problems import assert_problem


def test_create_makes_me_owner_with_the_four_system_roles(api, owner):
    """The creator becomes owner; owner, admin, supervisor and agent exist."""
    org_id = owner["org"]["id"]
    assert owner["org"]["slug"] == "acme" and owner["org"]["planSlug"] == "business"  # APPLIANCE_DEFAULT_PLAN
    me = api.get(f"/organizations/{org_id}/memberships/me", token=owner["token"]).json["data"]
    assert me["role"]["key"] == "owner"
    roles = api.get(f"/organizations/{org_id}/roles", token=owner["token"]).json["data"]
    assert [r["key"] for r in roles] == ["owner", "admin", "supervisor", "agent"]
    assert all(r["system"] for r in roles)


def test_list_shows_only_my_organizations(api, owner):
    """Another person's list does not show acme."""
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    assert api.get("/organizations", token=other).json["data"] == []
    assert [o["slug"] for o in api.get("/organizations", token=owner["token"]).json["data"]] == ["acme"]


def test_slug_rules(api, owner):
    """Bad, reserved and taken slugs are refused with clear codes."""
    def create(slug):
        return api.post("/organizations", {"name": "X", "slug": slug, "billingEmail": "b@x.test"},
                        token=owner["token"])
    for slug in ("ab", "-acme", "acme-", "ac--me", "Acme", "acme corp", "a" * 49, "ñandu"):
        response = create(slug)
        assert_problem(response, 400, "invalid_slug", slug)
    reserved = create("admin")
    assert reserved.status_code == 400 and "reserved" in reserved.json["detail"]
    taken = create("acme")
    assert_problem(taken, 409, "slug_taken")


def test_slug_available_and_suggest(api, owner):
    """Availability says no for taken or invalid slugs; suggestions are free and valid."""
    token = owner["token"]
    assert api.get("/organizations/slug-available?slug=acme", token=token).json["data"] == {"slug": "acme", "available": False}
    assert api.get("/organizations/slug-available?slug=acme-2", token=token).json["data"]["available"] is True
    assert api.get("/organizations/slug-available?slug=admin", token=token).json["data"]["available"] is False
    assert api.get("/organizations/slug-suggest?name=Acme", token=token).json["data"]["slug"] == "acme-2"
    assert api.get("/organizations/slug-suggest?name=Café%20Niño", token=token).json["data"]["slug"] == "cafe-nino"
    assert api.get("/organizations/slug-suggest", token=token).status_code == 400


def test_quota(api, owner):
    """Three organizations per person by default; the fourth is 403 organization_quota_reached."""
    token = owner["token"]
    assert api.get("/organizations/quota", token=token).json["data"] == {"limit": 3, "used": 1, "remaining": 2}
    for slug in ("acme-two", "acme-three"):
        api.post("/organizations", {"name": "A", "slug": slug, "billingEmail": "b@x.test"}, token=token)
    fourth = api.post("/organizations", {"name": "A", "slug": "acme-four", "billingEmail": "b@x.test"}, token=token)
    assert_problem(fourth, 403, "organization_quota_reached")


def test_create_validates_fields(api, owner):
    """Country, currency, time zone, interval, email and parent id are validated."""
    response = api.post("/organizations", {"name": "A", "slug": "valid-slug", "billingEmail": "nope",
                                           "country": "COL", "currency": "usd1", "timezone": "Nowhere/City",
                                           "billingInterval": "WEEKLY", "billingParentId": "x"},
                        token=owner["token"])
    assert response.status_code == 400
    assert set(response.json["errors"]) == {"billingEmail", "country", "currency", "timezone",
                                            "billingInterval", "billingParentId"}


def test_billing_parent_must_be_mine_as_owner(api, owner):
    """Attaching a new organization to someone else's billing group is 403."""
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    response = api.post("/organizations", {"name": "B", "slug": "bee", "billingEmail": "b@x.test",
                                           "billingParentId": owner["org"]["id"]}, token=other)
    assert_problem(response, 403, "not_parent_owner")
    child = api.post("/organizations", {"name": "C", "slug": "acme-child", "billingEmail": "b@x.test",
                                        "billingParentId": owner["org"]["id"]}, token=owner["token"])
    assert child.status_code == 201 and child.json["data"]["billingParentId"] == owner["org"]["id"]


def test_update_settings(api, owner):
    """PATCH changes timezone, business hours and opt-out keywords; country is upper-cased."""
    org_id = owner["org"]["id"]
    hours = {"mon": [{"open": "08:00", "close": "12:00"}, {"open": "14:00", "close": "18:00"}]}
    response = api.patch(f"/organizations/{org_id}", {"timezone": "America/Bogota", "country": "co",
                                                      "businessHoursSchedule": hours,
                                                      "optOutKeywords": ["STOP", "BAJA"]}, token=owner["token"])
    assert response.status_code == 200, response.json
    data = response.json["data"]
    assert (data["timezone"], data["country"], data["optOutKeywords"]) == ("America/Bogota", "CO", ["STOP", "BAJA"])
    assert data["businessHoursSchedule"] == hours


def test_update_rejects_bad_business_hours(api, owner):
    """Closing before opening, bad times and unknown days are 400."""
    org_id = owner["org"]["id"]
    for hours in ({"mon": [{"open": "18:00", "close": "08:00"}]}, {"mon": [{"open": "25:00", "close": "26:00"}]},
                  {"funday": []}):
        assert api.patch(f"/organizations/{org_id}", {"businessHoursSchedule": hours},
                         token=owner["token"]).status_code == 400, hours


def test_outsiders_get_403_for_existing_and_missing_organizations_alike(api, owner):
    """A non-member learns nothing: 403 not_a_member whether the organization exists or not."""
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    real = api.get(f"/organizations/{owner['org']['id']}", token=other)
    fake = api.get("/organizations/00000000-0000-7000-8000-000000000000", token=other)
    assert real.status_code == fake.status_code == 403
    assert real.json["code"] == fake.json["code"] == "not_a_member"
    assert api.patch(f"/organizations/{owner['org']['id']}", {"name": "Pwned"}, token=other).status_code == 403
    assert api.get(f"/organizations/{owner['org']['id']}", token=owner["token"]).json["data"]["name"] == "Acme"


def test_agents_read_but_cannot_change_settings(api, owner):
    """An agent reads the organization and its members, but cannot change settings or see roles."""
    org_id = owner["org"]["id"]
    agent = add_member(api, org_id, "agent", "agent@example.com")
    assert api.get(f"/organizations/{org_id}", token=agent).status_code == 200
    denied = api.patch(f"/organizations/{org_id}", {"name": "X"}, token=agent)
    assert_problem(denied, 403, "permission_missing")
    assert denied.json["permission"] == "organizations:write"
    assert api.get(f"/organizations/{org_id}/roles", token=agent).status_code == 403
    assert len(api.get(f"/organizations/{org_id}/memberships", token=agent).json["data"]) == 2


def test_country_and_currency_are_codes_that_exist(api, owner):
    """Issue 43: "Mexico" is not cut to ME (Montenegro), QQ is no country, PES no currency in use; the
    error names the field. Lower case is taken."""
    token = owner["token"]

    def create(**fields):
        return api.post("/organizations", {"name": "Sol", "slug": "sol-mx", "billingEmail": "b@sol.test", **fields},
                        token=token)
    for fields, field in (({"country": "QQ"}, "country"), ({"country": "Mexico"}, "country"),
                          ({"currency": "PES"}, "currency"), ({"currency": "pesos"}, "currency"),
                          ({"currency": "MXV"}, "currency")):  # a fund code, not money a business takes
        answer = create(**fields)
        assert_problem(answer, 400, "validation_failed")
        assert set(answer.json["errors"]) == {field}, fields
    created = create(country="mx", currency="mxn")
    assert created.status_code == 201, created.json
    assert (created.json["data"]["country"], created.json["data"]["currency"]) == ("MX", "MXN")


def test_patch_corrects_country_and_currency(api, owner):
    org_id, token = owner["org"]["id"], owner["token"]
    for body, field in (({"country": "QQ"}, "country"), ({"currency": "PES"}, "currency")):
        answer = api.patch(f"/organizations/{org_id}", body, token=token)
        assert_problem(answer, 400, "validation_failed")
        assert set(answer.json["errors"]) == {field}
    answer = api.patch(f"/organizations/{org_id}", {"country": "MX", "currency": "mxn"}, token=token)
    assert answer.status_code == 200, answer.json
    assert (answer.json["data"]["country"], answer.json["data"]["currency"]) == ("MX", "MXN")
    fixed = api.patch(f"/organizations/{org_id}", {"currency": "COP"}, token=token).json["data"]
    assert fixed["currency"] == "COP" and api.get(f"/organizations/{org_id}", token=token).json["data"]["currency"] == "COP"


def test_the_time_zone_defaults_to_the_countrys_main_zone(api, owner):
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]

    def create(slug, token=owner["token"], **fields):
        answer = api.post("/organizations", {"name": "Sol", "slug": slug, "billingEmail": "b@sol.test", **fields},
                          token=token)
        assert answer.status_code == 201, answer.json
        return answer.json["data"]["timezone"]
    assert create("sol-mx", country="MX") == "America/Mexico_City"
    assert create("sol-br", country="BR") == "America/Sao_Paulo"  # not Noronha, zone.tab's first for Brazil
    assert create("sol-es", other, country="ES", timezone="Atlantic/Canary") == "Atlantic/Canary"  # a zone given is kept
    assert owner["org"]["timezone"] == "UTC"  # no country, no zone
