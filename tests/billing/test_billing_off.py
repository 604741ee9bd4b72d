"""APPLIANCE_BILLING off (the default: one business on its own machine): nothing is limited and
every price is zero, so an add-on changes nothing in the wallet."""

from tests.problems import assert_problem


def test_with_billing_off_nothing_is_limited_or_charged(api, owner):
    token, org_id = owner["token"], owner["org"]["id"]
    roles = api.get(f"/organizations/{org_id}/roles", token=token).json["data"]
    agent = next(r["id"] for r in roles if r["key"] == "agent")
    for n in range(6):  # past the business plan's five seats
        assert api.post(f"/organizations/{org_id}/invitations", {"email": f"p{n}@example.com", "roleId": agent},
                        token=token).status_code == 201
    listed = api.get(f"/organizations/{org_id}/billing/addons", token=token).json["data"]
    assert {line["unitPrice"] for line in listed["catalog"]} == {"0.00"}
    preview = api.post(f"/organizations/{org_id}/billing/addons/preview", {"addonType": "SEAT", "quantity": 3},
                       token=token).json["data"]
    assert (preview["prorationAmount"], preview["sufficient"]) == ("0.00", True)
    assert api.patch(f"/organizations/{org_id}/billing/addons", {"addonType": "SEAT", "quantity": 3},
                     token=token).status_code == 200
    assert api.get(f"/organizations/{org_id}/billing/wallet", token=token).json["data"] == {
        "walletOrganizationId": org_id, "balance": "0.00", "currency": "COP", "entries": []}
    assert_problem(api.post(f"/organizations/{org_id}/billing/addons/preview", {"addonType": "SEAT"}, token=token),
                   400, "validation_failed")


def test_with_billing_off_no_period_is_billed(api, owner):
    from appliance.billing import tasks
    tasks.billing_minute_check.call_local()
    assert api.get(f"/organizations/{owner['org']['id']}/billing/invoices", token=owner["token"]).json["data"] == {
        "items": [], "nextCursor": None}
