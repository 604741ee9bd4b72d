"""The console's agenda without JavaScript (issue 24): the day shows the free times of the business
hours; one links to the booking form filled; a booking with a mistake comes back by field with
what was typed; a clash says why; done, cancel and delete; the week shows it; the calendar page
makes a feed address shown once, offers no Google connection when none is configured; agents book
too."""

from datetime import date, timedelta

from tests import factories
from tests.browser_forms import csrf_of, sign_in

HOURS = {day: [{"open": "09:00", "close": "12:00"}] for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}


def test_an_owner_books_from_a_free_time_and_manages_it(client, line):
    org = line.org_id
    assert line.api.patch(f"/organizations/{org}", {"timezone": "UTC", "businessHoursSchedule": HOURS},
                          token=line.owner["token"]).status_code == 200
    sign_in(client, email="owner@example.com")
    day = (date.today() + timedelta(days=2)).isoformat()
    page = client.get(f"/console/{org}/agenda?date={day}&duration=60")
    assert page.status_code == 200 and "Nothing booked" in page.text
    assert f"date={day}&amp;duration=60&amp;time=09:00#book" in page.text  # free times fill the form
    filled = client.get(f"/console/{org}/agenda?date={day}&duration=60&time=10:00")
    assert 'name="time" required step="300" value="10:00"' in filled.text

    form = {"csrf": csrf_of(page), "title": "", "date": day, "time": "10:00", "duration": "60", "notes": "Primera vez"}
    wrong = client.post(f"/console/{org}/agenda", data=form)
    assert wrong.status_code == 400 and 'aria-invalid="true"' in wrong.text and "Primera vez" in wrong.text
    booked = client.post(f"/console/{org}/agenda", data=form | {"title": "Corte de pelo"})
    assert booked.status_code == 302
    shown = client.get(booked.headers["Location"])
    assert "Appointment booked" in shown.text and "10:00–11:00" in shown.text and "Corte de pelo" in shown.text
    assert "time=10:00#book" not in shown.text  # no longer free
    clash = client.post(f"/console/{org}/agenda", data=form | {"title": "Otro", "time": "10:30"})
    assert clash.status_code == 409 and "Another appointment is booked at that time" in clash.text
    bad_time = client.post(f"/console/{org}/agenda", data=form | {"title": "Otro", "time": "25:99"})
    assert bad_time.status_code == 400

    appointment_id = shown.text.split('data-appointment="')[1].split('"')[0]
    done = client.post(f"/console/{org}/agenda/{appointment_id}?date={day}", data={"csrf": csrf_of(shown), "action": "done"})
    assert "Marked done" in client.get(done.headers["Location"]).text
    week = client.get(f"/console/{org}/agenda?date={day}&view=week")
    assert "Corte de pelo" in week.text and "status-done" in week.text
    deleted = client.post(f"/console/{org}/agenda/{appointment_id}?date={day}", data={"csrf": csrf_of(shown), "action": "delete"})
    assert "Nothing booked" in client.get(deleted.headers["Location"]).text


def test_the_calendar_page_makes_a_feed_address_once(client, line):
    org = line.org_id
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org}/agenda/calendar")
    assert "No feed address yet" in page.text and "is not set up on this appliance" in page.text
    made = client.post(f"/console/{org}/agenda/feed", data={"csrf": csrf_of(page)})
    assert made.status_code == 200 and made.headers["Cache-Control"] == "no-store"
    url = made.text.split('id="feed-url" class="short-url">')[1].split("<")[0]
    path = url.split("http://appliance.test")[1]
    assert client.get(path).status_code == 200
    again = client.get(f"/console/{org}/agenda/calendar")
    assert "A feed address exists" in again.text and url not in again.text


def test_an_agent_books_too(client, api, line):
    """Agents hold calendar:read and calendar:write (they book for their customers)."""
    factories.add_member(api, line.org_id, "agent", "agente@example.com")
    sign_in(client, email="agente@example.com")
    page = client.get(f"/console/{line.org_id}/agenda")
    assert page.status_code == 200 and "Book an appointment" in page.text  # agents book (calendar:write)
    calendar = client.get(f"/console/{line.org_id}/agenda/calendar")
    assert calendar.status_code == 200
