"""The Billing page and the administrators' payment reports, without JavaScript (APPLIANCE_BILLING
on, the Wompi double as the processor): usage against what is paid for, a transfer reported and
approved, an add-on bought for exactly the amount its preview showed, a Nequi request followed
until it is accepted; the page hidden and refused where it should be."""

import re

import pytest

from tests import factories
from tests.billing.test_payments import deliver, events, settle
from tests.browser_forms import csrf_of, sign_in


@pytest.fixture
def settings(settings, netsim_url, simulator):
    state = simulator.wompi
    return settings.replace(billing="on", wompi_url=f"{netsim_url}/wompi/v1", wompi_public_key=state.public_key,
                            wompi_private_key=state.private_key, wompi_events_secret=state.events_secret,
                            wompi_integrity_secret=state.integrity_secret)


def test_the_owner_funds_the_wallet_and_buys_seats_for_the_previewed_amount(client, owner, api, netsim_url):
    org_id = owner["org"]["id"]
    page_path = f"/console/{org_id}/billing"
    sign_in(client, email="owner@example.com")
    page = client.get(page_path)
    assert page.status_code == 200 and 'data-kind="SEAT"' in page.text and "1 of 5" in page.text
    assert "connect-src 'self' http://127.0.0.1:" in page.headers["Content-Security-Policy"]
    assert f'href="{page_path}"' in page.text  # in the navigation

    reported = client.post(f"{page_path}/reports", data={"csrf": csrf_of(page), "amount": "150000", "bank": "Bancolombia",
                                                         "reference": "TRX-77", "paidOn": "2026-11-20"})
    assert reported.status_code == 302 and "done=reported" in reported.headers["Location"]
    reviews = client.get("/console/payment-reports")
    report_id = re.search(r'data-report="([^"]+)"', reviews.text).group(1)
    approved = client.post(f"/console/payment-reports/{report_id}/approve", data={"csrf": csrf_of(reviews)})
    assert approved.status_code == 302 and "done=approved" in approved.headers["Location"]
    page = client.get(page_path)
    assert "150000.00 COP" in page.text

    shown = client.post(f"{page_path}/addons/preview", data={"csrf": csrf_of(page), "addonType": "SEAT", "quantity": "2"})
    assert shown.status_code == 200 and "data-preview" in shown.text
    amount = re.search(r"Confirm and pay ([\d.]+) COP", shown.text).group(1)
    at = re.search(r'name="prorationAt" value="([^"]+)"', shown.text).group(1)
    confirmed = client.post(f"{page_path}/addons", data={"csrf": csrf_of(shown), "addonType": "SEAT", "quantity": "2",
                                                         "prorationAt": at})
    assert confirmed.status_code == 302 and "done=addon_changed" in confirmed.headers["Location"]
    wallet = api.get(f"/organizations/{org_id}/billing/wallet", token=owner["token"]).json["data"]
    assert wallet["entries"][0]["amount"] == f"-{amount}"
    assert "1 of 7" in client.get(page_path).text

    from appliance.billing import tasks
    tasks.billing_minute_check.call_local()  # the period's invoice, paid from the wallet
    pdf_link = re.search(r'href="([^"]+\.pdf)" data-invoice-pdf', client.get(page_path).text).group(1)
    pdf = client.get(pdf_link)
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")

    bad = client.post(f"{page_path}/addons/preview", data={"csrf": csrf_of(page), "addonType": "SEAT", "quantity": "x"})
    assert bad.status_code == 400

    page = client.get(page_path)
    asked = client.post(f"{page_path}/nequi", data={"csrf": csrf_of(page), "phoneNumber": "399 111 1111", "amount": "20000"})
    assert asked.status_code == 302 and "done=nequi_sent" in asked.headers["Location"]
    waiting = client.get(page_path)
    assert 'data-live-every="5"' in waiting.text and "Waiting for you to accept it in Nequi" in waiting.text
    settle(netsim_url)
    for event in events(netsim_url):
        deliver(api, event)
    done = client.get(page_path)
    assert "Accepted: credited" in done.text and 'data-live-every' not in done.text


def test_an_agent_neither_sees_nor_opens_billing_and_only_administrators_review(client, owner, api):
    org_id = owner["org"]["id"]
    factories.add_member(api, org_id, "agent", "ag@example.com")
    sign_in(client, email="ag@example.com")
    home = client.get(f"/console/{org_id}")
    assert f"/console/{org_id}/billing" not in home.text
    assert client.get(f"/console/{org_id}/billing").status_code == 403
    assert client.get("/console/payment-reports").status_code == 403
