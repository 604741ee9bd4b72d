"""Issue 23, parts 2 and 5: sessions nobody ended are closed by the rules (inactivity while ONLINE,
longer allowance on LUNCH, the shift's end unless overtime is granted), also after a crash lost the
noted requests; shift reminders go once over the enabled channels, and the test route."""

from datetime import datetime
from zoneinfo import ZoneInfo

from appliance.attendance import closing, shifts
from appliance.core import runtime
from appliance.shift_reminders import reminders
from tests.attendance.test_sessions import base, status_events, turn_on
from tests.factories import add_member
from tests.problems import assert_problem

MINUTE = 60_000
TZ = "America/Bogota"


def _close(at_ms):
    with runtime.get().db.unit_of_work(write=True) as session:
        closing.write_activity(session)
        return [(row.id, row.ended_ms, row.end_reason) for row in closing.close_due(session, at_ms)]


def test_inactivity_closes_at_the_last_request_and_lunch_is_allowed_longer(api, owner):
    turn_on(api, owner)
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    first = api.post(f"{base(owner)}/start", token=agent).json["data"]
    started = first["startedAt"]
    assert _close(started + 29 * MINUTE) == []
    api.get(f"{base(owner)}/today", token=agent)  # a request: noted in memory, written by the minute check
    assert _close(started + 20 * MINUTE) == []
    with runtime.get().db.unit_of_work(write=False) as session:
        from appliance.attendance.models import AttendanceSession
        seen = session.get(AttendanceSession, first["id"]).last_activity_ms
    assert seen > started
    [(session_id, ended, reason)] = _close(seen + 30 * MINUTE)
    assert (session_id, ended, reason) == (first["id"], seen, "INACTIVITY")
    assert status_events(owner["org"]["id"])[-1] == ("ONLINE", "OFFLINE")

    lunch = api.post(f"{base(owner)}/start", token=agent).json["data"]
    api.post(f"{base(owner)}/status", {"status": "LUNCH"}, token=agent)
    with runtime.get().db.unit_of_work(write=False) as session:
        from appliance.attendance.models import AttendanceSession
        changed = session.get(AttendanceSession, lunch["id"]).last_activity_ms
    closing._take_seen()  # a crash: the requests noted in memory are lost, the session stays in progress
    assert _close(changed + 60 * MINUTE) == []
    [(session_id, ended, reason)] = _close(changed + (30 + closing.AWAY_ALLOWANCE_MIN) * MINUTE)
    assert (session_id, ended, reason) == (lunch["id"], changed, "INACTIVITY")


def test_the_shift_end_closes_unless_overtime_is_granted(api, owner):
    org = owner["org"]["id"]
    turn_on(api, owner, autoCloseEnabled=False, closeAtShiftEnd=True)
    weekday = shifts.WEEKDAYS[datetime.now(ZoneInfo(TZ)).weekday()]
    api.patch(f"/organizations/{org}", {"businessHoursSchedule": {weekday: [{"open": "00:00", "close": "23:59"}]}},
              token=owner["token"])
    ana_token = add_member(api, org, "agent", "ana@example.com")
    beto_token = add_member(api, org, "agent", "beto@example.com")
    ana = api.post(f"{base(owner)}/start", token=ana_token).json["data"]
    beto = api.post(f"{base(owner)}/start", token=beto_token).json["data"]
    api.post(f"{base(owner)}/overtime/{beto['agentUserId']}", {"enabled": True}, token=owner["token"])
    today = datetime.now(ZoneInfo(TZ)).date()
    end = shifts.shift_intervals({weekday: [{"open": "00:00", "close": "23:59"}]}, TZ, today)[0][1]
    assert _close(end - MINUTE) == []
    assert _close(end + 5 * MINUTE) == [(ana["id"], end, "SHIFT_END")]


def test_reminders_go_once_over_the_enabled_channels(api, owner, mailbox):
    org = owner["org"]["id"]
    turn_on(api, owner)
    agent = add_member(api, org, "agent", "luis@example.com")
    path = f"/organizations/{org}/shift-reminders"
    defaults = api.get(path, token=agent).json["data"]
    assert (defaults["enabled"], defaults["channels"], defaults["shiftStartLeadMin"]) == (
        False, {"email": True, "push": True, "inbox": True}, 10)
    assert_problem(api.put(path, {"enabled": True}, token=agent), 403, "permission_missing")
    for bad in ({"shiftStartLeadMin": 121}, {"channels": {"sms": True}}, {"events": {"lunch": True}}, {"enabled": "yes"}):
        assert api.put(path, bad, token=owner["token"]).status_code == 400, bad
    saved = api.put(path, {"enabled": True, "channels": {"push": False}, "events": {"shiftEnd": False},
                           "shiftStartLeadMin": 15}, token=owner["token"]).json["data"]
    assert saved["channels"] == {"email": True, "push": False, "inbox": True}
    assert saved["events"] == {"shiftStart": True, "shiftEnd": False, "missedStart": True}
    now = datetime.now(ZoneInfo(TZ))
    weekday = shifts.WEEKDAYS[now.weekday()]
    week = {weekday: [{"open": "08:00", "close": "20:00"}]}
    api.patch(f"/organizations/{org}", {"businessHoursSchedule": week}, token=owner["token"])
    start = shifts.shift_intervals(week, TZ, now.date())[0][0]

    def reminded():
        return [mail for mail in mailbox.to("luis@example.com") if "shift" in mail.get_content() or "Test" in mail["Subject"]]

    def check(at):
        with runtime.get().db.unit_of_work(write=True) as session:
            return reminders.check(session, at)

    assert check(start - 20 * MINUTE) == 0  # not yet within the 15 minutes
    assert check(start - 10 * MINUTE) == 1  # shiftStart
    assert check(start - 9 * MINUTE) == 0  # once
    [mail] = reminded()
    assert mail["Subject"] == "Your shift starts at 08:00"
    assert check(start + 11 * MINUTE) == 1  # missedStart, after the 10 minutes of grace
    assert reminded()[-1]["Subject"] == "You have not started your shift" and len(reminded()) == 2
    api.post(f"{base(owner)}/start", token=agent)
    assert check(start + 12 * MINUTE) == 0

    test = api.post(f"{path}/test", token=agent)
    assert test.status_code == 200 and test.json["data"]["channels"] == ["email", "inbox"]
    assert reminded()[-1]["Subject"] == "Test reminder" and len(reminded()) == 3
    api.put(path, {"channels": {"email": False, "inbox": False}}, token=owner["token"])
    assert_problem(api.post(f"{path}/test", token=agent), 409, "no_channel_enabled")
