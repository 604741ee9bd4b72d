"""Issue 23, part 3: holidays (many at once, seeded from the holidays package by country and year,
recurring) and leaves (inclusive ranges, overlaps refused, agents of the organization only)."""

import pytest

from tests.attendance.test_sessions import base
from tests.factories import add_member, organization, person
from tests.problems import assert_problem, error_fields


def test_holidays_many_at_once_seeded_and_recurring(api, owner):
    token = owner["token"]
    made = api.post(f"{base(owner)}/holidays", {"items": [{"date": "2027-03-19", "name": "Aniversario"},
                                                         {"date": "2026-05-05", "name": "Cumpleaños", "recurring": True}]},
                    token=token)
    assert made.status_code == 201, made.json
    seeded = api.post(f"{base(owner)}/holidays/seed?year=2026", token=token)
    assert seeded.status_code == 201, seeded.json
    names = {h["date"]: h["name"] for h in seeded.json["data"]}
    assert names["2026-12-25"] == "Navidad" and names["2026-07-20"] == "Día de la Independencia"
    listed = api.get(f"{base(owner)}/holidays?year=2026", token=token).json["data"]
    assert {"2026-12-25", "2026-05-05"} <= {h["date"] for h in listed} and "2027-03-19" not in {h["date"] for h in listed}
    assert [h["name"] for h in api.get(f"{base(owner)}/holidays?year=2027", token=token).json["data"]] == [
        "Aniversario", "Cumpleaños"]  # the recurring one every year
    renamed = api.post(f"{base(owner)}/holidays", {"items": [{"date": "2026-12-25", "name": "Navidad (cerrado)"}]},
                       token=token).json["data"][0]
    assert renamed["id"] == next(h["id"] for h in listed if h["date"] == "2026-12-25")
    assert api.post(f"{base(owner)}/holidays/seed?year=2027&country=US", token=token).status_code == 201
    assert_problem(api.post(f"{base(owner)}/holidays/seed?year=2026&country=ZZ", token=token), 400, "unknown_country")
    assert api.delete(f"{base(owner)}/holidays/{renamed['id']}", token=token).status_code == 200
    assert_problem(api.delete(f"{base(owner)}/holidays/{renamed['id']}", token=token), 404, "holiday_not_found")


@pytest.mark.parametrize("items, field", [
    ([{"date": "2026-02-30", "name": "x"}], "items"), ([{"date": "2026-01-01", "name": ""}], "items"),
    ([], "items"), ([{"date": "2026-01-01", "name": "a"}, {"date": "2026-01-01", "name": "b"}], "items")])
def test_bad_holidays_are_refused(api, owner, items, field):
    answer = api.post(f"{base(owner)}/holidays", {"items": items}, token=owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_leaves_are_inclusive_never_overlap_and_belong_to_the_organization(api, owner):
    token = owner["token"]
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    luis = api.get("/users/me", token=agent).json["data"]["id"]
    path = f"{base(owner)}/leaves"
    one = api.post(path, {"agentUserId": luis, "type": "VACATION", "startDate": "2026-12-21", "endDate": "2026-12-31"},
                   token=token)
    assert one.status_code == 201 and one.json["data"]["endDate"] == "2026-12-31"
    assert_problem(api.post(path, {"agentUserId": luis, "type": "SICK", "startDate": "2026-12-31", "endDate": "2026-12-31"},
                            token=token), 409, "leave_overlaps")
    day = api.post(path, {"agentUserId": luis, "type": "PERMISSION", "startDate": "2027-01-04", "endDate": "2027-01-04"},
                   token=token)
    assert day.status_code == 201
    backwards = api.post(path, {"agentUserId": luis, "type": "SICK", "startDate": "2027-02-10", "endDate": "2027-02-01"},
                         token=token)
    assert_problem(backwards, 400, "end_before_start")
    assert "endDate" in error_fields(backwards)
    for body, field in (({"type": "HOLIDAY"}, "type"), ({"startDate": "2027-02-29"}, "startDate"),
                        ({"agentUserId": "not-a-uuid"}, "agentUserId"),
                        ({"agentUserId": "01a20000-0000-7000-8000-000000000000"}, "agentUserId")):
        answer = api.post(path, {"agentUserId": luis, "type": "SICK", "startDate": "2027-03-01", "endDate": "2027-03-02",
                                 **body}, token=token)
        assert answer.status_code == 400 and field in error_fields(answer), (body, answer.json)
    listed = api.get(f"{path}?from=2026-12-30&to=2027-01-10", token=token).json["data"]
    assert [leave["type"] for leave in listed] == ["VACATION", "PERMISSION"]
    assert [leave["type"] for leave in api.get(f"{path}?from=2027-01-01", token=agent).json["data"]] == ["PERMISSION"]
    assert_problem(api.post(path, {"agentUserId": luis, "type": "SICK", "startDate": "2027-05-01", "endDate": "2027-05-01"},
                            token=agent), 403, "permission_missing")
    assert api.delete(f"{path}/{day.json['data']['id']}", token=token).status_code == 200


def test_another_organization_sees_nothing_of_ours(api, owner):
    token = owner["token"]
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    luis = api.get("/users/me", token=agent).json["data"]["id"]
    leave = api.post(f"{base(owner)}/leaves", {"agentUserId": luis, "type": "SICK", "startDate": "2026-12-01",
                                              "endDate": "2026-12-01"}, token=token).json["data"]
    holiday = api.post(f"{base(owner)}/holidays", {"items": [{"date": "2026-12-02", "name": "x"}]}, token=token).json["data"][0]
    other = {"token": person(api, email="rival@example.com")["tokens"]["accessToken"]}
    rival_org = organization(api, other["token"], name="Rival", slug="rival")
    theirs = f"/organizations/{rival_org['id']}/attendance"
    assert api.get(f"{theirs}/leaves", token=other["token"]).json["data"] == []
    assert api.get(f"{theirs}/holidays?year=2026", token=other["token"]).json["data"] == []
    assert_problem(api.delete(f"{theirs}/leaves/{leave['id']}", token=other["token"]), 404, "leave_not_found")
    assert_problem(api.delete(f"{theirs}/holidays/{holiday['id']}", token=other["token"]), 404, "holiday_not_found")
    answer = api.post(f"{theirs}/leaves", {"agentUserId": luis, "type": "SICK", "startDate": "2026-12-03",
                                          "endDate": "2026-12-03"}, token=other["token"])
    assert answer.status_code == 400 and "agentUserId" in error_fields(answer)
    assert_problem(api.get(f"{theirs}/sessions/agent/{luis}", token=other["token"]), 404, "agent_not_found")
    assert_problem(api.get(f"{base(owner)}/leaves", token=other["token"]), 403, "not_a_member")
