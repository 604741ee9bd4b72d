"""Issue 43, item 9: attendance counts no day before the agent joined the organization and none
before the rules were turned on (not expected, not absent), in the day view, the report and its
payroll CSV alike; `/attendance/today` carries its totals; organizations that had attendance on
before the moment was recorded get the date their data tells."""

import csv
import io
from datetime import date, datetime, timedelta, timezone

from alembic import command
from sqlmodel import select

from appliance import migrations
from appliance.attendance.models import AttendanceSettings
from appliance.core import clock, runtime
from tests.attendance import history
from tests.attendance.test_sessions import base, turn_on
from tests.attendance.test_views import member_id
from tests.browser_forms import sign_in
from tests.factories import add_member

TZ = "America/Bogota"  # turn_on's zone; its hours are Monday to Friday, 09:00-17:00


def _unit():
    return runtime.get().db.unit_of_work(write=True)


def _joined_long_ago(org: str, user_id: str) -> None:
    with _unit() as session:
        history.joined_at(session, org, user_id=user_id)


def _turned_on_long_ago(org: str) -> None:
    with _unit() as session:
        history.turned_on_at(session, org)


def _the_past_month(api, owner) -> tuple[date, date, int]:
    """The 29 days before today in the organization's zone (today's shift may not be over), and how
    many of them are working days."""
    today = date.fromisoformat(api.get(f"{base(owner)}/period-presets", token=owner["token"]).json["data"]["today"])
    first, last = today - timedelta(days=29), today - timedelta(days=1)
    return first, last, sum((first + timedelta(days=n)).weekday() < 5 for n in range(29))


def _last_working_day_before(day: date) -> date:
    day -= timedelta(days=1)
    while day.weekday() >= 5:
        day -= timedelta(days=1)
    return day


def test_an_agent_added_today_owes_no_day_before(api, client, owner):
    org, token = owner["org"]["id"], owner["token"]
    turn_on(api, owner)
    _turned_on_long_ago(org)
    vera = member_id(api, add_member(api, org, "agent", "vera@example.com"))
    nico = member_id(api, add_member(api, org, "agent", "nico@example.com"))  # added today
    _joined_long_ago(org, vera)
    first, last, working_days = _the_past_month(api, owner)

    agents = {a["agentUserId"]: a for a in api.get(f"{base(owner)}/report?from={first}&to={last}",
                                                   token=token).json["data"]["agents"]}
    assert (agents[nico]["absentDays"], agents[nico]["expectedMin"]) == (0, 0)
    assert (agents[vera]["absentDays"], agents[vera]["expectedMin"]) == (working_days, working_days * 480)

    day = _last_working_day_before(last + timedelta(days=1))
    rows = {a["agentUserId"]: a for a in api.get(f"{base(owner)}/day?date={day}", token=token).json["data"]["agents"]}
    assert (rows[nico]["absent"], rows[nico]["expectedMin"], rows[nico]["shift"]) == (False, 0, [])
    assert (rows[vera]["absent"], rows[vera]["expectedMin"]) == (True, 480)
    drill_down = api.get(f"{base(owner)}/sessions/agent/{nico}?from={day}&to={day}", token=token)
    assert drill_down.status_code == 200

    sign_in(client, email="owner@example.com")
    exported = client.get(f"/console/{org}/attendance/report.csv?from={first}&to={last}")
    payroll = {row["email"]: row for row in csv.DictReader(io.StringIO(exported.data.decode("utf-8-sig")))}
    assert (payroll["nico@example.com"]["absent_days"], payroll["nico@example.com"]["expected_hours"]) == ("0", "0.00")
    assert payroll["vera@example.com"]["absent_days"] == str(working_days)


def test_no_day_before_attendance_was_turned_on_counts(api, owner):
    org, token = owner["org"]["id"], owner["token"]
    assert api.get(f"{base(owner)}/settings", token=token).json["data"]["enabledAt"] is None
    vera = member_id(api, add_member(api, org, "agent", "vera@example.com"))
    _joined_long_ago(org, vera)  # in the team for years; attendance only starts today
    turned_on = turn_on(api, owner)["enabledAt"]
    assert turned_on is not None
    first, last, _ = _the_past_month(api, owner)
    [agent] = [a for a in api.get(f"{base(owner)}/report?from={first}&to={last}", token=token).json["data"]["agents"]
               if a["agentUserId"] == vera]
    assert (agent["absentDays"], agent["expectedMin"]) == (0, 0)

    # Changing a rule keeps the moment, and so does turning attendance off and on again (a toggle
    # must not rewrite past reports and payroll).
    clock.advance(60)
    assert api.patch(f"{base(owner)}/settings", {"lateGraceMin": 5}, token=token).json["data"]["enabledAt"] == turned_on
    assert api.patch(f"{base(owner)}/settings", {"enabled": False}, token=token).json["data"]["enabledAt"] == turned_on
    again = api.patch(f"{base(owner)}/settings", {"enabled": True}, token=token).json["data"]["enabledAt"]
    assert again == turned_on


def test_today_carries_the_days_totals(api, owner):
    turn_on(api, owner)
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    assert api.post(f"{base(owner)}/start", token=agent).status_code == 201
    clock.advance(600)
    agent = api.login("luis@example.com")["tokens"]["accessToken"]
    api.post(f"{base(owner)}/status", {"status": "LUNCH"}, token=agent)
    clock.advance(300)
    agent = api.login("luis@example.com")["tokens"]["accessToken"]
    today = api.get(f"{base(owner)}/today", token=agent).json["data"]
    assert today["totals"] == {"workedMin": 10, "onlineMin": 10, "lunchMin": 5, "breakMin": 0, "meetingMin": 0,
                               "trainingMin": 0}


def test_attendance_on_before_the_moment_was_recorded_is_dated_by_its_data(api, owner):
    """The migration: on, with sessions: the first session's start (or the settings' last change if
    earlier); never on: nothing."""
    org, token = owner["org"]["id"], owner["token"]
    other = api.post("/organizations", {"name": "Otra", "slug": "otra", "billingEmail": "b@otra.test"},
                     token=token).json["data"]["id"]
    api.patch(f"/organizations/{other}/attendance/settings", {"lateGraceMin": 5}, token=token)  # saved, never on
    turn_on(api, owner)
    luis = member_id(api, add_member(api, org, "agent", "luis@example.com"))
    first_start = history.at(clock.now().date() - timedelta(days=10), "09:00", TZ)  # before the settings' change
    with _unit() as session:
        history.add(session, [history.session_row(org, luis, first_start, [("ONLINE", 60)]),
                              history.session_row(org, luis, first_start + 86_400_000, [("ONLINE", 60)])])
    database = runtime.get().db
    with database.writer.begin() as connection:
        command.downgrade(migrations._config(connection), "0046")
        command.upgrade(migrations._config(connection), "0047")
    with runtime.get().db.unit_of_work(write=False) as session:
        found = dict(session.exec(select(AttendanceSettings.organization_id, AttendanceSettings.enabled_at)).all())
    assert found == {org: datetime.fromtimestamp(first_start / 1000, timezone.utc), other: None}
