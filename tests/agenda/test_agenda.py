"""Issue 24, parts 5 and 6: the agenda. Appointments booked, moved, cancelled and deleted, never two
at once (409); free slots from business hours minus appointments; the public ICS feed by a token a
new one replaces; Google Calendar connected through OAuth against the double (tokens sealed and
refreshed), appointments pushed as events, busy times blocking slots and bookings, and a revoked
grant shown as disconnected with the reason, pushing stopped."""

from datetime import date, datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

import icalendar
import pytest
import requests
from sqlmodel import select

from appliance.agenda import sync
from appliance.agenda.models import CalendarConnection
from appliance.core import clock, runtime
from appliance.netsim.google_double import ACCOUNT, CLIENT_ID, CLIENT_SECRET
from tests.problems import assert_problem

HOURS = {day: [{"open": "09:00", "close": "13:00"}] for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}


@pytest.fixture
def settings(settings, netsim_url):
    return settings.replace(google_client_id=CLIENT_ID, google_client_secret=CLIENT_SECRET,
                            google_auth_url=f"{netsim_url}/google/o/oauth2/v2/auth",
                            google_token_url=f"{netsim_url}/google/token",
                            google_calendar_url=f"{netsim_url}/google/calendar/v3")


@pytest.fixture
def agenda(line):
    """The owner's calls under /agenda, and the organization open 09:00-13:00 Bogotá every day."""
    def call(method, path, body=None, status=None):
        answer = line.api.client.open(f"/organizations/{line.org_id}/agenda{path}", method=method, json=body,
                                      headers={"Authorization": f"Bearer {line.owner['token']}"})
        if status is not None:
            assert answer.status_code == status, answer.get_json(silent=True)
        return answer
    assert line.api.patch(f"/organizations/{line.org_id}", {"timezone": "America/Bogota", "businessHoursSchedule": HOURS},
                          token=line.owner["token"]).status_code == 200
    call.line = line
    return call


def _tomorrow() -> date:
    return (clock.now().astimezone(timezone(timedelta(hours=-5))) + timedelta(days=1)).date()


def _at(day: date, hhmm: str) -> str:
    return f"{day.isoformat()}T{hhmm}:00-05:00"


def _book(agenda, start, end, title="Corte de pelo", status=201, **fields):
    answer = agenda("POST", "/appointments", {"title": title, "start": start, "end": end, **fields}, status=status)
    return answer.get_json()["data"] if status == 201 else answer


def _google(netsim_url) -> dict:
    return requests.get(f"{netsim_url}/_control/google", timeout=5).json()


def test_appointments_are_booked_moved_and_never_overlap(agenda):
    day = _tomorrow()
    first = _book(agenda, _at(day, "10:00"), _at(day, "10:30"), notes="Con barba")
    assert (first["status"], first["start"], first["syncState"]) == ("BOOKED", f"{day}T15:00:00.000Z", None)
    clash = _book(agenda, _at(day, "10:15"), _at(day, "11:00"), status=409)
    assert_problem(clash, 409, "appointment_overlaps")
    assert clash.get_json()["appointmentId"] == first["id"]
    _book(agenda, _at(day, "10:30"), _at(day, "11:00"), title="Tinte")  # touching is not overlapping
    moved = agenda("PATCH", f"/appointments/{first['id']}", {"start": _at(day, "11:00"), "end": _at(day, "11:30")},
                   status=200).get_json()["data"]
    assert moved["start"] == f"{day}T16:00:00.000Z" and moved["notes"] == "Con barba"
    backwards = agenda("PATCH", f"/appointments/{first['id']}", {"end": _at(day, "10:00")}, status=400)
    assert "end" in backwards.get_json()["errors"]
    assert_problem(agenda("PATCH", f"/appointments/{first['id']}", {"start": _at(day, "10:30"), "end": _at(day, "10:45")}),
                   409, "appointment_overlaps")  # onto "Tinte"
    agenda("PATCH", f"/appointments/{first['id']}", {}, status=400)
    assert agenda("GET", f"/appointments/{first['id']}", status=200).get_json()["data"]["start"] == moved["start"]
    cancelled = agenda("PATCH", f"/appointments/{moved['id']}", {"status": "CANCELLED"}, status=200).get_json()["data"]
    assert cancelled["status"] == "CANCELLED"
    _book(agenda, _at(day, "11:00"), _at(day, "11:30"), title="Otro")  # a cancelled one frees its time
    listed = agenda("GET", f"/appointments?from={day}T00:00:00-05:00&to={day}T23:59:00-05:00", status=200).get_json()["data"]
    assert [a["title"] for a in listed] == ["Tinte", "Corte de pelo", "Otro"]
    agenda("DELETE", f"/appointments/{first['id']}", status=204)
    agenda("GET", f"/appointments/{first['id']}", status=404)


@pytest.mark.parametrize("body, field", [
    ({"title": "x", "start": "2030-01-01T10:00:00Z", "end": "2030-01-01T09:00:00Z"}, "end"),
    ({"title": "x", "start": "2030-01-01T10:00:00Z", "end": "2030-01-09T10:00:00Z"}, "end"),
    ({"title": "", "start": "2030-01-01T10:00:00Z", "end": "2030-01-01T11:00:00Z"}, "title"),
    ({"title": "x", "start": "mañana", "end": "2030-01-01T11:00:00Z"}, "start"),
    ({"title": "x", "start": "2030-01-01T10:00:00Z", "end": "2030-01-01T11:00:00Z", "status": "MAYBE"}, "status"),
    ({"title": "x", "start": "2030-01-01T10:00:00Z", "end": "2030-01-01T11:00:00Z",
      "contactId": "00000000-0000-4000-8000-000000000000"}, "contactId"),
    ({"title": "x", "start": "2030-01-01T10:00:00Z", "end": "2030-01-01T11:00:00Z",
      "assigneeUserId": "00000000-0000-4000-8000-000000000000"}, "assigneeUserId"),
    ({"start": "2030-01-01T10:00:00Z", "end": "2030-01-01T11:00:00Z"}, "title"),
])
def test_bad_appointments_are_refused_with_the_field(agenda, body, field):
    answer = agenda("POST", "/appointments", body, status=400)
    assert field in (answer.get_json().get("errors") or {}), answer.get_json()
    assert agenda("GET", "/appointments", status=200).get_json()["data"] == []


def test_free_slots_are_the_hours_minus_the_appointments(agenda):
    day = _tomorrow()
    _book(agenda, _at(day, "10:00"), _at(day, "11:00"))
    found = agenda("GET", f"/slots?date={day}&durationMin=60", status=200).get_json()["data"]
    starts = [s["start"] for s in found["slots"]]
    # 09:00-13:00 Bogotá, hourly slots every 30 minutes, minus 10:00-11:00 (booked)
    assert starts == [f"{day}T14:00:00.000Z", f"{day}T16:00:00.000Z", f"{day}T16:30:00.000Z", f"{day}T17:00:00.000Z"]
    assert found["busyChecked"] is True and found["timezone"] == "America/Bogota"
    agenda("GET", f"/slots?date={day}&durationMin=1000", status=400)
    agenda("GET", "/slots?date=mañana", status=400)
    past = agenda("GET", f"/slots?date={day - timedelta(days=3)}&durationMin=30", status=200).get_json()["data"]
    assert past["slots"] == []


def test_the_ics_feed_lists_appointments_until_its_token_is_replaced(agenda):
    day = _tomorrow()
    _book(agenda, _at(day, "09:00"), _at(day, "09:45"), title="Manicura; con diseño, \"francés\"")
    url = agenda("POST", "/feed-token", status=201).get_json()["data"]["url"]
    client = agenda.line.api.client
    path = urlsplit(url).path
    answer = client.get(path)
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/calendar")
    [event] = icalendar.Calendar.from_ical(answer.data).walk("VEVENT")
    assert str(event["SUMMARY"]) == "Manicura; con diseño, \"francés\""
    assert event.decoded("DTSTART") == datetime.fromisoformat(_at(day, "09:00"))
    new_url = agenda("POST", "/feed-token", status=201).get_json()["data"]["url"]
    assert_problem(client.get(path), 404, "calendar_feed_not_found")
    assert client.get(urlsplit(new_url).path).status_code == 200
    assert_problem(client.get("/public/agenda/not-a-token/calendar.ics"), 404, "calendar_feed_not_found")


def _connect(agenda, netsim_url):
    status = agenda("GET", "/calendar-provider/status", status=200).get_json()["data"]
    assert (status["connected"], status["available"]) == (False, True)
    consent = agenda("GET", "/calendar-provider/connect", status=200).get_json()["data"]["url"]
    assert consent.startswith(f"{netsim_url}/google/o/oauth2/v2/auth?") and "access_type=offline" in consent
    page = requests.get(consent, timeout=5)
    assert page.status_code == 200 and "Allow" in page.text
    query = parse_qs(urlsplit(consent).query)
    decided = requests.get(f"{netsim_url}/google/o/oauth2/v2/decide", params={
        **{k: v[0] for k, v in query.items()}, "decision": "allow"}, allow_redirects=False, timeout=5)
    back = urlsplit(decided.headers["Location"])
    assert back.path == f"/organizations/{agenda.line.org_id}/agenda/calendar-provider/callback"
    landed = agenda.line.api.client.get(f"{back.path}?{back.query}")
    assert landed.status_code == 302 and landed.headers["Location"].endswith("done=calendar_connected")
    return agenda("GET", "/calendar-provider/status", status=200).get_json()["data"]


def test_google_calendar_connects_pushes_events_and_blocks_busy_times(agenda, netsim_url):
    status = _connect(agenda, netsim_url)
    assert (status["connected"], status["account"], status["pushEnabled"]) == (True, ACCOUNT, True)
    with runtime.get().db.unit_of_work(write=False) as session:
        stored = session.exec(select(CalendarConnection)).one()
        assert stored.refresh_token_sealed and "ya29" not in stored.access_token_sealed  # sealed, never plain

    day = _tomorrow()
    booked = _book(agenda, _at(day, "09:00"), _at(day, "09:30"), title="Consulta")
    [event] = _google(netsim_url)["events"]
    assert event["summary"] == "Consulta" and event["start"]["dateTime"] == f"{day}T14:00:00Z"
    assert agenda("GET", f"/appointments/{booked['id']}", status=200).get_json()["data"]["syncState"] is None
    agenda("PATCH", f"/appointments/{booked['id']}", {"title": "Consulta de control"}, status=200)
    assert _google(netsim_url)["events"][0]["summary"] == "Consulta de control"

    requests.put(f"{netsim_url}/_control/google", json={"busy": [
        {"start": f"{day}T16:00:00Z", "end": f"{day}T17:00:00Z"}]}, timeout=5)
    from appliance.agenda import busy
    busy.forget(agenda.line.org_id)
    starts = [s["start"] for s in agenda("GET", f"/slots?date={day}&durationMin=30", status=200).get_json()["data"]["slots"]]
    assert f"{day}T16:00:00.000Z" not in starts and f"{day}T16:30:00.000Z" not in starts
    assert f"{day}T15:00:00.000Z" in starts and f"{day}T14:00:00.000Z" not in starts  # booked
    assert_problem(_book(agenda, _at(day, "11:15"), _at(day, "11:45"), status=409), 409, "calendar_busy")
    agenda("PATCH", "/calendar-provider", {"blockBusyEnabled": False}, status=200)
    _book(agenda, _at(day, "11:15"), _at(day, "11:45"), title="Aun así")

    agenda("DELETE", f"/appointments/{booked['id']}", status=204)
    assert [e["summary"] for e in _google(netsim_url)["events"]] == ["Aun así"]


def test_a_revoked_grant_disconnects_with_the_reason_and_stops_pushing(agenda, netsim_url):
    _connect(agenda, netsim_url)
    requests.put(f"{netsim_url}/_control/google", json={"revoke": True}, timeout=5)
    day = _tomorrow()
    booked = _book(agenda, _at(day, "12:00"), _at(day, "12:30"))
    status = agenda("GET", "/calendar-provider/status", status=200).get_json()["data"]
    assert status["connected"] is False and "revoked" in status["lastError"]
    assert _google(netsim_url)["events"] == []
    assert agenda("GET", f"/appointments/{booked['id']}", status=200).get_json()["data"]["syncState"] is None
    agenda("PATCH", "/calendar-provider", {"pushEnabled": False}, status=409)


def test_an_expired_access_token_is_refreshed(agenda, netsim_url):
    _connect(agenda, netsim_url)
    requests.put(f"{netsim_url}/_control/google", json={"expireAccessTokens": True}, timeout=5)
    day = _tomorrow()
    _book(agenda, _at(day, "12:00"), _at(day, "12:30"), title="Tras refrescar")
    assert [e["summary"] for e in _google(netsim_url)["events"]] == ["Tras refrescar"]
    calls = [c["path"] for c in _google(netsim_url)["calls"]]
    assert calls.count("/google/calendar/v3/calendars/primary/events") == 2  # refused once, then sent


def test_google_down_keeps_the_change_pending_until_a_later_pass(agenda, netsim_url):
    _connect(agenda, netsim_url)
    requests.put(f"{netsim_url}/_control/google", json={"failNext": [503, 503]}, timeout=5)
    day = _tomorrow()
    booked = _book(agenda, _at(day, "12:00"), _at(day, "12:30"), title="Cuando vuelva")
    shown = agenda("GET", f"/appointments/{booked['id']}", status=200).get_json()["data"]
    assert shown["syncState"] == "pending" and shown["syncError"]
    assert sync.push_pending(runtime.get().db) == 1
    assert agenda("GET", f"/appointments/{booked['id']}", status=200).get_json()["data"]["syncState"] is None
    assert [e["summary"] for e in _google(netsim_url)["events"]] == ["Cuando vuelva"]


def test_the_callback_refuses_a_forged_state_and_a_denied_consent(agenda, netsim_url):
    client = agenda.line.api.client
    base = f"/organizations/{agenda.line.org_id}/agenda/calendar-provider/callback"
    forged = client.get(f"{base}?code=abc&state=eyJvIjoxfQ.deadbeef")
    assert forged.status_code == 302 and forged.headers["Location"].endswith("done=calendar_state_invalid")
    consent = agenda("GET", "/calendar-provider/connect", status=200).get_json()["data"]["url"]
    state = parse_qs(urlsplit(consent).query)["state"][0]
    denied = client.get(f"{base}?error=access_denied&state={state}")
    assert denied.headers["Location"].endswith("done=calendar_refused")
    status = agenda("GET", "/calendar-provider/status", status=200).get_json()["data"]
    assert status["connected"] is False and "access_denied" in status["lastError"]


def test_another_organization_sees_nothing_of_this_agenda(agenda, api):
    day = _tomorrow()
    booked = _book(agenda, _at(day, "09:00"), _at(day, "09:30"))
    token = api.signup(email="otra@example.com")["tokens"]["accessToken"]
    path = f"/organizations/{agenda.line.org_id}/agenda"
    # Someone outside the organization: 403 not_a_member, whether it exists or not (docs/api.md).
    assert_problem(api.get(f"{path}/appointments/{booked['id']}", token=token), 403, "not_a_member")
    assert_problem(api.post(f"{path}/feed-token", {}, token=token), 403, "not_a_member")
    theirs = api.post("/organizations", {"name": "Otra", "slug": "otra", "billingEmail": "b@otra.test"},
                      token=token).json["data"]["id"]
    assert_problem(api.get(f"/organizations/{theirs}/agenda/appointments/{booked['id']}", token=token), 404,
                   "appointment_not_found")


@pytest.mark.parametrize("field", ["contactId", "conversationId", "assigneeUserId"])
def test_a_change_that_keeps_the_times_checks_what_it_names(agenda, api, field):
    """Issue 44, items 11 and 13: a PATCH that did not move the appointment skipped the checks of the
    records it named: another organization's contact was linked, and an id of nobody's was a 500."""
    day = _tomorrow()
    booked = _book(agenda, _at(day, "09:00"), _at(day, "09:30"))
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=eve).json["data"]["id"]
    foreign = {"contactId": lambda: api.post(f"/organizations/{theirs}/contacts", {"waId": "5215599990000"},
                                             token=eve).json["data"]["id"],
               "assigneeUserId": lambda: api.get("/users/me", token=eve).json["data"]["id"],
               "conversationId": lambda: None}[field]()
    for unknown in ["01a20000-0000-7000-8000-000000000000"] + ([foreign] if foreign else []):
        for body in ({field: unknown}, {field: unknown, "title": "Tinte", "notes": "sin cambio de hora"}):
            changed = agenda("PATCH", f"/appointments/{booked['id']}", body)
            assert_problem(changed, 400, "unknown_ids", body)
            assert field in changed.get_json()["errors"]
    assert agenda("GET", f"/appointments/{booked['id']}", status=200).get_json()["data"][field] is None
