"""POST /messages end to end: stored, queued, sent once to the simulator, statuses forward."""

import requests

from appliance.core import clock
from tests.factories import another_number
from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem


def test_a_text_goes_out_once_and_its_statuses_move_to_read(outbox):
    created = outbox.text()
    assert created["status"] == "pending" and created["to"] == CUSTOMER and created["direction"] == "out"
    sent = outbox.get(created["id"])
    assert sent["status"] == "sent" and sent["wamid"].startswith("wamid.")
    [got] = outbox.network_got()
    assert got["text"] == {"body": "Sí, recién salido del horno", "preview_url": False}
    assert got["biz_opaque_callback_data"] == created["id"] and got["to"] == CUSTOMER
    outbox.line.deliver()
    assert outbox.get(created["id"])["status"] == "delivered"


def test_read_receipts_move_the_status_forward_only(outbox):
    created = outbox.text()
    wamid = outbox.get(created["id"])["wamid"]
    assert requests.post(f"{outbox.line.netsim_url}/_control/read", json={"wamid": wamid}, timeout=5).status_code == 200
    outbox.faults(reorderStatuses=True)
    outbox.line.deliver()  # sent+delivered, then read: in any order, read wins
    assert outbox.get(created["id"])["status"] == "read"


def test_a_repeated_client_id_answers_the_first_message_and_sends_nothing(outbox):
    first = outbox.send(type="text", payload={"body": "uno"}, clientId="pos-17")
    again = outbox.send(type="text", payload={"body": "uno"}, clientId="pos-17")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json["data"]["id"] == first.json["data"]["id"]
    assert len(outbox.network_got()) == 1


def test_recipients_are_normalized_and_anything_else_refused(outbox):
    assert outbox.text(to="+" + CUSTOMER)["to"] == CUSTOMER
    for bad in ("52 155 1234 5678", "abc", "+", "12345", "1" * 16, "+-5215512345678"):
        refused = outbox.send(type="text", payload={"body": "x"}, to=bad)
        assert_problem(refused, 400, "invalid_recipient", bad)
        assert "to" in refused.json["errors"]


def test_every_field_is_checked_and_named(outbox):
    cases = [
        ({"type": "text", "payload": {"body": ""}}, "payload.body"),
        ({"type": "text", "payload": {"body": "x" * 4097}}, "payload.body"),
        ({"type": "text", "payload": {"body": "x", "colour": "red"}}, "payload.colour"),
        ({"type": "text"}, "payload"),
        ({"type": "image", "payload": {"caption": "sin imagen"}}, "payload.id"),
        ({"type": "image", "payload": {"link": "ftp://x/y.jpg"}}, "payload.link"),
        ({"type": "audio", "payload": {"id": "123", "caption": "audio has none"}}, "payload.caption"),
        ({"type": "location", "payload": {"latitude": 91, "longitude": 0}}, "payload.latitude"),
        ({"type": "contacts", "payload": {"contacts": [{"name": {}}]}}, "payload.contacts[0].name.formatted_name"),
        ({"type": "interactive", "payload": {"type": "button", "body": {"text": "¿Sí?"}, "action": {"buttons": []}}},
         "payload.action.buttons"),
        ({"type": "reaction", "payload": {"message_id": "nope", "emoji": "👍"}}, "payload.message_id"),
        ({"type": "fax", "payload": {}}, "type"),
        ({"type": "text", "payload": {"body": "x"}, "templateName": "hola"}, "type"),
    ]
    for body, field in cases:
        refused = outbox.send(body)
        assert refused.status_code == 400, (body, refused.json)
        assert field in refused.json["errors"], (field, refused.json)
    assert outbox.send({"type": "text", "payload": {"body": "x"}, "unknown": 1}).status_code == 400
    assert outbox.network_got() == []


def test_outside_the_window_only_templates_go(outbox, api):
    refused = outbox.send(type="text", payload={"body": "hola"}, to="5215599999999")
    assert_problem(refused, 400, "outside_service_window")
    assert "template" in refused.json["detail"]
    line = outbox.line
    key = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "pos"}, token=line.owner["token"]).json["data"]["secret"]
    clock.advance(24 * 3600 + 1)
    late = api.client.post(f"/organizations/{line.org_id}/messages", headers={"X-Api-Key": key}, json={
        "phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "¿sigues ahí?"}})
    assert_problem(late, 400, "outside_service_window")
    assert outbox.network_got() == []


def test_a_reply_quotes_the_customers_message(outbox):
    inbound = outbox.line.get("/conversations")["items"][0]
    [message] = outbox.line.get(f"/conversations/{inbound['id']}/messages")["items"]
    created = outbox.text("Te respondo", replyToMessageId=message["id"])
    assert created["replyToMessageId"] == message["id"] and created["replyToWamid"] == message["wamid"]
    assert outbox.network_got()[0]["context"] == {"message_id": message["wamid"]}
    missing = outbox.send(type="text", payload={"body": "x"}, replyToMessageId="00000000-0000-7000-8000-000000000009")
    assert_problem(missing, 404, "message_not_found")


def test_a_key_restricted_to_other_numbers_gets_403(outbox, api):
    line = outbox.line
    key = api.post(f"/organizations/{line.org_id}/api-keys", {
        "name": "otro número", "phoneNumberIds": [another_number(line.org_id)["phoneNumberPk"]]},
        token=line.owner["token"]).json["data"]["secret"]
    refused = api.client.post(f"/organizations/{line.org_id}/messages", headers={"X-Api-Key": key}, json={
        "phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "x"}})
    assert_problem(refused, 403, "phone_number_not_allowed")
    allowed = api.post(f"/organizations/{line.org_id}/api-keys", {
        "name": "este número", "phoneNumberIds": [line.number["id"]]}, token=line.owner["token"]).json["data"]["secret"]
    sent = api.client.post(f"/organizations/{line.org_id}/messages", headers={"X-Api-Key": allowed}, json={
        "phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "x"}})
    assert sent.status_code == 201, sent.json
    assert sent.json["data"]["sentByUserId"] is None
    by_person = outbox.line.api.post(f"/organizations/{line.org_id}/messages", {
        "phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "y"}},
        token=line.owner["token"])
    assert by_person.status_code == 201 and by_person.json["data"]["sentByUserId"]


def test_another_organization_cannot_send_from_or_read_this_number(outbox, api):
    created = outbox.text()
    token = api.signup(email="otra@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Otra", "slug": "otra", "billingEmail": "b@otra.test"},
                      token=token).json["data"]["id"]
    refused = api.post(f"/organizations/{theirs}/messages", {
        "phoneNumberId": outbox.line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "x"}}, token=token)
    assert_problem(refused, 404, "phone_number_not_found")
    assert api.get(f"/organizations/{theirs}/messages/{created['id']}", token=token).status_code == 404
    assert api.get(f"/organizations/{outbox.line.org_id}/messages/{created['id']}", token=token).status_code == 403
