"""The console's attendance pages without JavaScript (issue 23): turn attendance on, see the team
now and allow overtime, a day, the report with a preset and compare and its CSV in payroll form,
holidays (one, a country's) and leaves, an agent's mode and own week, correcting a session's end;
the agent starts, pauses and ends a shift from the inbox's header; an agent cannot open the pages."""

import csv
import io

from appliance.core import runtime
from tests import factories
from tests.attendance import history
from tests.browser_forms import csrf_of, sign_in

TZ = "America/Bogota"


def _enable(client, org):
    page = client.get(f"/console/{org}/attendance/settings")
    assert page.status_code == 200 and "Attendance is off" not in page.text  # the rules tab says nothing of it
    form = {"csrf": csrf_of(page), "enabled": "1", "auto_close_enabled": "1", "allow_overtime": "1",
            "inactivity_minutes": "45", "late_grace_min": "5", "early_leave_grace_min": "10",
            "absence_min_worked_min": "60", "worked_counting": "wall-clock", "day_attribution": "start-day",
            "payroll_period": "semimonthly"}
    wrong = client.post(f"/console/{org}/attendance/settings", data=form | {"inactivity_minutes": "1"})
    assert wrong.status_code == 400 and 'aria-invalid="true"' in wrong.text
    saved = client.post(f"/console/{org}/attendance/settings", data=form)
    assert saved.status_code == 302
    return client.get(saved.headers["Location"])


def test_an_owner_runs_attendance_from_the_console(client, api, owner):
    org = owner["org"]["id"]
    api.patch(f"/organizations/{org}", {"timezone": TZ, "businessHoursSchedule": {
        d: [{"open": "09:00", "close": "17:00"}] for d in ("mon", "tue", "wed", "thu", "fri")}}, token=owner["token"])
    agent_token = factories.add_member(api, org, "agent", "luis@example.com")
    luis = api.get("/users/me", token=agent_token).json["data"]["id"]
    monday = history.last_monday(TZ)
    with runtime.get().db.unit_of_work(write=True) as session:
        history.add(session, [history.session_row(org, luis, history.at(monday, "09:20", TZ), [("ONLINE", 480)])])
    sign_in(client, email="owner@example.com")
    assert "Attendance is off" in client.get(f"/console/{org}/attendance").text
    settings = _enable(client, org)
    assert "Saved." in settings.text
    with runtime.get().db.unit_of_work(write=True) as session:
        history.counted_since(session, org)  # Luis joined, and attendance was on, before his Monday

    board = client.get(f"/console/{org}/attendance")
    assert board.status_code == 200 and 'data-agent="Ana"' in board.text  # factories name everyone Ana
    granted = client.post(f"/console/{org}/attendance/overtime/{luis}", data={"csrf": csrf_of(board), "enabled": "1"})
    assert granted.status_code == 302
    assert "Withdraw overtime" in client.get(granted.headers["Location"]).text

    day = client.get(f"/console/{org}/attendance/day?date={monday}")
    assert day.status_code == 200 and "20 min late" in day.text
    assert client.get(f"/console/{org}/attendance/day?date=2026-02-30").status_code == 400

    report = client.get(f"/console/{org}/attendance/report?from={monday}&to={monday}&compare=1")
    assert report.status_code == 200 and "<svg" in report.text and "8 h 00" in report.text
    assert client.get(f"/console/{org}/attendance/report?preset=last-30-days").status_code == 200
    exported = client.get(f"/console/{org}/attendance/report.csv?from={monday}&to={monday}")
    rows = list(csv.DictReader(io.StringIO(exported.data.decode("utf-8-sig"))))
    [row] = [r for r in rows if r["email"] == "luis@example.com"]
    assert (row["worked_hours"], row["expected_hours"], row["late_days"]) == ("8.00", "8.00", "1")

    calendar = client.get(f"/console/{org}/attendance/calendar?year=2026")
    assert "No holidays this year" in calendar.text
    seeded = client.post(f"/console/{org}/attendance/holidays/seed", data={"csrf": csrf_of(calendar), "country": "co",
                                                                           "year": "2026"})
    assert seeded.status_code == 302 and "Navidad" in client.get(f"/console/{org}/attendance/calendar?year=2026").text
    bad = client.post(f"/console/{org}/attendance/leaves", data={"csrf": csrf_of(calendar), "agent_user_id": luis,
                                                                 "type": "VACATION", "start_date": "2026-12-20",
                                                                 "end_date": "2026-12-10"})
    assert bad.status_code == 400 and "ends before it starts" in bad.text
    leave = client.post(f"/console/{org}/attendance/leaves", data={"csrf": csrf_of(calendar), "agent_user_id": luis,
                                                                   "type": "VACATION", "start_date": "2026-12-20",
                                                                   "end_date": "2026-12-24", "note": "Playa"})
    assert leave.status_code == 302 and "Playa" in client.get(f"/console/{org}/attendance/calendar").text

    agent_page = client.get(f"/console/{org}/attendance/agents/{luis}")
    assert agent_page.status_code == 200 and f"{monday} 09:20" in agent_page.text
    mode = client.post(f"/console/{org}/attendance/agents/{luis}/mode", data={
        "csrf": csrf_of(agent_page), "work_mode": "FIXED", "own": "1", "hours-sat-open": "1", "hours-sat-from": "08:00",
        "hours-sat-to": "12:00"})
    assert mode.status_code == 302
    modes = api.get(f"/organizations/{org}/attendance/work-modes", token=api.login("owner@example.com")["tokens"]["accessToken"]).json["data"]
    assert next(m for m in modes if m["agentUserId"] == luis)["schedule"] == {"sat": [{"open": "08:00", "close": "12:00"}]}
    session_id = agent_page.text.split("/attendance/sessions/")[1].split("/")[0]
    corrected = client.post(f"/console/{org}/attendance/sessions/{session_id}/end", data={
        "csrf": csrf_of(agent_page), "ended_at": f"{monday}T13:20"})
    assert corrected.status_code == 302
    assert "4 h 00" in client.get(corrected.headers["Location"]).text


def test_an_agent_works_the_shift_from_the_inbox_header(client, api, owner):
    org = owner["org"]["id"]
    api.patch(f"/organizations/{org}/attendance/settings", {"enabled": True, "requireJornadaForInbox": True},
              token=owner["token"])
    factories.add_member(api, org, "agent", "luis@example.com")
    sign_in(client, email="luis@example.com")
    inbox = client.get(f"/inbox/{org}")
    assert "Start shift" in inbox.text and "Start your shift to reply" in inbox.text
    started = client.post(f"/inbox/{org}/shift/start", data={"csrf": csrf_of(inbox)})
    assert started.status_code == 303
    working = client.get(started.headers["Location"])
    assert "End shift" in working.text and "Start your shift to reply" not in working.text
    client.post(f"/inbox/{org}/shift/status", data={"csrf": csrf_of(working), "status": "LUNCH"})
    assert 'shift-dot status-LUNCH' in client.get(f"/inbox/{org}").text
    wrong = client.post(f"/inbox/{org}/shift/status", data={"csrf": csrf_of(working), "status": "NAP"})
    assert "Pick a status" in client.get(wrong.headers["Location"]).text
    ended = client.post(f"/inbox/{org}/shift/end", data={"csrf": csrf_of(working), "note": "Todo listo"})
    assert "Start shift" in client.get(ended.headers["Location"]).text
    me = api.login("luis@example.com")["tokens"]["accessToken"]
    [session] = api.get(f"/organizations/{org}/attendance/sessions", token=me).json["data"]
    assert session["note"] == "Todo listo" and [s["status"] for s in session["timeline"]] == ["ONLINE", "LUNCH"]
    assert client.get(f"/console/{org}/attendance").status_code == 403


def test_pages_that_draw_a_shift_in_progress_only_read(app, client, api, owner):
    """Issue 44, item 12: an agent's attendance page (and, once a minute had passed, the inbox's
    shift control) answered 500 "attempt to write a readonly database": the totals drawn up to now
    were set on the loaded session and written by the next query of the reading unit."""
    from appliance.core import clock

    org = owner["org"]["id"]
    api.patch(f"/organizations/{org}/attendance/settings", {"enabled": True}, token=owner["token"])
    agent = factories.add_member(api, org, "agent", "luis@example.com")
    luis = api.get("/users/me", token=agent).json["data"]["id"]
    assert api.post(f"/organizations/{org}/attendance/start", {}, token=agent).status_code == 201
    clock.advance(10 * 60)  # the totals up to now differ from the stored ones
    sign_in(client, email="owner@example.com")
    for path in (f"/console/{org}/attendance/agents/{luis}", f"/console/{org}/attendance", f"/inbox/{org}"):
        assert client.get(path).status_code == 200, path
    agents_browser = app.test_client()
    sign_in(agents_browser, email="luis@example.com")
    assert "End shift" in agents_browser.get(f"/inbox/{org}").text
