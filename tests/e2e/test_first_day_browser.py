"""Issue 43 in a real browser, on a sandbox server. Item 12: at 1280 px and on a 390 px phone every
section of the console's bar, sign-out, and the inbox's shift status menu are on screen and are what
a click there reaches (the bar was 1,679 px wide: five sections off a laptop's screen; on a phone a
started shift pushed sign-out off and the status menu ran off the left edge). Item 15d: the upload
and CSV pages run their script without an error after an upload (the answer page, written in place,
ran console.js a second time in the same window)."""

import pytest
import requests

from tests.e2e.conftest import out_of_reach as _out_of_reach, signed_in as _signed_in

SIZES = [pytest.param({"width": 1280, "height": 800}, "en-US", id="laptop-1280"),
         pytest.param({"width": 390, "height": 844}, "es-ES", id="phone-390")]
SIGN_OUT = ".topbar form[action='/sign-out'] button"


@pytest.mark.parametrize("viewport, locale", SIZES)
def test_sign_out_and_the_status_menu_are_within_reach_in_the_inbox(owner_business, chromium, screenshot, viewport, locale):
    """(Every console page two clicks away at both widths: tests/e2e/test_navigation_browser.py.)"""
    base, org_id, _ = owner_business
    width = viewport["width"]
    page = _signed_in(chromium, base, f"/inbox/{org_id}", viewport, locale)
    page.goto(f"{base}/inbox/{org_id}")
    if page.locator("button.shift-start").count():
        page.click("button.shift-start")
    page.wait_for_selector("details.shift summary .status-ONLINE")
    assert _out_of_reach(page, "details.shift > summary") == []
    assert _out_of_reach(page, SIGN_OUT) == []
    assert _out_of_reach(page, ".topbar .nav-menu > summary") == []
    page.click("details.shift > summary")
    page.wait_for_selector(".shift-menu .shift-statuses button[value=LUNCH]")
    assert _out_of_reach(page, ".shift-menu") == []
    assert _out_of_reach(page, ".shift-menu .shift-statuses button") == []
    assert _out_of_reach(page, ".shift-menu .shift-end button") == []
    screenshot(page, f"first-day-inbox-status-menu-{width}", full_page=False)
    page.click(".shift-menu button[value=LUNCH]")
    page.wait_for_selector("details.shift summary .status-LUNCH")
    page.locator(SIGN_OUT).click()
    page.wait_for_url("**/sign-in**")


def test_the_upload_and_csv_pages_run_their_script_without_an_error(owner_business, chromium, tmp_path):
    base, org_id, auth = owner_business
    contact_list = requests.post(f"{base}/organizations/{org_id}/contact-lists", json={"name": "Clientes"},
                                 headers=auth, timeout=10).json()["data"]
    page = _signed_in(chromium, base, f"/console/{org_id}/contacts/lists/{contact_list['id']}/import",
                      {"width": 1280, "height": 800}, "en-US")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    csv_file = tmp_path / "clientes.csv"
    csv_file.write_text("telefono,nombre\n+57 300 111 2222,Ana\n+57 310 555 0000,Carla\n")
    page.set_input_files("form[data-upload-progress] input[type=file]", str(csv_file))
    page.click("form[data-upload-progress] button[type=submit]")
    page.wait_for_selector("form[data-busy] button[type=submit]")  # the preview, written in place
    page.click("form[data-busy] button[type=submit]")
    page.wait_for_selector("#done-title")

    page.goto(f"{base}/console/{org_id}/bot/knowledge")
    note = tmp_path / "envios.txt"
    note.write_text("Enviamos a toda la ciudad de 8 a 18 h. El envío cuesta 5.000 pesos.")
    page.set_input_files("form[data-upload-progress] input[type=file]", str(note))
    page.click("form[data-upload-progress] button[type=submit]")
    page.wait_for_selector("text=envios.txt")
    page.wait_for_load_state("load")
    assert errors == []
    assert page.evaluate("document.documentElement.classList.contains('js')")  # the written page's script ran


def test_the_first_run_takes_the_time_zone_from_the_country_not_the_browser(chromium, appliance):
    """A Mexican owner setting up from a laptop on UTC gets Mexico City's zone; a zone typed by hand
    is left alone when the country changes after it."""
    base = appliance.base_url
    page = chromium.new_context(locale="es-ES", timezone_id="UTC").new_page()
    page.goto(base + "/setup")
    assert page.input_value("input[name=timezone]") == ""  # not the browser's UTC
    page.select_option("select[name=country]", "MX")
    assert page.input_value("input[name=timezone]") == "America/Mexico_City"
    page.select_option("select[name=country]", "CO")
    assert page.input_value("input[name=timezone]") == "America/Bogota"  # still following the country
    page.fill("input[name=timezone]", "America/Tijuana")
    page.select_option("select[name=country]", "MX")
    assert page.input_value("input[name=timezone]") == "America/Tijuana"  # the person's own choice stays
