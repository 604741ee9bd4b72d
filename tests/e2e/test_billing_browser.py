"""Billing as an owner lives it, in a real Chromium (APPLIANCE_BILLING on, the Wompi double as the
processor): a declined test card leads to the unpaid banner, then, 7 days on, the suspension, which
a bank transfer the administrator approves lifts at once; then a test card added through the
processor's token (the number never reaches the appliance), two seats bought for exactly the
amount the preview showed, and a Nequi top-up followed until it is accepted. The app runs in this
process on a real port, so the test moves its clock; the billing round is the worker's own task."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
import requests
from playwright.sync_api import expect

from appliance.billing import tasks
from appliance.core import clock
from tests.billing.test_wompi import control
from tests.e2e.conftest import out_of_reach
from tests.fixtures.local_server import waitress_serving

PASSWORD = "correct horse battery"


def _receipt() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (240, 120), "white").save(out, "PNG")
    return out.getvalue()


RECEIPT = _receipt()  # a bank voucher's photo, as a phone would attach it
LAPTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


@pytest.fixture
def settings(settings, netsim_url, simulator):
    state = simulator.wompi
    return settings.replace(billing="on", wompi_url=f"{netsim_url}/wompi/v1", wompi_public_key=state.public_key,
                            wompi_private_key=state.private_key, wompi_events_secret=state.events_secret,
                            wompi_integrity_secret=state.integrity_secret)


@pytest.fixture
def served(app, netsim_url):
    """The test's app on a real port (its clock is this process's); the double posts its events there."""
    with waitress_serving(app, threads=8) as base:
        control(netsim_url, eventsUrl=f"{base}/billing/wompi/events")
        yield base


def billing_round() -> None:
    tasks.billing_minute_check.call_local()


def signed_in(chromium, base: str, path: str, viewport: dict, locale: str = "en-US"):
    page = chromium.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(f"{base}/sign-in?next={path}")
    page.fill("input[name=email]", "owner@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{path}")
    return page


def add_card(page, number: str) -> None:
    page.locator("summary:has-text('Add a card')").click()
    page.fill("[data-card=number]", number)
    page.fill("[data-card=exp_month]", "08")
    page.fill("[data-card=exp_year]", "31")
    page.fill("[data-card=cvc]", "123")
    page.fill("[data-card=card_holder]", "Olga Restrepo")
    page.fill("[data-card-form] input[name=email]", "owner@example.com")
    page.click("[data-card-form] button[type=submit]")
    page.wait_for_url("**done=card_added**")


def settle(netsim_url: str, status: str | None = None) -> None:
    """The processor ends what is pending (the bank answers, the person accepts in Nequi)."""
    body = {"status": status} if status else {}
    assert requests.post(f"{netsim_url}/_control/wompi/settle", json=body, timeout=10).status_code == 200


def balance(page) -> Decimal:
    return Decimal(page.locator("[data-wallet-balance]").inner_text().split()[0])


def test_an_owner_is_suspended_for_a_declined_card_pays_and_buys_seats(owner, served, netsim_url, chromium, screenshot):
    org_id = owner["org"]["id"]
    path = f"/console/{org_id}/billing"
    page = signed_in(chromium, served, path, LAPTOP)
    expect(page.locator("[data-usage] [data-kind=SEAT]")).to_contain_text("1 of 5")
    screenshot(page, "billing-empty")

    # A card the bank declines, with auto-pay: the period's invoice is tried on it and fails.
    add_card(page, "4111 1111 1111 1111")
    expect(page.locator("[data-cards]")).to_contain_text("1111")
    page.check("input[name=enabled]")
    page.click("form[action$='/auto-pay'] button")
    page.wait_for_url("**done=auto_pay_saved**")
    billing_round()
    settle(netsim_url)  # declined: its event reaches the app
    page.goto(f"{served}{path}")
    expect(page.locator("[data-billing-banner=unpaid]")).to_be_visible()
    screenshot(page, "billing-unpaid-banner")

    # Seven days past due: suspended. The inbox still reads; the banner says why and what lifts it.
    clock.advance(7 * 86400 + 120)
    billing_round()
    page.goto(f"{served}{path}")
    expect(page.locator("[data-billing-banner=suspended]")).to_be_visible()
    screenshot(page, "billing-suspended")
    page.goto(f"{served}/console/{org_id}/contacts")  # every page says so, with the way to Billing
    expect(page.locator("[data-billing-notice=suspended] a")).to_have_attribute("href", path)
    page.click("[data-billing-notice=suspended] a")

    # A bank transfer, approved by the administrator (the same person here): paid, lifted at once.
    page.fill("form[action$='/reports'] input[name=amount]", "500000")
    page.fill("form[action$='/reports'] input[name=bank]", "Bancolombia")
    page.fill("form[action$='/reports'] input[name=reference]", "TRX-20261128")
    page.set_input_files("form[action$='/reports'] input[name=file]",
                         {"name": "comprobante.png", "mimeType": "image/png", "buffer": RECEIPT})
    page.click("form[action$='/reports'] button")
    page.wait_for_selector("text=Reported: an administrator reviews it.")

    # The administrator's Hosting pages: the organization owing and suspended, the plans.
    page.goto(f"{served}/console/installation/organizations")
    row = page.locator(f"tr[data-organization='{org_id}']")
    expect(row).to_contain_text("Suspended")
    expect(row).to_contain_text("payment failed")
    screenshot(page, "hosting-organizations")
    row.locator("a").click()
    expect(page.locator("[data-suspension]")).to_contain_text("an invoice is 7 days past due")
    screenshot(page, "hosting-organization")
    page.goto(f"{served}/console/installation/plans")
    expect(page.locator("[data-plan=business]")).to_contain_text("189000.00 COP")
    screenshot(page, "hosting-plans")
    page.goto(f"{served}/console/payment-reports")
    expect(page.locator("[data-receipt] img")).to_be_visible()  # the voucher beside what to check it against
    assert page.evaluate("document.querySelector('[data-receipt] img').naturalWidth") == 240
    receipt = page.request.get(served + page.get_attribute("[data-receipt]", "href"))
    assert receipt.headers["content-type"] == "image/png" and receipt.body() == RECEIPT
    screenshot(page, "billing-payment-reports")
    page.click("[data-approve]")
    page.wait_for_url("**done=approved**")
    page.goto(f"{served}{path}")
    expect(page.locator("[data-billing-banner]")).to_have_count(0)
    assert balance(page) == Decimal("311000.00")  # 500,000 less the 189,000 invoice

    # A card that works, then two more seats for exactly what the preview shows.
    add_card(page, "4242 4242 4242 4242")
    row = page.locator("tr[data-addon=SEAT]")
    row.locator("input[name=quantity]").fill("2")
    row.locator("button").click()
    shown = page.locator("[data-proration]").inner_text()
    amount = Decimal(re.search(r"([\d.]+) COP", shown).group(1))
    screenshot(page, "billing-addon-preview")
    page.click("[data-confirm-addon]")
    page.wait_for_url("**done=addon_changed**")
    assert balance(page) == Decimal("311000.00") - amount
    expect(page.locator("[data-usage] [data-kind=SEAT]")).to_contain_text("1 of 7")

    # Nequi: the request waits for the person; the page follows it until it is accepted.
    page.fill("form[action$='/nequi'] input[name=phoneNumber]", "3991111111")
    page.fill("form[action$='/nequi'] input[name=amount]", "20000")
    page.click("form[action$='/nequi'] button")
    page.wait_for_url("**done=nequi_sent**")
    expect(page.locator("[data-nequi-pushes]")).to_contain_text("Waiting for you to accept it in Nequi")
    settle(netsim_url)
    expect(page.locator("[data-nequi-pushes]")).to_contain_text("Accepted: credited", timeout=20000)
    assert balance(page) == Decimal("331000.00") - amount
    screenshot(page, "billing")

    phone = signed_in(chromium, served, path, PHONE, locale="es-CO")
    expect(phone.locator("h1")).to_have_text("Facturación")
    assert out_of_reach(phone, "h1") == []
    # Nothing wider than the phone: every table and form fits or scrolls inside its own box.
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(phone, "billing-phone-es")
    phone.goto(f"{served}/console/installation/organizations")
    expect(phone.locator("h1")).to_have_text("Organizaciones")
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(phone, "hosting-organizations-phone-es")
