"""The installation administrators' pages (console/hosting.py), without JavaScript and with billing
on: a transfer reported on the Billing page with its receipt, which the reviewer opens; the hosted
organizations with what they owe, one organization's plan changed and a suspension made and lifted;
the plans' catalog; all of it refused to anyone else."""

import io
import re

import pytest

from tests import factories
from tests.browser_forms import csrf_of, sign_in

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


@pytest.fixture
def settings(settings):
    return settings.replace(billing="on", org_quota=10)


def test_a_transfer_reported_with_its_receipt_is_reviewed_with_it(client, owner):
    page_path = f"/console/{owner['org']['id']}/billing"
    sign_in(client, email="owner@example.com")
    page = client.get(page_path)
    assert 'enctype="multipart/form-data"' in page.text and 'name="file"' in page.text
    fields = {"csrf": csrf_of(page), "amount": "90000", "bank": "Davivienda", "paidOn": "2026-11-20"}
    refused = client.post(f"{page_path}/reports", data={**fields, "reference": "T-1",
                                                        "file": (io.BytesIO(b"not a picture"), "receipt.txt")},
                          content_type="multipart/form-data")
    assert refused.status_code == 400 and "JPG, PNG or WEBP picture, or a PDF" in refused.text
    reported = client.post(f"{page_path}/reports", data={**fields, "reference": "T-2",
                                                         "file": (io.BytesIO(PNG), "voucher.png")},
                           content_type="multipart/form-data")
    assert reported.status_code == 302 and "done=reported" in reported.headers["Location"]
    assert "receipt attached" in client.get(page_path).text
    without = client.post(f"{page_path}/reports", data={**fields, "reference": "T-3"})  # a receipt is optional
    assert without.status_code == 302

    reviews = client.get("/console/payment-reports")
    assert reviews.text.count("data-receipt") == 1 and "No receipt attached." in reviews.text
    receipt = client.get(re.search(r'href="([^"]+/receipt)" [^>]*data-receipt', reviews.text).group(1))
    assert receipt.status_code == 200 and receipt.mimetype == "image/png" and receipt.data == PNG
    assert receipt.headers["X-Content-Type-Options"] == "nosniff"


def test_the_hosted_organizations_their_state_and_the_plans(client, owner, api):
    other = factories.organization(api, owner["token"], name="Zapatería Sur", slug="zapateria-sur")
    from appliance.billing import tasks
    tasks.billing_minute_check.call_local()  # neither wallet covers its invoice: both owe
    sign_in(client, email="owner@example.com")
    listed = client.get("/console/installation/organizations")
    assert listed.status_code == 200 and "Zapatería Sur" in listed.text and "189000.00 COP" in listed.text
    assert 'href="/console/installation/plans"' in listed.text  # the section's pages, in the navigation
    assert "payment failed" in listed.text
    found = client.get("/console/installation/organizations?q=zapat")
    assert found.text.count("data-organization=") == 1
    assert "No organization matches" in client.get("/console/installation/organizations?q=nobody").text

    detail_path = f"/console/installation/organizations/{other['id']}"
    detail = client.get(detail_path)
    assert detail.status_code == 200 and "billing@zapateria-sur.test" in detail.text
    changed = client.post(f"{detail_path}/plan", data={"csrf": csrf_of(detail), "planSlug": "free"})
    assert changed.status_code == 302 and "done=plan_changed" in changed.headers["Location"]
    assert api.get(f"/organizations/{other['id']}", token=owner["token"]).json["data"]["planSlug"] == "free"
    bad = client.post(f"{detail_path}/plan", data={"csrf": csrf_of(detail), "planSlug": "gold"})
    assert bad.status_code == 400

    suspended = client.post(f"{detail_path}/suspension", data={"csrf": csrf_of(detail), "suspended": "true",
                                                               "reason": "Contract under review"})
    assert suspended.status_code == 302
    detail = client.get(detail_path)
    assert "Contract under review" in detail.text and "Lift the suspension" in detail.text
    client.post(f"{detail_path}/suspension", data={"csrf": csrf_of(detail), "suspended": "false"})
    assert "Lift the suspension" not in client.get(detail_path).text

    plans = client.get("/console/installation/plans")
    assert plans.status_code == 200 and 'data-plan="business"' in plans.text and "189000.00 COP" in plans.text
    assert 'data-addon="SEAT"' in plans.text and "Broadcasts" in plans.text


def test_nobody_else_opens_them(client, owner, api):
    factories.person(api, email="eve@example.com")
    sign_in(client, email="eve@example.com")
    for path in ("/console/installation/organizations", f"/console/installation/organizations/{owner['org']['id']}",
                 "/console/installation/plans", "/console/payment-reports"):
        assert client.get(path).status_code == 403, path
