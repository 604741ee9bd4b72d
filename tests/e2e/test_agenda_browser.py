"""Issue 24's agenda in a real browser on a sandbox server, as a new owner would: she books an
appointment from a free time of Saturday (her business hours from the first run), connects Google
Calendar (the sandbox's Google double: its consent page, Allow), sees the appointment become an
event, makes the ICS feed's address and finds the appointment in it; the week and the calendar
page on a phone."""

from datetime import date, timedelta

import icalendar
import requests

from tests.waiting import eventually
from tests.e2e.conftest import go_to
from tests.e2e.test_console_browser import _browser, _first_run, _phone_at


def _next_saturday() -> date:
    today = date.today()
    return today + timedelta(days=(5 - today.weekday()) % 7 or 7)


def test_an_owner_books_connects_her_calendar_and_subscribes_to_the_feed(sandbox_server, chromium, screenshot):
    base = sandbox_server
    olga = _browser(chromium)
    _first_run(olga, base, screenshot)
    olga.wait_for_selector("text=Your sandbox number is ready")
    org_id = olga.url.split("/console/")[1].split("/")[0]
    go_to(olga, 'Agenda')
    saturday = _next_saturday().isoformat()
    olga.goto(f"{base}/console/{org_id}/agenda?date={saturday}&duration=45")
    olga.click(".slot-list a:has-text('09:00')")
    olga.fill("input[name=title]", "Pedido de torta de cumpleaños")
    olga.fill("textarea[name=notes]", "Retira Ana, 20 personas")
    olga.click("#book button[type=submit]")
    olga.wait_for_selector("text=Appointment booked")
    assert "09:00–09:45" in olga.inner_text(".appointments")
    screenshot(olga, "console-agenda-day")

    olga.click(".subnav a:has-text('Calendar and feed')")
    olga.click("button:has-text('Connect Google Calendar')")
    olga.wait_for_selector("text=Google (sandbox)")  # the double's consent page
    olga.click("button:has-text('Allow')")
    olga.wait_for_selector("text=Google Calendar connected")
    assert "agenda@sandbox.test" in olga.inner_text("main")
    events = eventually(lambda: requests.get(f"{base}/netsim/_control/google", timeout=10).json()["events"],
                        lambda found: bool(found), seconds=15, every=0.2)  # pushed after the connection's commit
    assert [e["summary"] for e in events] == ["Pedido de torta de cumpleaños"]  # what was ahead went along
    olga.click("button:has-text('Make a feed address')")
    feed_url = olga.inner_text("#feed-url")
    screenshot(olga, "console-agenda-calendar")
    answer = requests.get(feed_url, timeout=10)
    assert answer.status_code == 200
    [event] = icalendar.Calendar.from_ical(answer.content).walk("VEVENT")
    assert str(event["SUMMARY"]) == "Pedido de torta de cumpleaños"

    olga.goto(f"{base}/console/{org_id}/agenda?date={saturday}&view=week")
    olga.wait_for_selector(".agenda-week .appointment")
    screenshot(olga, "console-agenda-week")
    phone = _phone_at(chromium, base, f"/console/{org_id}/agenda")
    phone.goto(f"{base}/console/{org_id}/agenda?date={saturday}&view=week")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(phone, "console-agenda-week-phone")
    phone.goto(f"{base}/console/{org_id}/agenda?date={saturday}")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(phone, "console-agenda-day-phone")
