"""Issue 23, part 1: an agent's shift. Start is idempotent (two at once make one), statuses from the
list change the timeline and emit agent.status_changed, the end freezes the day's report, and an
admin corrects or deletes sessions with the totals recomputed."""

import json
import threading

from sqlmodel import select

from appliance.core import clock, events, runtime
from appliance.core.events import OutboxEvent
from tests.factories import add_member
from tests.problems import assert_problem, error_fields

HOURS = {day: [{"open": "09:00", "close": "17:00"}] for day in ("mon", "tue", "wed", "thu", "fri")}


def base(owner):
    return f"/organizations/{owner['org']['id']}/attendance"


def turn_on(api, owner, **rules):
    org = owner["org"]["id"]
    api.patch(f"/organizations/{org}", {"timezone": "America/Bogota", "businessHoursSchedule": HOURS}, token=owner["token"])
    answer = api.patch(f"{base(owner)}/settings", {"enabled": True, **rules}, token=owner["token"])
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def status_events(org_id):
    with runtime.get().db.unit_of_work(write=False) as session:
        rows = session.exec(select(OutboxEvent).where(OutboxEvent.name == events.AGENT_STATUS_CHANGED,
                                                      OutboxEvent.organization_id == org_id)
                            .order_by(OutboxEvent.id)).all()
        return [(row.data["from"], row.data["to"]) for row in rows]


def test_a_shift_from_start_to_end(api, owner):
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    assert_problem(api.post(f"{base(owner)}/start", token=agent), 409, "attendance_disabled")
    defaults = api.get(f"{base(owner)}/settings", token=owner["token"]).json["data"]
    assert (defaults["enabled"], defaults["inactivityMinutes"], defaults["lateGraceMin"], defaults["workedCounting"],
            defaults["dayAttribution"], defaults["payrollPeriod"]) == (False, 30, 10, "wall-clock", "start-day", "semimonthly")
    turn_on(api, owner)
    assert api.get(f"{base(owner)}/me", token=agent).json["data"] is None
    started = api.post(f"{base(owner)}/start", token=agent)
    assert started.status_code == 201, started.json
    session = started.json["data"]
    assert (session["status"], session["inProgress"], session["endedAt"]) == ("ONLINE", True, None)
    again = api.post(f"{base(owner)}/start", token=agent).json["data"]
    assert again["id"] == session["id"]
    clock.advance(600)
    agent = api.login("luis@example.com")["tokens"]["accessToken"]
    lunch = api.post(f"{base(owner)}/status", {"status": "LUNCH"}, token=agent).json["data"]
    assert [spell["status"] for spell in lunch["timeline"]] == ["ONLINE", "LUNCH"]
    assert lunch["totals"]["onlineMin"] == 10
    assert_problem(api.post(f"{base(owner)}/status", {"status": "NAP"}, token=agent), 400, "validation_failed")
    clock.advance(300)
    api.post(f"{base(owner)}/status", {"status": "ONLINE"}, token=agent)
    clock.advance(120)
    ended = api.post(f"{base(owner)}/end", {"note": "Cerré 14 casos"}, token=agent).json["data"]
    assert (ended["inProgress"], ended["note"], ended["endReason"]) == (False, "Cerré 14 casos", "USER")
    assert ended["totals"] == {"workedMin": 12, "onlineMin": 12, "lunchMin": 5, "breakMin": 0, "meetingMin": 0,
                               "trainingMin": 0}
    assert ended["report"]["wall_min"] == 12 and ended["report"]["present"]
    assert_problem(api.post(f"{base(owner)}/end", token=agent), 409, "no_session_in_progress")
    assert_problem(api.post(f"{base(owner)}/status", {"status": "BREAK"}, token=agent), 409, "no_session_in_progress")
    assert status_events(owner["org"]["id"]) == [("OFFLINE", "ONLINE"), ("ONLINE", "LUNCH"), ("LUNCH", "ONLINE"),
                                                 ("ONLINE", "OFFLINE")]
    mine = api.get(f"{base(owner)}/sessions", token=agent).json["data"]
    assert [s["id"] for s in mine] == [session["id"]]


def test_two_starts_at_once_make_one_session(app, api, owner):
    turn_on(api, owner)
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    answers = []

    def start():
        answers.append(app.test_client().post(f"{base(owner)}/start", headers={"Authorization": f"Bearer {agent}"}))

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {answer.status_code for answer in answers} == {201}
    assert len({answer.json["data"]["id"] for answer in answers}) == 1
    assert status_events(owner["org"]["id"]) == [("OFFLINE", "ONLINE")]


def test_an_admin_corrects_the_end_and_deletes(api, owner):
    turn_on(api, owner)
    agent = add_member(api, owner["org"]["id"], "agent", "luis@example.com")
    session = api.post(f"{base(owner)}/start", token=agent).json["data"]
    clock.advance(3600)
    owner_token = api.login("owner@example.com")["tokens"]["accessToken"]
    agent = api.login("luis@example.com")["tokens"]["accessToken"]
    path = f"{base(owner)}/sessions/{session['id']}"
    assert_problem(api.patch(path, {"endedAt": session["startedAt"] + 1}, token=agent), 403, "permission_missing")
    before = api.patch(path, {"endedAt": session["startedAt"] - 1000}, token=owner_token)
    assert before.status_code == 400 and "endedAt" in error_fields(before)
    future = api.patch(path, {"endedAt": session["startedAt"] + 10 * 3600 * 1000}, token=owner_token)
    assert future.status_code == 400 and "endedAt" in error_fields(future)
    assert api.patch(path, {"endedAt": "soon"}, token=owner_token).status_code == 400
    fixed = api.patch(path, {"endedAt": session["startedAt"] + 45 * 60_000}, token=owner_token).json["data"]
    assert (fixed["inProgress"], fixed["totals"]["workedMin"]) == (False, 45)
    moved = api.patch(path, {"endedAt": session["startedAt"] + 30 * 60_000}, token=owner_token).json["data"]
    assert moved["totals"]["workedMin"] == 30 and moved["timeline"][-1]["to"] == session["startedAt"] + 30 * 60_000
    agent_id = api.get("/users/me", token=agent).json["data"]["id"]
    history = api.get(f"{base(owner)}/sessions/agent/{agent_id}", token=owner_token).json["data"]
    assert [s["totals"]["workedMin"] for s in history] == [30]
    assert_problem(api.get(f"{base(owner)}/sessions/agent/01a20000-0000-7000-8000-000000000000", token=owner_token),
                   404, "agent_not_found")
    assert api.delete(path, token=owner_token).status_code == 200
    assert_problem(api.delete(path, token=owner_token), 404, "session_not_found")
    assert api.get(f"{base(owner)}/sessions", token=agent).json["data"] == []


def test_status_changes_reach_webhooks_filtered_by_status(api, owner, hook):
    turn_on(api, owner)
    org = owner["org"]["id"]
    webhooks = f"/organizations/{org}/webhooks-outbound"
    everything = api.post(webhooks, {"url": hook.url, "events": ["agent.status_changed"]}, token=owner["token"]).json["data"]
    lunches = api.post(webhooks, {"url": hook.url, "events": ["agent.status_changed"], "agentStatuses": ["LUNCH"]},
                       token=owner["token"]).json["data"]
    agent = add_member(api, org, "agent", "luis@example.com")
    api.post(f"{base(owner)}/start", token=agent)
    api.post(f"{base(owner)}/status", {"status": "LUNCH"}, token=agent)
    api.post(f"{base(owner)}/end", {}, token=agent)

    def delivered(webhook):
        items = api.get(f"{webhooks}/{webhook['id']}/deliveries", token=owner["token"]).json["data"]["items"]
        bodies = [json.loads(item["requestBody"])["data"] for item in items]
        return sorted((body["from"], body["to"]) for body in bodies)

    assert delivered(everything) == sorted([("OFFLINE", "ONLINE"), ("ONLINE", "LUNCH"), ("LUNCH", "OFFLINE")])
    assert delivered(lunches) == [("ONLINE", "LUNCH")]
