"""Issue 23, part 2: the inbox's rules. With requireJornadaForInbox an agent without a shift in
progress cannot send or take conversations (403 shift_not_started); with requireActiveToAttend an
agent on LUNCH cannot either (403 agent_not_active), and nobody gives them one (409). People who
manage attendance, API keys and the bot are not held."""

from tests.attendance.test_sessions import base, turn_on
from tests.factories import add_member
from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem


def _conversation(line):
    line.customer_writes()
    line.deliver()
    return line.get("/conversations")["items"][0]


def test_no_shift_no_sending_nor_assignment(api, line):
    owner = line.owner
    org = line.org_id
    agent = add_member(api, org, "agent", "luis@example.com")
    luis = api.get("/users/me", token=agent).json["data"]["id"]
    conversation = _conversation(line)
    send = {"phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "Hola"}}
    assign = f"/organizations/{org}/conversations/{conversation['id']}/assignee"
    assert api.post(f"/organizations/{org}/messages", send, token=agent).status_code == 201  # rules off
    turn_on(api, owner, requireJornadaForInbox=True)
    assert_problem(api.post(f"/organizations/{org}/messages", send, token=agent), 403, "shift_not_started")
    assert_problem(api.patch(assign, {"userId": luis}, token=agent), 403, "shift_not_started")
    assert api.post(f"/organizations/{org}/messages", send, token=owner["token"]).status_code == 201
    key = api.post(f"/organizations/{org}/api-keys", {"name": "erp"}, token=owner["token"]).json["data"]["secret"]
    assert api.client.post(f"/organizations/{org}/messages", json=send, headers={"X-Api-Key": key}).status_code == 201
    api.post(f"{base(owner)}/start", token=agent)
    assert api.post(f"/organizations/{org}/messages", send, token=agent).status_code == 201
    assert api.patch(assign, {"userId": luis}, token=agent).status_code == 200


def test_on_lunch_no_attending_and_nobody_gives_you_one(api, line):
    owner, org = line.owner, line.org_id
    agent = add_member(api, org, "agent", "luis@example.com")
    luis = api.get("/users/me", token=agent).json["data"]["id"]
    conversation = _conversation(line)
    assign = f"/organizations/{org}/conversations/{conversation['id']}/assignee"
    send = {"phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "Hola"}}
    turn_on(api, owner, requireActiveToAttend=True)
    assert_problem(api.patch(assign, {"userId": luis}, token=owner["token"]), 409, "assignee_not_active")
    api.post(f"{base(owner)}/start", token=agent)
    assert api.patch(assign, {"userId": luis}, token=owner["token"]).status_code == 200
    api.post(f"{base(owner)}/status", {"status": "LUNCH"}, token=agent)
    assert_problem(api.post(f"/organizations/{org}/messages", send, token=agent), 403, "agent_not_active")
    assert_problem(api.patch(assign, {"userId": None}, token=agent), 403, "agent_not_active")
    api.patch(assign, {"userId": None}, token=owner["token"])
    assert_problem(api.patch(assign, {"userId": luis}, token=owner["token"]), 409, "assignee_not_active")
    api.post(f"{base(owner)}/status", {"status": "ONLINE"}, token=agent)
    assert api.post(f"/organizations/{org}/messages", send, token=agent).status_code == 201
