"""Workload, trends and heatmap from the hourly counters; e-mails about customers left waiting;
read marks sent to the network as the messaging settings allow."""


from appliance.core import clock
from tests.conversations.test_inbox import OTHER
from tests.factories import add_member


def _reply(inbox, text="¡Hola!", wa_id="5215512345678"):
    answer = inbox.api.client.post(f"/organizations/{inbox.line.org_id}/messages", json={
        "phoneNumberId": inbox.line.number["id"], "to": wa_id, "type": "text", "payload": {"body": text}},
        headers={"Authorization": f"Bearer {inbox.token}"})
    assert answer.status_code == 201, answer.json


def test_workload_trends_and_heatmap_count_what_happened(inbox, api):
    me = api.get("/users/me", token=inbox.token).json["data"]["id"]
    first = inbox.customer("hola")
    inbox.customer("buenas", wa_id=OTHER, name="Beto")
    inbox.ok("PATCH", f"/{first['id']}/assignee", {"userId": me})
    _reply(inbox)
    inbox.ok("PATCH", f"/{first['id']}/status", {"status": "closed"})

    load = inbox.ok("GET", "/workload")
    mine = next(a for a in load["agents"] if a["userId"] == me)
    assert mine["recent"]["replies"] == 1 and mine["recent"]["closed"] == 1 and mine["recent"]["lateReplies"] == 0
    assert mine["recent"]["avgResponseSeconds"] is not None and mine["open"] == 0
    assert load["unassigned"] == {"open": 1, "waiting": 1, "overdue": 0, "stale": 0}
    assert load["settings"]["slaMinutes"] == 15

    detail = inbox.ok("GET", f"/workload/agent/{me}", days=3)
    assert len(detail["days"]) == 3 and detail["totals"]["replies"] == 1 and detail["days"][-1]["closed"] == 1
    trends = inbox.ok("GET", "/activity-trends", days=7)
    assert len(trends) == 7 and trends[-1]["incoming"] == 2 and trends[-1]["closed"] == 1
    assert trends[-1]["inboundMessages"] == 2
    heat = inbox.ok("GET", "/activity-heatmap", days=7, metric="volume")
    assert len(heat["weekdays"]) == 7 and all(len(row) == 24 for row in heat["weekdays"])
    assert sum(map(sum, heat["weekdays"])) == 2 and heat["timezone"] == "UTC"
    avg = inbox.ok("GET", "/activity-heatmap", metric="avgResponse")["weekdays"]
    assert sum(1 for row in avg for cell in row if cell is not None) == 1

    for path, query in (("/activity-heatmap", {"metric": "speed"}), ("/activity-trends", {"days": "0"}),
                        (f"/workload/agent/{me}", {"from": "2026-02-01", "to": "2026-01-01"}),
                        (f"/workload/agent/{me}", {"from": "yesterday"})):
        assert inbox.call("GET", path, **query).status_code == 400, (path, query)
    assert inbox.call("GET", "/workload/agent/00000000-0000-4000-8000-000000000000").status_code == 404


def test_a_late_answer_counts_as_late(inbox):
    inbox.ok("PATCH", "/workload/settings", {"slaMinutes": 1})
    inbox.customer("hola")
    clock.advance(120)
    try:
        _reply(inbox)
        load = inbox.ok("GET", "/workload")
    finally:
        clock.reset()
    assert sum(a["recent"]["lateReplies"] for a in load["agents"]) == 1


def test_agents_without_reports_permission_are_refused(inbox, api, line):
    agent = add_member(api, line.org_id, "agent", "agente@example.com")
    assert inbox.call("GET", "/workload", token=agent).status_code == 403
    assert inbox.call("GET", "/activity-trends", token=agent).status_code == 403


def test_a_customer_left_waiting_is_mailed_once_per_wait(inbox, mailbox):
    from appliance.conversations import tasks

    inbox.ok("PATCH", "/notification-settings", {"delayEmailEnabled": True, "delayMinutes": 5})
    inbox.customer("¿hay alguien?")
    tasks.notify_waiting.call_local()
    assert not [m for m in mailbox.to("owner@example.com") if "waited" in m["Subject"]]  # not yet 5 minutes
    clock.advance(6 * 60)
    try:
        tasks.notify_waiting.call_local()
        tasks.notify_waiting.call_local()
        waiting = [m for m in mailbox.to("owner@example.com") if "waited" in m["Subject"]]
        assert len(waiting) == 1 and "Ana Pérez" in waiting[0]["Subject"]
        assert "/inbox/" in waiting[0].get_content()
        _reply(inbox)  # answered: the wait is over
        inbox.customer("¿y el pedido?")
        clock.advance(6 * 60)
        tasks.notify_waiting.call_local()
    finally:
        clock.reset()
    assert len([m for m in mailbox.to("owner@example.com") if "waited" in m["Subject"]]) == 2


def test_reading_a_conversation_sends_the_read_mark_when_allowed(inbox, line):
    conversation = inbox.customer("hola")
    inbox.ok("POST", f"/{conversation['id']}/read")
    marks = line.simulator.network.read_marks
    assert len(marks) == 1 and marks[0]["typing"] is False
    inbox.ok("POST", f"/{conversation['id']}/unread")
    inbox.ok("PATCH", "/messaging-settings", {"readReceipts": False})
    inbox.ok("POST", f"/{conversation['id']}/read")
    assert len(line.simulator.network.read_marks) == 1


def test_the_typing_indicator_reaches_the_customer_only_when_enabled(inbox, client, line):
    from tests.browser_forms import csrf_of, sign_in

    conversation = inbox.customer("hola")
    sign_in(client, email="owner@example.com")
    page = client.get(f"/inbox/{line.org_id}/c/{conversation['id']}")
    marks = line.simulator.network.read_marks
    reads = len(marks)  # opening it read it (read receipts are on by default)
    typing = f"/inbox/{line.org_id}/c/{conversation['id']}/typing"
    assert client.post(typing, data={"csrf": csrf_of(page)}).status_code == 204
    assert len(marks) == reads  # off by default
    inbox.ok("PATCH", "/messaging-settings", {"typingIndicator": True})
    assert client.post(typing, data={"csrf": csrf_of(page)}).status_code == 204
    assert marks[-1]["typing"] is True and len(marks) == reads + 1
    assert client.post(typing, data={}).status_code == 403  # the page's CSRF token is required
