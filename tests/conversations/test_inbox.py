"""The inbox API: listing with its filters, state changes and their events, tags, notes, hand-off."""

from datetime import timedelta

from appliance.core import clock
from tests.factories import add_member, another_number
from tests.problems import assert_problem

OTHER = "5215598765432"


def test_a_customer_message_shows_in_the_list_with_contact_preview_and_unread_badge(inbox):
    conversation = inbox.customer("Hola, ¿tienen pan?")
    assert conversation["contact"]["name"] == "Ana Pérez"
    assert conversation["preview"] == "Hola, ¿tienen pan?"
    assert conversation["unread"] and conversation["status"] == "open" and conversation["tags"] == []
    assert conversation["awaitingReplySince"] is not None and conversation["windowExpiresAt"] is not None
    counts = inbox.ok("GET", "/unread-counts")
    assert counts == {"open": 1, "snoozed": 0, "closed": 0, "mine": 0, "unassigned": 1, "total": 1}
    inbox.ok("POST", f"/{conversation['id']}/read")
    assert inbox.ok("GET", "/unread-counts")["total"] == 0
    assert inbox.ok("POST", f"/{conversation['id']}/unread")["unread"] is True


def test_pinned_conversations_come_first_then_the_latest(inbox):
    first = inbox.customer("uno", wa_id=OTHER, name="Beto")
    second = inbox.customer("dos")
    assert [c["id"] for c in inbox.ok("GET")["items"]] == [second["id"], first["id"]]
    inbox.ok("POST", f"/{first['id']}/pin")
    assert [c["id"] for c in inbox.ok("GET")["items"]] == [first["id"], second["id"]]
    page = inbox.ok("GET", take=1)
    assert [c["id"] for c in page["items"]] == [first["id"]]
    assert [c["id"] for c in inbox.ok("GET", take=1, cursor=page["nextCursor"])["items"]] == [second["id"]]


def test_filters_narrow_the_list(inbox, api, line):
    ana = inbox.customer("hola")
    beto = inbox.customer("buenas", wa_id=OTHER, name="Beto Núñez")
    me = api.get("/users/me", token=inbox.token).json["data"]["id"]
    inbox.ok("PATCH", f"/{ana['id']}/assignee", {"userId": me})
    inbox.ok("POST", f"/{beto['id']}/read")

    def ids(**query):
        return [c["id"] for c in inbox.ok("GET", **query)["items"]]

    assert ids(assigneeUserId="me") == [ana["id"]]
    assert ids(assigneeUserId=me) == [ana["id"]]
    assert ids(assigneeUserId="none") == [beto["id"]]
    assert ids(unreadOnly="true") == [ana["id"]]
    assert ids(search="núñez") == [beto["id"]] and ids(search="98765") == [beto["id"]]
    assert ids(status="closed") == []
    assert ids(phoneNumberId=line.number["id"]) == [beto["id"], ana["id"]]
    assert ids(handoffPending="false") == [beto["id"], ana["id"]]
    assert inbox.ok("GET", "/unread-counts")["mine"] == 1


def test_bad_filters_and_cursors_answer_400_and_strangers_404(inbox, api):
    conversation = inbox.customer("hola")
    for query in ({"status": "pending"}, {"take": "0"}, {"take": "201"}, {"cursor": "nonsense"},
                  {"assigneeUserId": "someone"}, {"tagId": "x"}, {"unreadOnly": "maybe"}):
        answer = inbox.call("GET", **query)
        assert answer.status_code == 400, query
        assert answer.json["code"] in ("validation_failed", "invalid_cursor")
    stranger = api.signup(email="otra@example.com")["tokens"]["accessToken"]
    other_org = api.post("/organizations", {"name": "Otra", "slug": "otra", "billingEmail": "b@otra.test"},
                         token=stranger).json["data"]
    answer = api.client.get(f"/organizations/{other_org['id']}/conversations/{conversation['id']}",
                            headers={"Authorization": f"Bearer {stranger}"})
    assert_problem(answer, 404, "conversation_not_found")
    assert inbox.call("GET", "/00000000-0000-4000-8000-000000000000").status_code == 404


def test_close_with_outcome_snooze_until_later_and_the_customer_reopens(inbox):
    conversation = inbox.customer("hola")
    path = f"/{conversation['id']}/status"
    closed = inbox.ok("PATCH", path, {"status": "closed", "category": "ventas", "resolution": "vendido"})
    assert (closed["status"], closed["category"], closed["resolution"]) == ("closed", "ventas", "vendido")
    assert closed["closedAt"] is not None
    assert inbox.ok("GET", status="closed")["items"][0]["id"] == conversation["id"]
    reopened = inbox.customer("otra pregunta")
    assert reopened["status"] == "open" and reopened["closedAt"] is None and reopened["category"] == "ventas"

    past = inbox.call("PATCH", path, {"status": "snoozed", "snoozedUntil": "2020-01-01T00:00:00Z"})
    assert_problem(past, 400, "invalid_snooze")
    assert inbox.call("PATCH", path, {"status": "open", "category": "x"}).status_code == 400
    until = clock.iso(clock.now() + timedelta(hours=1))
    snoozed = inbox.ok("PATCH", path, {"status": "snoozed", "snoozedUntil": until})
    assert snoozed["status"] == "snoozed" and snoozed["snoozedUntil"] == until

    from appliance.conversations import tasks
    tasks.wake_snoozed.call_local()
    assert inbox.ok("GET", f"/{conversation['id']}")["status"] == "snoozed"
    clock.advance(3601)
    try:
        tasks.wake_snoozed.call_local()
    finally:
        clock.reset()
    woke = inbox.ok("GET", f"/{conversation['id']}")
    assert woke["status"] == "open" and woke["snoozedUntil"] is None
    changes = [e["changes"] for e in inbox.events("conversation.updated") if "changes" in e]
    assert ["category", "closedAt", "resolution", "status"] in changes and ["snoozedUntil", "status"] in changes


def test_categorize_keeps_the_status(inbox):
    conversation = inbox.customer("hola")
    done = inbox.ok("PATCH", f"/{conversation['id']}/categorize", {"category": "soporte"})
    assert done["category"] == "soporte" and done["status"] == "open" and done["resolution"] is None
    assert inbox.call("PATCH", f"/{conversation['id']}/categorize", {}).status_code == 400
    assert inbox.call("PATCH", f"/{conversation['id']}/categorize", {"category": "x" * 101}).status_code == 400


def test_assignment_to_members_only_and_announced(inbox, api, line):
    conversation = inbox.customer("hola")
    agent_token = add_member(api, line.org_id, "agent", "agente@example.com")
    agent = api.get("/users/me", token=agent_token).json["data"]["id"]
    outsider = api.signup(email="fuera@example.com")["user"]["id"]
    answer = inbox.call("PATCH", f"/{conversation['id']}/assignee", {"userId": outsider})
    assert_problem(answer, 400, "assignee_not_member")
    assert inbox.ok("PATCH", f"/{conversation['id']}/assignee", {"userId": agent})["assigneeUserId"] == agent
    assert inbox.ok("PATCH", f"/{conversation['id']}/assignee", {"userId": None})["assigneeUserId"] is None
    events = inbox.events("conversation.assignment_changed")
    assert [(e["assigneeUserId"], e["previousAssigneeUserId"]) for e in events] == [(agent, None), (None, agent)]
    assert all(e["conversationId"] == conversation["id"] for e in events)


def test_tags_and_notes(inbox, api, line):
    conversation = inbox.customer("hola")
    tags = f"/organizations/{line.org_id}/tags"
    headers = {"Authorization": f"Bearer {inbox.token}"}
    vip = api.client.post(tags, json={"name": "VIP", "color": "#f59e0b"}, headers=headers)
    assert vip.status_code == 201
    vip = vip.json["data"]
    same = api.client.post(tags, json={"name": "  vip "}, headers=headers)
    assert_problem(same, 409, "tag_name_taken")
    assert api.client.post(tags, json={"name": "x", "color": "red"}, headers=headers).status_code == 400
    tagged = inbox.ok("POST", f"/{conversation['id']}/tags", {"tagId": vip["id"]})
    assert tagged["tags"] == [{"id": vip["id"], "name": "VIP", "color": "#f59e0b"}]
    assert inbox.ok("POST", f"/{conversation['id']}/tags", {"tagId": vip["id"]})["tags"] == tagged["tags"]
    assert [c["id"] for c in inbox.ok("GET", tagId=vip["id"])["items"]] == [conversation["id"]]
    assert inbox.ok("DELETE", f"/{conversation['id']}/tags/{vip['id']}")["tags"] == []
    assert inbox.call("DELETE", f"/{conversation['id']}/tags/{vip['id']}").status_code == 404
    inbox.ok("POST", f"/{conversation['id']}/tags", {"tagId": vip["id"]})
    assert api.client.delete(f"{tags}/{vip['id']}", headers=headers).status_code == 204
    assert inbox.ok("GET", f"/{conversation['id']}")["tags"] == []

    note = inbox.ok("POST", f"/{conversation['id']}/notes", {"body": "Cliente frecuente,\nllamar antes."}, expect=201)
    assert [n["id"] for n in inbox.ok("GET", f"/{conversation['id']}/notes")] == [note["id"]]
    assert inbox.call("POST", f"/{conversation['id']}/notes", {"body": ""}).status_code == 400


def test_handoff_silences_automation_until_returned_to_the_bot(inbox):
    conversation = inbox.customer("quiero hablar con una persona")
    asked = inbox.call("POST", f"/{conversation['id']}/request-handoff", {"reason": "human", "detail": "Pide un humano"})
    assert asked.status_code == 201
    assert asked.json["data"]["handoffPending"] is True and asked.json["data"]["handoffReason"] == "human"
    inbox.ok("POST", f"/{conversation['id']}/request-handoff", {}, expect=201)  # again: no second event
    events = inbox.events("conversation.handoff_requested")
    assert len(events) == 1 and events[0]["detail"] == "Pide un humano" and events[0]["origin"] == "agent"
    assert [c["id"] for c in inbox.ok("GET", handoffPending="true")["items"]] == [conversation["id"]]
    back = inbox.ok("POST", f"/{conversation['id']}/devolver-al-bot")
    assert back["handoffPending"] is False and back["handoffReason"] is None
    unknown_agent = "7f2c1d7e-8c59-4a44-9b3e-2f0d5a1b9c10"  # pinning a real agent: tests/ai_agents
    assert inbox.call("PATCH", f"/{conversation['id']}/agent", {"agentId": unknown_agent}).status_code == 404
    assert inbox.ok("PATCH", f"/{conversation['id']}/agent", {"agentId": None})["botAgentId"] is None
    assert inbox.call("PATCH", f"/{conversation['id']}/agent", {"agentId": "bot-1"}).status_code == 400


def test_settings_have_defaults_and_validate_every_field(inbox):
    assert inbox.ok("GET", "/messaging-settings") == {"readReceipts": True, "typingIndicator": False,
                                                      "inboxTabs": ["mine", "unassigned", "all", "snoozed", "closed"]}
    changed = inbox.ok("PATCH", "/messaging-settings", {"typingIndicator": True, "inboxTabs": ["all", "handoff"]})
    assert changed["typingIndicator"] is True and changed["readReceipts"] is True
    assert inbox.ok("GET", "/messaging-settings")["inboxTabs"] == ["all", "handoff"]
    assert inbox.call("PATCH", "/messaging-settings", {"inboxTabs": ["todo"]}).status_code == 400
    assert inbox.ok("PATCH", "/workload/settings", {"slaMinutes": 5})["slaMinutes"] == 5
    assert inbox.call("PATCH", "/workload/settings", {"slaMinutes": 0}).status_code == 400
    assert inbox.call("PATCH", "/notification-settings", {"recipients": "everyone"}).status_code == 400
    assert inbox.ok("GET", "/notification-settings")["delayEmailEnabled"] is False


def test_a_key_limited_to_another_number_sees_no_conversations(inbox, api, line):
    inbox.customer("hola")
    key = api.post(f"/organizations/{line.org_id}/api-keys",
                   {"name": "otra", "phoneNumberIds": [another_number(line.org_id)["phoneNumberPk"]]},
                   token=inbox.token)
    assert key.status_code == 201, key.json
    answer = api.client.get(inbox.base, headers={"X-Api-Key": key.json["data"]["secret"]})
    assert answer.status_code == 200 and answer.json["data"]["items"] == []
    counts = api.client.get(inbox.base + "/unread-counts", headers={"X-Api-Key": key.json["data"]["secret"]})
    assert counts.json["data"]["total"] == 0


def test_contact_search_follows_renames_through_the_trigram_index(inbox, api, line):
    from sqlalchemy import select, text

    from appliance.contacts import search as contacts_search
    from appliance.contacts.models import Contact
    from appliance.core import runtime
    conversation = inbox.customer("hola", wa_id=OTHER, name="Beto Núñez")
    assert [c["id"] for c in inbox.ok("GET", search="NUNEZ")["items"]] == [conversation["id"]]
    renamed = api.patch(f"/organizations/{line.org_id}/contacts/{conversation['contactId']}",
                        {"name": "Roberto Ibáñez"}, token=inbox.token)
    assert renamed.status_code == 200, renamed.json
    assert [c["id"] for c in inbox.ok("GET", search="ibanez")["items"]] == [conversation["id"]]
    assert [c["id"] for c in inbox.ok("GET", search="Roberto")["items"]] == [conversation["id"]]
    assert inbox.ok("GET", search="Rob")["items"] and inbox.ok("GET", search="Ro")["items"]  # short: a scan
    assert [c["id"] for c in inbox.ok("GET", search='"; DROP')["items"]] == []
    database = runtime.get().db
    with database.unit_of_work(write=False) as session:
        if database.is_sqlite:
            triggers = {row[0] for row in session.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))}
            # A migration that recreates `contacts` must recreate these (see 0016).
            assert {"fts_contacts_insert", "fts_contacts_update", "fts_contacts_delete"} <= triggers
        else:
            # PostgreSQL keeps its trigram index itself (0055): it must exist, and be the one the search uses.
            indexes = {row[0] for row in session.execute(text("SELECT indexname FROM pg_indexes WHERE tablename = 'contacts'"))}
            assert "fts_contacts" in indexes
            statement = select(Contact.id).where(contacts_search.contains("nunez"))
            sql = str(statement.compile(dialect=session.get_bind().dialect, compile_kwargs={"literal_binds": True}))
            session.execute(text("SET LOCAL enable_seqscan = off"))  # a test's table is too small to need it
            assert "fts_contacts" in " ".join(row[0] for row in session.execute(text("EXPLAIN " + sql)))


def test_a_member_scoped_to_another_business_account_sees_none_of_these(inbox, api, line):
    conversation = inbox.customer("hola")
    agent = add_member(api, line.org_id, "agent", "agente@example.com")
    members = api.get(f"/organizations/{line.org_id}/memberships", token=inbox.token).json["data"]
    membership = next(m for m in members if m["email"] == "agente@example.com")
    scoped = api.put(f"/organizations/{line.org_id}/memberships/{membership['id']}/waba-scope",
                     {"wabaIds": [another_number(line.org_id)["wabaPk"]]}, token=inbox.token)
    assert scoped.status_code == 200, scoped.json
    assert inbox.call("GET", token=agent).json["data"]["items"] == []
    assert inbox.call("GET", f"/{conversation['id']}", token=agent).status_code == 404
    assert inbox.call("GET", "/unread-counts", token=agent).json["data"]["total"] == 0
    assert inbox.call("GET", "/search", token=agent, q="hola").json["data"]["items"] == []
    # Back to every account: all of it again.
    api.put(f"/organizations/{line.org_id}/memberships/{membership['id']}/waba-scope", {"wabaIds": []}, token=inbox.token)
    assert [c["id"] for c in inbox.call("GET", token=agent).json["data"]["items"]] == [conversation["id"]]


def test_a_customer_message_in_the_same_second_as_our_reply_is_the_preview(inbox, line):
    """The network stamps whole seconds, we stamp microseconds: the customer's answer that arrives
    in the second of our reply is the newer, and the list shows it."""
    from sqlalchemy import text

    from appliance.contacts.models import Contact
    from appliance.conversations import recording
    from appliance.core import runtime
    from appliance.phone_numbers.models import PhoneNumber

    conversation = inbox.customer("Hola")
    replied_at = clock.now().replace(microsecond=600_000)
    with runtime.get().db.unit_of_work(write=True) as session:  # our reply, 0.6 s into its second
        session.connection().execute(text("UPDATE conversations SET last_message_at = :at, preview = 'Buenos días' "
                                          "WHERE id = :id"), {"at": replied_at, "id": conversation["id"]})
    with runtime.get().db.unit_of_work(write=True) as session:
        number = session.get(PhoneNumber, line.number["id"])
        contact = session.get(Contact, conversation["contact"]["id"])
        recording.do_record_inbound(session, number=number, contact_id=contact.id,
                                    at=replied_at.replace(microsecond=0), preview="¿Y el pan?")
    assert inbox.ok("GET", f"/{conversation['id']}")["preview"] == "¿Y el pan?"
