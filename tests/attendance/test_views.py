"""Issue 23, parts 2-4: the rules applied to days. Late, early leave, absence and extra against the
expected shift; holidays and leaves; FIXED and HOURLY; counting wall-clock or within the shift with
overtime; sessions across midnight; daylight saving; the report with compare; presets."""

from datetime import date, timedelta

import pytest

from appliance.core import runtime
from tests.attendance import history
from tests.attendance.test_sessions import HOURS, base, turn_on
from tests.factories import add_member
from tests.problems import assert_problem, error_fields

TZ = "America/Bogota"


def member_id(api, token):
    return api.get("/users/me", token=token).json["data"]["id"]


def write(rows):
    with runtime.get().db.unit_of_work(write=True) as session:
        history.add(session, rows)


@pytest.fixture
def team(api, owner):
    turn_on(api, owner)
    org = owner["org"]["id"]
    people = {name: add_member(api, org, "agent", f"{name}@example.com") for name in ("ana", "beto", "caro", "dani")}
    with runtime.get().db.unit_of_work(write=True) as session:
        history.counted_since(session, org)  # the team's history is judged (the rule's own tests are below)
    return {name: member_id(api, token) for name, token in people.items()} | {"tokens": people}


def test_the_day_judges_each_agent_against_the_shift(api, owner, team):
    monday = history.last_monday(TZ)
    org = owner["org"]["id"]
    write([
        history.session_row(org, team["ana"], history.at(monday, "08:55", TZ), [("ONLINE", 185), ("LUNCH", 60), ("ONLINE", 240)]),
        history.session_row(org, team["beto"], history.at(monday, "09:25", TZ), [("ONLINE", 200), ("BREAK", 15), ("ONLINE", 300)]),
        history.session_row(org, team["caro"], history.at(monday, "09:00", TZ), [("ONLINE", 20)]),
    ])
    api.post(f"{base(owner)}/leaves", {"agentUserId": team["dani"], "type": "SICK", "startDate": monday.isoformat(),
                                      "endDate": monday.isoformat()}, token=owner["token"])
    answer = api.get(f"{base(owner)}/day?date={monday.isoformat()}", token=owner["token"])
    assert answer.status_code == 200, answer.json
    rows = {a["agentUserId"]: a for a in answer.json["data"]["agents"]}
    assert owner_not_listed(api, owner, rows)
    ana, beto, caro, dani = (rows[team[name]] for name in ("ana", "beto", "caro", "dani"))
    assert (ana["present"], ana["late"], ana["absent"], ana["earlyLeave"], ana["expectedMin"], ana["wallMin"]) == (
        True, False, False, False, 480, 425)
    assert (beto["late"], beto["lateMinutes"], beto["extraMin"], beto["wallMin"]) == (True, 25, 60, 515)  # in until 18:00
    assert (caro["present"], caro["absent"], caro["earlyLeave"]) == (True, True, True)
    assert (dani["onLeave"], dani["absent"], dani["expectedMin"]) == ("SICK", False, 0)
    assert answer.json["data"]["summary"] == {"present": 3, "late": 1, "absent": 1, "onLeave": 1, "extraMin": 65}  # Ana came at 08:55


def owner_not_listed(api, owner, rows) -> bool:
    return member_id(api, owner["token"]) not in rows  # the owner manages attendance and never clocked in


def test_the_report_counts_holidays_leaves_hourly_and_compares(api, owner, team):
    monday = history.last_monday(TZ)
    org, token = owner["org"]["id"], owner["token"]
    week = [monday + timedelta(days=n) for n in range(5)]
    rows = [history.session_row(org, team["ana"], history.at(day, "09:00", TZ), [("ONLINE", 480)]) for day in week]
    rows += [history.session_row(org, team["ana"], history.at(day - timedelta(days=7), "09:00", TZ), [("ONLINE", 240)])
             for day in week]
    rows += [history.session_row(org, team["beto"], history.at(day, "13:00", TZ), [("ONLINE", 240)]) for day in week[:3]]
    write(rows)
    assert api.post(f"{base(owner)}/holidays", {"items": [{"date": week[2].isoformat(), "name": "Fiesta"}]},
                    token=token).status_code == 201
    assert api.patch(f"{base(owner)}/work-modes/{team['beto']}", {"workMode": "HOURLY"}, token=token).status_code == 200
    api.post(f"{base(owner)}/leaves", {"agentUserId": team["caro"], "type": "VACATION", "startDate": week[0].isoformat(),
                                      "endDate": week[4].isoformat(), "note": "Cartagena"}, token=token)
    answer = api.get(f"{base(owner)}/report?from={week[0]}&to={week[4]}&compare=true", token=token)
    assert answer.status_code == 200, answer.json
    report = answer.json["data"]
    agents = {a["agentUserId"]: a for a in report["agents"]}
    ana, beto, caro, dani = (agents[team[name]] for name in ("ana", "beto", "caro", "dani"))
    assert (ana["workedMin"], ana["expectedMin"], ana["lateCount"], ana["absentDays"], ana["holidayDays"]) == (
        2400, 1920, 0, 0, 1)  # the holiday's work is extra, not expected
    # the 5 days before: Wednesday to Sunday of the week before (3 working days of 4 hours)
    assert ana["previous"]["workedMin"] == 720 and ana["previous"]["expectedMin"] == 1440
    assert (beto["workMode"], beto["workedMin"], beto["expectedMin"], beto["lateCount"], beto["absentDays"]) == (
        "HOURLY", 720, 0, 0, 0)
    assert (caro["leaveDays"], caro["absentDays"], caro["expectedMin"]) == (5, 0, 0)
    assert (dani["absentDays"], dani["expectedMin"]) == (4, 1920)
    assert report["previous"]["from"] == (week[0] - timedelta(days=5)).isoformat()
    assert len(report["days"]) == 5 and report["days"][0]["workedMin"] == 480 + 240


def test_within_shift_counting_and_overtime(api, owner, team):
    org, token = owner["org"]["id"], owner["token"]
    today_answer = api.get(f"{base(owner)}/period-presets", token=token).json["data"]
    today = date.fromisoformat(today_answer["today"])
    monday = history.last_monday(TZ)
    write([history.session_row(org, team["ana"], history.at(monday, "08:00", TZ), [("ONLINE", 600)])])  # 08-18
    assert api.patch(f"{base(owner)}/settings", {"workedCounting": "within-shift"}, token=token).status_code == 200
    day = {a["agentUserId"]: a for a in api.get(f"{base(owner)}/day?date={monday}", token=token).json["data"]["agents"]}
    assert (day[team["ana"]]["workedMin"], day[team["ana"]]["extraMin"], day[team["ana"]]["overtimeMin"]) == (480, 120, 0)
    # overtime is granted for today only: write today's session and grant it
    write([history.session_row(org, team["beto"], history.at(today, "00:00", TZ), [("ONLINE", 30)])])
    granted = api.post(f"{base(owner)}/overtime/{team['beto']}", {"enabled": True}, token=token)
    assert granted.status_code == 201 and granted.json["data"]["date"] == today.isoformat()
    assert [g["agentUserId"] for g in api.get(f"{base(owner)}/overtime", token=token).json["data"]] == [team["beto"]]
    beto = {a["agentUserId"]: a for a in api.get(f"{base(owner)}/day?date={today}", token=token).json["data"]["agents"]}[team["beto"]]
    # 00:00-00:30 is outside any shift: within-shift counts it only as granted overtime
    assert (beto["overtime"], beto["inShiftMin"], beto["overtimeMin"], beto["workedMin"]) == (True, 0, 30, 30)
    api.patch(f"{base(owner)}/settings", {"allowOvertime": False}, token=token)
    assert_problem(api.post(f"{base(owner)}/overtime/{team['ana']}", {"enabled": True}, token=token), 409,
                   "overtime_not_allowed")
    assert api.post(f"{base(owner)}/overtime/{team['beto']}", {"enabled": False}, token=token).status_code == 201
    assert api.get(f"{base(owner)}/overtime", token=token).json["data"] == []


def test_a_session_across_midnight_counts_by_the_attribution_rule(api, owner, team):
    org, token = owner["org"]["id"], owner["token"]
    monday = history.last_monday(TZ)
    write([history.session_row(org, team["ana"], history.at(monday, "22:00", TZ), [("ONLINE", 480)])])  # to 06:00
    def worked(day):
        rows = api.get(f"{base(owner)}/day?date={day}", token=token).json["data"]["agents"]
        return {a["agentUserId"]: a for a in rows}[team["ana"]]["wallMin"]
    assert (worked(monday), worked(monday + timedelta(days=1))) == (480, 0)
    api.patch(f"{base(owner)}/settings", {"dayAttribution": "split-by-day"}, token=token)
    assert (worked(monday), worked(monday + timedelta(days=1))) == (120, 360)


def test_days_follow_daylight_saving(api, owner, team):
    """New York's 1 November 2026 lasts 25 hours: a 09:00-17:00 shift is still 8 hours, found on
    that day's own offset, and a night across the change is 9 real hours."""
    org, token = owner["org"]["id"], owner["token"]
    api.patch(f"/organizations/{org}", {"timezone": "America/New_York",
                                        "businessHoursSchedule": {"sun": [{"open": "09:00", "close": "17:00"}]}}, token=token)
    sunday = date(2026, 11, 1)
    write([history.session_row(org, team["ana"], history.at(sunday, "09:00", "America/New_York"), [("ONLINE", 480)]),
           history.session_row(org, team["beto"], history.at(sunday - timedelta(days=1), "22:00", "America/New_York"),
                               [("ONLINE", 540)])])
    api.patch(f"{base(owner)}/settings", {"dayAttribution": "split-by-day"}, token=token)
    rows = {a["agentUserId"]: a for a in api.get(f"{base(owner)}/day?date=2026-11-01", token=token).json["data"]["agents"]}
    ana = rows[team["ana"]]
    assert (ana["expectedMin"], ana["inShiftMin"], ana["late"], ana["earlyLeave"]) == (480, 480, False, False)
    assert ana["shift"][0]["from"] == history.at(sunday, "09:00", "America/New_York")
    assert rows[team["beto"]]["wallMin"] == 540 - 120  # 00:00-06:00 local is 7 real hours


@pytest.mark.parametrize("query, field", [
    ("date=2026-02-30", "date"), ("date=yesterday", "date"), ("", "date")])
def test_a_day_that_does_not_exist_is_refused(api, owner, query, field):
    answer = api.get(f"{base(owner)}/day?{query}", token=owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_ranges_are_checked(api, owner):
    token = owner["token"]
    assert_problem(api.get(f"{base(owner)}/report?from=2026-05-10&to=2026-05-01", token=token), 400, "invalid_range")
    assert_problem(api.get(f"{base(owner)}/report?from=2024-01-01&to=2026-05-01", token=token), 400, "range_too_long")
    assert api.get(f"{base(owner)}/report?from=2026-13-01", token=token).status_code == 400


def test_presets_follow_the_payroll_period(api, owner):
    token = owner["token"]
    presets = api.get(f"{base(owner)}/period-presets", token=token).json["data"]
    found = {p["key"]: (p["from"], p["to"]) for p in presets["presets"]}
    today = date.fromisoformat(presets["today"])
    first_half = today.day <= 15
    assert found["fortnight"][0] == today.replace(day=1 if first_half else 16).isoformat()
    assert found["payroll"] == found["fortnight"]
    assert found["last-15-days"] == ((today - timedelta(days=14)).isoformat(), today.isoformat())
    api.patch(f"{base(owner)}/settings", {"payrollPeriod": "monthly"}, token=token)
    again = {p["key"]: (p["from"], p["to"]) for p in api.get(f"{base(owner)}/period-presets", token=token).json["data"]["presets"]}
    assert again["payroll"] == again["month"] and again["previous-payroll"] == again["previous-month"]
