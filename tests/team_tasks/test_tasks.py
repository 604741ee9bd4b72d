"""Issue 18, part 6: the team's tasks. Who made one (USER, API) is recorded, not chosen; links name
the organization's own records; DONE records when; lists filter by status, assignee and origin."""

import pytest

from tests.factories import add_member
from tests.problems import assert_problem, error_fields


def _tasks(owner):
    return f"/organizations/{owner['org']['id']}/tasks"


def test_tasks_are_made_listed_done_and_deleted(api, owner):
    token = owner["token"]
    me = api.get("/users/me", token=token).json["data"]["id"]
    made = api.post(_tasks(owner), {"title": "Llamar a Ana", "detail": "Quiere 3 docenas el sábado",
                                    "assigneeUserId": me, "dueAt": "2026-12-01T15:00:00Z"}, token=token)
    assert made.status_code == 201, made.json
    task = made.json["data"]
    assert (task["status"], task["origin"], task["createdByUserId"], task["doneAt"]) == ("OPEN", "USER", me, None)
    key = api.post(f"/organizations/{owner['org']['id']}/api-keys", {"name": "erp"}, token=token).json["data"]["secret"]
    by_api = api.client.post(_tasks(owner), json={"title": "Factura 88"}, headers={"X-Api-Key": key})
    assert by_api.status_code == 201 and by_api.json["data"]["origin"] == "API"
    forged = api.post(_tasks(owner), {"title": "x", "origin": "BOT"}, token=token)
    assert forged.status_code == 400 and "origin" in error_fields(forged)  # recorded, not chosen

    done = api.patch(f"{_tasks(owner)}/{task['id']}", {"status": "DONE"}, token=token).json["data"]
    assert done["status"] == "DONE" and done["doneAt"]
    assert api.patch(f"{_tasks(owner)}/{task['id']}", {"status": "OPEN"}, token=token).json["data"]["doneAt"] is None
    mine = api.get(f"{_tasks(owner)}?assigneeUserId=me", token=token).json["data"]["items"]
    assert [t["title"] for t in mine] == ["Llamar a Ana"]
    assert [t["title"] for t in api.get(f"{_tasks(owner)}?origin=API", token=token).json["data"]["items"]] == ["Factura 88"]
    page = api.get(f"{_tasks(owner)}?take=1", token=token).json["data"]
    assert len(page["items"]) == 1 and page["nextCursor"]
    assert api.delete(f"{_tasks(owner)}/{task['id']}", token=token).status_code == 204
    assert_problem(api.get(f"{_tasks(owner)}/{task['id']}", token=token), 404, "task_not_found")


@pytest.mark.parametrize("body, field", [
    ({"title": ""}, "title"), ({"title": "x" * 201}, "title"), ({"title": "x", "status": "LATER"}, "status"),
    ({"title": "x", "dueAt": "tomorrow"}, "dueAt"), ({"title": "x", "dueAt": "2026-12-01T15:00:00"}, "dueAt"),
    ({"title": "x", "conversationId": "01a20000-0000-7000-8000-000000000000"}, "conversationId"),
    ({"title": "x", "contactId": "01a20000-0000-7000-8000-000000000000"}, "contactId"),
    ({"title": "x", "assigneeUserId": "01a20000-0000-7000-8000-000000000000"}, "assigneeUserId"),
])
def test_every_field_and_link_is_checked(api, owner, body, field):
    answer = api.post(_tasks(owner), body, token=owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_members_and_other_tenants(api, owner):
    agent = add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    assert api.post(_tasks(owner), {"title": "De un agente"}, token=agent).status_code == 201
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    eve_id = api.get("/users/me", token=eve).json["data"]["id"]
    assigned = api.post(_tasks(owner), {"title": "x", "assigneeUserId": eve_id}, token=owner["token"])
    assert_problem(assigned, 400, "unknown_ids")  # not a member: an id of nobody's here
    task = api.post(_tasks(owner), {"title": "mía"}, token=owner["token"]).json["data"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"}, token=eve).json["data"]["id"]
    assert api.get(f"/organizations/{theirs}/tasks/{task['id']}", token=eve).status_code == 404


UNKNOWN = "01a20000-0000-7000-8000-000000000000"


@pytest.mark.parametrize("field", ["conversationId", "contactId", "assigneeUserId"])
def test_a_task_changed_to_an_unknown_or_foreign_id_is_refused_like_a_new_one(api, owner, field):
    """Issue 44, item 11: a PATCH naming a conversation, contact or person of nobody's answered 500
    (the task, changed in memory, was flushed by the check's own read and failed its foreign key)."""
    token = owner["token"]
    task = api.post(_tasks(owner), {"title": "Llamar"}, token=token).json["data"]
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"}, token=eve).json["data"]
    foreign = {"conversationId": None, "assigneeUserId": api.get("/users/me", token=eve).json["data"]["id"],
               "contactId": api.post(f"/organizations/{theirs['id']}/contacts", {"waId": "5215599990000", "name": "Suyo"},
                                     token=eve).json["data"]["id"]}[field]
    for unknown in [UNKNOWN] + ([foreign] if foreign else []):
        changed = api.patch(f"{_tasks(owner)}/{task['id']}", {field: unknown}, token=token)
        assert_problem(changed, 400, "unknown_ids", unknown)
        assert field in changed.json["errors"], changed.json
        assert_problem(api.post(_tasks(owner), {"title": "x", field: unknown}, token=token), 400, "unknown_ids", unknown)
    assert api.get(f"{_tasks(owner)}/{task['id']}", token=token).json["data"][field] is None


def test_a_suspended_member_is_not_given_tasks(api, owner):
    agent = add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    agent_id = api.get("/users/me", token=agent).json["data"]["id"]
    members = api.get(f"/organizations/{owner['org']['id']}/memberships", token=owner["token"]).json["data"]
    membership = next(m for m in members if m["userId"] == agent_id)
    suspended = api.patch(f"/memberships/{membership['id']}/suspension",
                          {"suspended": True}, token=owner["token"])
    assert suspended.status_code == 200, suspended.json
    task = api.post(_tasks(owner), {"title": "x"}, token=owner["token"]).json["data"]
    refused = api.patch(f"{_tasks(owner)}/{task['id']}", {"assigneeUserId": agent_id}, token=owner["token"])
    assert_problem(refused, 400, "assignee_not_member")
