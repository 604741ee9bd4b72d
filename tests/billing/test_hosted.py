"""The installation administrators' view of the organizations it hosts (billing/hosted.py) and of
the plans, with APPLIANCE_BILLING on: each organization's plan, wallet, debts and suspension, read
for a page of them at once; the plan changed and a suspension made or lifted by an administrator,
but never one an unpaid invoice made; nobody else reads any of it."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from appliance.billing import tasks
from tests import factories
from tests.billing.test_billing import fund
from tests.problems import assert_problem


@pytest.fixture
def settings(settings):
    return settings.replace(billing="on", org_quota=10)


def hosted(api, token, **query) -> list[dict]:
    answer = api.get(f"/installation/organizations?{urlencode(query)}", token=token)
    assert answer.status_code == 200, answer.json
    return answer.json["data"]["items"]


def test_each_organization_with_what_it_pays_and_owes(api, owner):
    token = owner["token"]
    other = factories.organization(api, token, name="Zapatería Sur", slug="zapateria-sur")
    fund(api, owner, "500000.00")
    tasks.billing_minute_check.call_local()  # the owner's invoice paid from its wallet, the other's unpaid

    listed = hosted(api, token)
    assert [o["name"] for o in listed] == sorted([owner["org"]["name"], "Zapatería Sur"])
    mine = next(o for o in listed if o["id"] == owner["org"]["id"])
    assert (mine["planSlug"], mine["balance"], mine["owed"], mine["openInvoices"], mine["members"]) == (
        "business", "311000.00", "0.00", 0, 1)
    theirs = next(o for o in listed if o["id"] == other["id"])
    assert (theirs["owed"], theirs["openInvoices"], theirs["paymentFailing"], theirs["suspendedAt"]) == (
        "189000.00", 1, True, None)
    assert [o["id"] for o in hosted(api, token, state="owing")] == [other["id"]]
    assert [o["id"] for o in hosted(api, token, q="zapat")] == [other["id"]]
    assert hosted(api, token, q="100%_") == []  # the search's wildcards are letters
    assert len(hosted(api, token, take=1)) == 1

    plans = api.get("/installation/plans", token=token).json["data"]
    business = next(p for p in plans["plans"] if p["slug"] == "business")
    assert business["organizations"] == 2 and business["prices"]["MONTHLY"] == "189000.00"
    assert business["included"]["SEAT"] == 5 and "broadcasts" in business["capabilities"]
    assert [a["addonType"] for a in plans["addons"]] == ["SEAT", "WABA", "STORAGE_BLOCK", "ORGANIZATION"]


def test_an_administrator_changes_the_plan_and_suspends_but_paying_lifts_a_payment_suspension(api, owner):
    token, org_id = owner["token"], owner["org"]["id"]
    path = f"/installation/organizations/{org_id}"
    changed = api.patch(path, {"planSlug": "free"}, token=token)
    assert changed.status_code == 200 and changed.json["data"]["planSlug"] == "free"
    assert api.get(f"/organizations/{org_id}", token=token).json["data"]["planSlug"] == "free"
    assert_problem(api.patch(path, {"planSlug": "gold"}, token=token), 400, "validation_failed")

    suspended = api.patch(path, {"suspended": True, "reason": "Contract under review"}, token=token).json["data"]
    assert suspended["suspendedAt"] and suspended["suspensionReason"] == "Contract under review"
    assert api.get(f"/organizations/{org_id}/suspension", token=token).json["data"]["suspended"] is True
    assert api.patch(path, {"suspended": False}, token=token).json["data"]["suspendedAt"] is None

    from appliance.core import runtime
    from appliance.organizations import service as organizations_service
    with runtime.get().db.unit_of_work(write=True) as session:  # as the billing round leaves one 7 days past due
        organizations_service.do_set_suspension(session, slug=owner["org"]["slug"], suspended=True,
                                                reason=organizations_service.PAYMENT_OVERDUE)
    assert_problem(api.patch(path, {"suspended": False}, token=token), 409, "suspended_for_payment")


def test_only_the_installations_administrators_read_it(api, owner):
    eve = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]
    for path in ("/installation/organizations", f"/installation/organizations/{owner['org']['id']}", "/installation/plans"):
        assert api.get(path, token=eve).status_code == 403
    assert api.patch(f"/installation/organizations/{owner['org']['id']}", {"planSlug": "free"}, token=eve).status_code == 403
    assert_problem(api.get("/installation/organizations/6b1f7e0e-0000-4000-8000-000000000000", token=owner["token"]),
                   404, "organization_not_found")
    assert_problem(api.get("/installation/organizations?state=late", token=owner["token"]), 400, "validation_failed")
