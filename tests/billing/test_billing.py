"""Billing with APPLIANCE_BILLING on (docs/billing.md): entitlements answer 402 where they grow,
add-ons are charged what their preview showed and only once, decreases wait for the period's
end, a transfer reported and approved credits the wallet once, and another tenant's ids are 404."""

from __future__ import annotations

import io
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from appliance.billing import periods
from appliance.core import clock
from tests import factories
from tests.problems import assert_problem, error_fields


@pytest.fixture
def settings(settings):
    return settings.replace(billing="on", org_quota=10)  # an agency hosts several


def billing(owner) -> str:
    return f"/organizations/{owner['org']['id']}/billing"


def fund(api, owner, amount: str = "1000000.00", reference: str = "TRX-1") -> dict:
    """A transfer reported by the owner and approved by the installation's administrator (the first
    person of the installation: the owner fixture's)."""
    report = api.post(f"{billing(owner)}/payment-reports", {"amount": amount, "bank": "Bancolombia",
                                                             "reference": reference,
                                                             "paidAt": clock.iso(clock.now())}, token=owner["token"])
    assert report.status_code == 201 and report.json["data"]["status"] == "PENDING_REVIEW", report.json
    approved = api.post(f"/installation/payment-reports/{report.json['data']['id']}/approve", token=owner["token"])
    assert approved.status_code == 201, approved.json
    return approved.json["data"]


def until(api, moment: str) -> str:
    """Move the clock to `moment` (an API time) and sign in again (an access token lasts minutes);
    the new token."""
    clock.advance((datetime.fromisoformat(moment.replace("Z", "+00:00")) - clock.now()).total_seconds())
    return api.login("owner@example.com")["tokens"]["accessToken"]


def wallet(api, owner) -> str:
    return api.get(f"{billing(owner)}/wallet", token=owner["token"]).json["data"]["balance"]


def test_an_add_on_costs_what_its_preview_showed_once(api, owner):
    token = owner["token"]
    listed = api.get(f"{billing(owner)}/addons", token=token).json["data"]
    assert [line["addonType"] for line in listed["catalog"]] == ["SEAT", "WABA", "STORAGE_BLOCK", "ORGANIZATION"]
    assert listed["catalog"][0]["unitPrice"] == "29000.00" and listed["currency"] == "COP"
    assert listed["included"]["SEAT"] == 5 and listed["contracted"][0] == {
        "addonType": "SEAT", "quantity": 0, "nextQuantity": None, "nextFrom": None}

    shown = api.post(f"{billing(owner)}/addons/preview", {"addonType": "SEAT", "quantity": 2}, token=token)
    assert shown.status_code == 201, shown.json
    preview = shown.json["data"]
    assert (preview["currentQuantity"], preview["delta"], preview["walletBefore"], preview["sufficient"]) == (
        0, 2, "0.00", False)
    # A new organization's first month: almost all of it is left, so nearly two months of a seat.
    assert Decimal("57000") < Decimal(preview["prorationAmount"]) <= Decimal("58000.00")
    assert_problem(api.patch(f"{billing(owner)}/addons", {"addonType": "SEAT", "quantity": 2}, token=token),
                   402, "insufficient_wallet_balance")

    fund(api, owner, "100000.00")
    assert wallet(api, owner) == "100000.00"
    preview = api.post(f"{billing(owner)}/addons/preview", {"addonType": "SEAT", "quantity": 2},
                       token=token).json["data"]
    clock.advance(60)  # the owner reads it for a minute; the charge is still the one shown
    body = {"addonType": "SEAT", "quantity": 2, "prorationAt": preview["prorationAt"]}
    changed = api.patch(f"{billing(owner)}/addons", body, token=token)
    assert changed.status_code == 200, changed.json
    assert changed.json["data"]["contracted"][0]["quantity"] == 2
    assert wallet(api, owner) == preview["walletAfter"]
    assert api.patch(f"{billing(owner)}/addons", body, token=token).status_code == 200  # a double click
    assert wallet(api, owner) == preview["walletAfter"]
    entries = api.get(f"{billing(owner)}/wallet", token=token).json["data"]["entries"]
    assert [(e["source"], e["amount"]) for e in entries] == [("ADDON", f"-{preview['prorationAmount']}"),
                                                             ("PAYMENT_REPORT", "100000.00")]


def test_a_decrease_waits_for_the_periods_end_and_refunds_nothing(api, owner):
    token = owner["token"]
    fund(api, owner)
    assert api.patch(f"{billing(owner)}/addons", {"addonType": "STORAGE_BLOCK", "quantity": 3},
                     token=token).status_code == 200
    paid = wallet(api, owner)
    shown = api.post(f"{billing(owner)}/addons/preview", {"addonType": "STORAGE_BLOCK", "quantity": 1},
                     token=token).json["data"]
    assert (shown["delta"], shown["prorationAmount"], shown["walletAfter"]) == (-2, "0.00", paid)
    kept = api.patch(f"{billing(owner)}/addons", {"addonType": "STORAGE_BLOCK", "quantity": 1},
                     token=token).json["data"]["contracted"][2]
    assert (kept["quantity"], kept["nextQuantity"]) == (3, 1) and kept["nextFrom"] == shown["periodEnd"]
    assert wallet(api, owner) == paid
    token = until(api, shown["periodEnd"])
    kept = api.get(f"{billing(owner)}/addons", token=token).json["data"]["contracted"][2]
    assert (kept["quantity"], kept["nextQuantity"]) == (1, None)


def test_a_stale_or_foreign_preview_is_refused(api, owner):
    token = owner["token"]
    fund(api, owner)
    preview = api.post(f"{billing(owner)}/addons/preview", {"addonType": "WABA", "quantity": 1},
                       token=token).json["data"]
    clock.advance(16 * 60)
    token = api.login("owner@example.com")["tokens"]["accessToken"]
    answer = api.patch(f"{billing(owner)}/addons", {"addonType": "WABA", "quantity": 1,
                                                    "prorationAt": preview["prorationAt"]}, token=token)
    assert_problem(answer, 400, "stale_preview")
    assert "prorationAt" in error_fields(answer)
    for body, field in (({"addonType": "DISK", "quantity": 1}, "addonType"), ({"addonType": "SEAT", "quantity": -1}, "quantity"),
                        ({"addonType": "SEAT", "quantity": 1.5}, "quantity"), ({"addonType": "SEAT"}, "quantity"),
                        ({"addonType": "SEAT", "quantity": True}, "quantity")):
        answer = api.post(f"{billing(owner)}/addons/preview", body, token=token)
        assert answer.status_code == 400 and field in error_fields(answer), (body, answer.json)


def test_seats_accounts_and_organizations_are_limited_by_what_is_paid(api, owner):
    token, org_id = owner["token"], owner["org"]["id"]
    roles = api.get(f"/organizations/{org_id}/roles", token=token).json["data"]
    agent = next(r["id"] for r in roles if r["key"] == "agent")
    for n in range(4):  # the business plan includes 5 seats: the owner and four more
        assert api.post(f"/organizations/{org_id}/invitations", {"email": f"p{n}@example.com", "roleId": agent},
                        token=token).status_code == 201
    again = api.post(f"/organizations/{org_id}/invitations", {"email": "p0@example.com", "roleId": agent}, token=token)
    assert again.status_code == 201  # inviting the same person again takes no second seat
    full = api.post(f"/organizations/{org_id}/invitations", {"email": "p9@example.com", "roleId": agent}, token=token)
    problem = assert_problem(full, 402, "entitlement_exceeded")
    assert (problem["entitlement"], problem["limit"], problem["inUse"]) == ("SEAT", 5, 5)
    fund(api, owner)
    assert api.patch(f"{billing(owner)}/addons", {"addonType": "SEAT", "quantity": 1}, token=token).status_code == 200
    assert api.post(f"/organizations/{org_id}/invitations", {"email": "p9@example.com", "roleId": agent},
                    token=token).status_code == 201

    # Organizations of a billing group: the business plan pays for two children.
    for n in range(3):
        child = factories.organization(api, token, name=f"Sede {n}", slug=f"sede-{n}")
        linked = api.post(f"/organizations/{child['id']}/billing-group/link", {"parentOrgId": org_id}, token=token)
        if n < 2:
            assert linked.status_code == 201, linked.json
        else:
            assert assert_problem(linked, 402, "entitlement_exceeded")["entitlement"] == "ORGANIZATION"


def test_a_childs_add_ons_are_paid_from_the_parents_wallet(api, owner):
    token, org_id = owner["token"], owner["org"]["id"]
    fund(api, owner)
    child = factories.organization(api, token, name="Sede", slug="sede")
    assert api.post(f"/organizations/{child['id']}/billing-group/link", {"parentOrgId": org_id},
                    token=token).status_code == 201
    child_wallet = api.get(f"/organizations/{child['id']}/billing/wallet", token=token).json["data"]
    assert child_wallet["walletOrganizationId"] == org_id and child_wallet["balance"] == "1000000.00"
    preview = api.post(f"/organizations/{child['id']}/billing/addons/preview", {"addonType": "SEAT", "quantity": 1},
                       token=token).json["data"]
    assert api.patch(f"/organizations/{child['id']}/billing/addons", {"addonType": "SEAT", "quantity": 1,
                                                                      "prorationAt": preview["prorationAt"]},
                     token=token).status_code == 200
    entry = api.get(f"{billing(owner)}/wallet", token=token).json["data"]["entries"][0]
    assert entry["forOrganizationId"] == child["id"] and entry["amount"] == f"-{preview['prorationAmount']}"


def test_a_transfer_is_credited_once_and_a_rejection_says_why(api, owner, mailbox):
    token = owner["token"]
    approved = fund(api, owner, "250000.50", reference="TRX-9")
    assert approved["status"] == "APPROVED" and approved["amount"] == "250000.50"
    assert_problem(api.post(f"/installation/payment-reports/{approved['id']}/approve", token=token), 409,
                   "payment_report_reviewed")
    assert wallet(api, owner) == "250000.50"
    assert "250000.50 COP" in mailbox.last_to("owner@example.com")["Subject"]
    assert_problem(api.post(f"{billing(owner)}/payment-reports", {"amount": "1.00", "bank": "Bancolombia",
                                                                  "reference": "TRX-9", "paidAt": clock.iso(clock.now())},
                            token=token), 409, "payment_report_duplicate")
    other = api.post("/billing/payment-reports", {"organizationId": owner["org"]["id"], "amount": 5000, "bank": "Nu",
                                                  "reference": "X1", "paidAt": clock.iso(clock.now())}, token=token)
    assert other.status_code == 201, other.json
    pending = api.get("/installation/payment-reports", token=token).json["data"]["items"]
    assert [r["id"] for r in pending] == [other.json["data"]["id"]]
    rejected = api.post(f"/installation/payment-reports/{other.json['data']['id']}/reject",
                        {"reason": "No transfer with this reference reached the account."}, token=token)
    assert rejected.status_code == 201 and rejected.json["data"]["status"] == "REJECTED"
    assert "No transfer with this reference" in mailbox.last_to("owner@example.com").get_content()
    assert wallet(api, owner) == "250000.50"
    for body, field in (({"amount": "0"}, "amount"), ({"amount": "1.001"}, "amount"), ({"amount": "abc"}, "amount"),
                        ({"currency": "USD"}, "currency"), ({"paidAt": "2099-01-01T00:00:00Z"}, "paidAt"),
                        ({"paidAt": "yesterday"}, "paidAt"), ({"bank": ""}, "bank"),
                        ({"receiptMediaId": "01a20000-0000-7000-8000-000000000000"}, "receiptMediaId")):
        answer = api.post(f"{billing(owner)}/payment-reports", {"amount": "10.00", "bank": "B", "reference": "R2",
                                                                "paidAt": clock.iso(clock.now()), **body}, token=token)
        assert answer.status_code == 400 and field in error_fields(answer), (body, answer.json)


def test_only_administrators_review_and_another_tenants_ids_are_404(api, owner):
    fund(api, owner)
    eve = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]  # not the installation's admin
    stranger = {"token": eve, "org": factories.organization(api, eve, name="Eve", slug="eve")}
    mine = api.get(f"{billing(owner)}/payment-reports", token=owner["token"]).json["data"]["items"][0]
    assert_problem(api.get("/installation/payment-reports", token=stranger["token"]), 403, "not_installation_admin")
    assert_problem(api.post(f"/installation/payment-reports/{mine['id']}/approve", token=stranger["token"]), 403,
                   "not_installation_admin")
    assert_problem(api.get(f"{billing(stranger)}/payment-reports/{mine['id']}", token=stranger["token"]), 404,
                   "payment_report_not_found")
    assert api.get(f"{billing(owner)}/wallet", token=stranger["token"]).status_code in (403, 404)
    assert api.get(f"{billing(stranger)}/wallet", token=stranger["token"]).json["data"]["balance"] == "0.00"
    agent = factories.add_member(api, owner["org"]["id"], "agent", "ag@example.com")
    assert_problem(api.get(f"{billing(owner)}/addons", token=agent), 403, "permission_missing")


def test_the_interval_changes_from_the_next_period(api, owner):
    token, org_id = owner["token"], owner["org"]["id"]
    changed = api.patch(f"{billing(owner)}/interval", {"interval": "YEARLY"}, token=token).json["data"]
    assert changed["interval"] == "MONTHLY" and changed["nextInterval"] == "YEARLY"
    preview = api.post(f"{billing(owner)}/addons/preview", {"addonType": "SEAT", "quantity": 1}, token=token).json["data"]
    assert preview["interval"] == "MONTHLY" and preview["unitPrice"] == "29000.00"
    by_body = api.patch("/billing/interval", {"organizationId": org_id, "interval": "MONTHLY"}, token=token)
    assert by_body.status_code == 200 and by_body.json["data"]["nextInterval"] is None  # the change dropped
    api.patch(f"{billing(owner)}/interval", {"interval": "YEARLY"}, token=token)
    token = until(api, changed["effectiveFrom"])
    now = api.get(f"{billing(owner)}/interval", token=token).json["data"]
    assert (now["interval"], now["nextInterval"]) == ("YEARLY", None)
    preview = api.post(f"{billing(owner)}/addons/preview", {"addonType": "SEAT", "quantity": 1}, token=token).json["data"]
    assert preview["unitPrice"] == "290000.00" and preview["prorationAmount"] == "290000.00"  # a whole year left
    assert_problem(api.patch(f"{billing(owner)}/interval", {"interval": "WEEKLY"}, token=token), 400, "validation_failed")


def test_periods_follow_the_calendar_from_their_anchor():
    anchor = datetime(2026, 1, 31, 10, tzinfo=timezone.utc)
    february = periods.period_at(anchor, "MONTHLY", datetime(2026, 3, 1, tzinfo=timezone.utc))
    assert (february.start, february.end) == (datetime(2026, 2, 28, 10, tzinfo=timezone.utc),
                                              datetime(2026, 3, 31, 10, tzinfo=timezone.utc))
    assert periods.period_at(anchor, "MONTHLY", anchor).start == anchor
    assert periods.period_at(anchor, "YEARLY", anchor + timedelta(days=400)).start == datetime(2027, 1, 31, 10,
                                                                                               tzinfo=timezone.utc)



def test_storage_counts_every_file_and_stops_at_the_blocks_paid(api, owner, monkeypatch):
    from appliance.core import runtime
    from appliance.organizations import entitlements, plans
    monkeypatch.setattr(plans, "storage_block_bytes", lambda: 4000)  # the business plan's 5 blocks: 20,000 bytes
    token, org_id = owner["token"], owner["org"]["id"]

    def note(size: int):
        return api.post(f"/organizations/{org_id}/bot/knowledge/notes", {"title": "Carta", "content": "x" * size},
                        token=token)

    def image(size: int):
        png = b"\x89PNG\r\n\x1a\n" + b"\x00" * (size - 8)
        return api.client.post(f"/organizations/{org_id}/bot/images", data={"file": (io.BytesIO(png), "a.png", "image/png"),
                               "label": "Menú"}, headers={"Authorization": f"Bearer {token}"},
                               content_type="multipart/form-data")

    assert note(9000).status_code == 201
    assert image(9000).status_code == 201
    with runtime.get().db.unit_of_work(write=False) as session:
        assert entitlements.usage(session, org_id) == {"SEAT": 1, "WABA": 0, "STORAGE_BLOCK": 5, "ORGANIZATION": 0}
    full = image(3000)
    assert assert_problem(full, 402, "entitlement_exceeded")["entitlement"] == "STORAGE_BLOCK"
