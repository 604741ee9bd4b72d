"""Issue 17's findings 7 and 9, reproduced as observed: another organization's ids neither show
that they exist nor can be stored in one's own restrictions."""

from tests.factories import add_member, another_number, organization, person
from tests.problems import assert_problem


def _membership_of(api, org_id, token, email):
    return next(m for m in api.get(f"/organizations/{org_id}/memberships", token=token).json["data"]
                if m["email"] == email)


def test_another_organizations_member_looks_like_a_random_id(api, owner):
    add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    theirs = _membership_of(api, owner["org"]["id"], owner["token"], "agent@example.com")["id"]
    eve = person(api, email="eve@example.com")["tokens"]["accessToken"]
    organization(api, eve, name="Eve", slug="eve")
    real = api.patch(f"/memberships/{theirs}/suspension", {"suspended": True}, token=eve)
    random = api.patch("/memberships/01a20000-0000-7000-8000-000000000000/suspension", {"suspended": True}, token=eve)
    assert_problem(real, 404, "membership_not_found")
    assert_problem(random, 404, "membership_not_found")
    assert real.json["detail"] == random.json["detail"]


def test_restrictions_take_only_the_organizations_own_ids(api, owner):
    org_id = owner["org"]["id"]
    eve = person(api, email="eve@example.com")["tokens"]["accessToken"]
    eve_org = organization(api, eve, name="Eve", slug="eve")["id"]
    hers, mine = another_number(eve_org), another_number(org_id)
    for ids in ([hers["phoneNumberPk"]], ["01a20000-0000-7000-8000-000000000000"], [mine["phoneNumberPk"], hers["phoneNumberPk"]]):
        answer = api.post(f"/organizations/{org_id}/api-keys", {"name": "erp", "phoneNumberIds": ids}, token=owner["token"])
        assert_problem(answer, 400, "unknown_ids")
        assert "phoneNumberIds" in answer.json["errors"]
    created = api.post(f"/organizations/{org_id}/api-keys", {"name": "erp", "phoneNumberIds": [mine["phoneNumberPk"]]},
                       token=owner["token"])
    assert created.status_code == 201
    key_id = created.json["data"]["id"]
    changed = api.patch(f"/organizations/{org_id}/api-keys/{key_id}", {"phoneNumberIds": [hers["phoneNumberPk"]]},
                        token=owner["token"])
    assert_problem(changed, 400, "unknown_ids")

    add_member(api, org_id, "agent", "agent@example.com")
    membership = _membership_of(api, org_id, owner["token"], "agent@example.com")["id"]
    scope = f"/organizations/{org_id}/memberships/{membership}/waba-scope"
    assert_problem(api.put(scope, {"wabaIds": [hers["wabaPk"]]}, token=owner["token"]), 400, "unknown_ids")
    assert api.put(scope, {"wabaIds": [mine["wabaPk"]]}, token=owner["token"]).status_code == 200
