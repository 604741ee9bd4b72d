"""Issue 47's navigation in a real browser: at 1280 px and on a 390 px phone every page of the
navigation (console/navigation.py) is reached in at most two clicks from any other (a group's menu
and its link on a laptop, the Menu and its link on a phone and in the inbox), and no page is wider
than the window. Each page is screenshotted at both widths (screenshots/nav-*.png)."""

import re

import pytest

from appliance.console.navigation import SECTIONS
from tests.e2e.conftest import out_of_reach, signed_in

SIZES = [pytest.param({"width": 1280, "height": 800}, "en-US", id="laptop-1280"),
         pytest.param({"width": 390, "height": 844}, "es-ES", id="phone-390")]
SIGN_OUT = ".topbar form[action='/sign-out'] button"
# The element is wholly inside the window, and a click at its middle reaches it.
IN_REACH = """(el) => {
    const box = el.getBoundingClientRect();
    const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
    if (!(box.width > 0 && box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height)) return false;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !!hit && (hit === el || el.contains(hit));
}"""


def _targets(page) -> list[str]:
    """Every page the navigation offers, read from the phone's Menu (it lists them all)."""
    return page.eval_on_selector_all("details.nav-menu .nav-sheet a", "links => links.map((a) => a.getAttribute('href'))")


def _go(page, href: str) -> int:
    """Click our way to `href` from the page shown, the way a person would; the clicks it took."""
    menu = page.locator("details.nav-menu")
    if menu.is_visible():
        menu.locator("summary").click()
        link = menu.locator(f".nav-sheet a[href='{href}']")
        clicks = 2
    else:
        top = page.locator(f".nav-bar > a.nav-top[href='{href}']")
        if top.count():
            link, clicks = top, 1
        else:
            group = page.locator("details.nav-group").filter(has=page.locator(f"a[href='{href}']"))
            group.locator("summary").click()
            link, clicks = group.locator(f".nav-panel a[href='{href}']"), 2
    assert link.evaluate(IN_REACH), href
    link.click()
    page.wait_for_url(re.compile(re.escape(href.split("?")[0]) + r"(\?.*)?$"))
    return clicks


@pytest.mark.server_env(APPLIANCE_BILLING="on")  # billing's pages are shown (and walked) only with billing on
@pytest.mark.parametrize("viewport, locale", SIZES)
def test_every_page_is_two_clicks_away_and_fits_the_window(owner_business, chromium, screenshot, viewport, locale):
    base, org_id, _ = owner_business
    width = viewport["width"]
    page = signed_in(chromium, base, f"/console/{org_id}/home", viewport, locale)
    targets = _targets(page)
    # Olga owns the business and administers the installation: she sees Home, the inbox and every section.
    assert len(targets) == 2 + len(SECTIONS), targets
    for href in targets[1:] + targets[:1]:  # the inbox first, home last: each reached from the page before
        assert _go(page, href) <= 2, href
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), href
        assert out_of_reach(page, SIGN_OUT) == [], href
        name = href.replace(org_id, "org").strip("/").replace("/", "-") or "home"
        screenshot(page, f"nav-{width}-{name}", full_page=False)


def test_a_group_menu_closes_on_a_click_elsewhere_and_on_escape(owner_business, chromium):
    base, org_id, _ = owner_business
    page = signed_in(chromium, base, f"/console/{org_id}/home", {"width": 1280, "height": 800}, "en-US")
    customers = page.locator("details.nav-group").filter(has=page.locator("a[href$='/contacts']"))
    team = page.locator("details.nav-group").filter(has=page.locator("a[href$='/team']"))
    customers.locator("summary").click()
    assert customers.get_attribute("open") is not None
    team.locator("summary").click()  # one open at a time
    assert customers.get_attribute("open") is None and team.get_attribute("open") is not None
    page.click("h1")
    assert team.get_attribute("open") is None
    team.locator("summary").click()
    page.keyboard.press("Escape")
    assert team.get_attribute("open") is None
