"""POST /webhooks/whatsapp with the simulator's real deliveries: verification, signatures on raw
bytes, idempotency, statuses forward only, media in the background, opt-outs, bad input."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import timedelta

from sqlmodel import func, select

from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation
from appliance.core import clock, runtime
from appliance.core.events import OutboxEvent
from appliance.messages import media_store
from appliance.messages.inbound import media as media_service
from appliance.messages.models import Message
from appliance.netsim import webhooks
from tests.factories import another_number
from tests.fixtures.line import CUSTOMER, VERIFY_TOKEN
from tests.problems import assert_problem


def _count(model) -> int:
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.exec(select(func.count()).select_from(model)).one()


def _signed(line, payload: dict) -> tuple[dict, bytes]:
    body = webhooks.encode(payload)
    return {"X-Hub-Signature-256": webhooks.sign(line.account["appSecret"], body)}, body


def test_verification_handshake(client, line):
    ok = client.get("/webhooks/whatsapp", query_string={"hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN,
                                                        "hub.challenge": "1158201444"})
    assert ok.status_code == 200 and ok.text == "1158201444" and ok.mimetype == "text/plain"
    for query in ({"hub.mode": "subscribe", "hub.verify_token": "wrong", "hub.challenge": "1"},
                  {"hub.mode": "unsubscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1"}, {}):
        assert client.get("/webhooks/whatsapp", query_string=query).status_code == 403


def test_a_customer_writes_in_and_it_shows_through_the_api(line):
    wamid = line.customer_writes()
    answers = line.deliver()
    assert [a.status_code for a in answers] == [200]
    assert answers[0].json["data"] == {"messages": 1, "duplicates": 0, "statuses": 0, "echoes": 0, "contacts": 0}
    page = line.get("/conversations")
    assert page["nextCursor"] is None and len(page["items"]) == 1
    conversation = page["items"][0]
    assert conversation["status"] == "open" and conversation["unread"] is True
    assert conversation["phoneNumberId"] == line.number["id"] and conversation["windowExpiresAt"]
    messages = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    assert [(m["direction"], m["type"], m["wamid"], m["status"]) for m in messages] == [("in", "text", wamid, "received")]
    assert messages[0]["payload"] == {"text": {"body": "Hola, ¿tienen pan?"}}
    with runtime.get().db.unit_of_work(write=False) as session:
        contact = session.exec(select(Contact)).one()
        assert contact.wa_id == CUSTOMER and contact.profile_name == "Ana Pérez" and contact.user_id.startswith("US.")
        names = [e.name for e in session.exec(select(OutboxEvent).order_by(OutboxEvent.id)).all()]
    assert {"contact.created", "conversation.created", "message.created"} <= set(names)


def test_redeliveries_change_nothing(line):
    line.customer_writes()
    [(headers, body)] = line.deliveries()
    assert line.replay(headers, body).json["data"]["messages"] == 1
    again = line.replay(headers, body)
    assert again.status_code == 200 and again.json["data"] == {"messages": 0, "duplicates": 1, "statuses": 0, "echoes": 0, "contacts": 0}
    assert _count(Message) == 1 and _count(Conversation) == 1 and _count(Contact) == 1
    # The same message twice in one delivery, beside a new one from another customer.
    payload = json.loads(body)
    value = payload["entry"][0]["changes"][0]["value"]
    twin = dict(value["messages"][0], id="wamid.twin")
    other = dict(value["messages"][0], id="wamid.other", **{"from": "5215599999999"})
    value["messages"] = [twin, twin, other]
    answer = line.replay(*_signed(line, payload))
    assert answer.json["data"] == {"messages": 2, "duplicates": 1, "statuses": 0, "echoes": 0, "contacts": 0}
    assert _count(Message) == 3 and _count(Conversation) == 2 and _count(Contact) == 2


def test_signatures_are_checked_on_the_raw_bytes(line):
    line.customer_writes()
    [(headers, body)] = line.deliveries()
    unsigned = line.client.post("/webhooks/whatsapp", data=body, headers={"Content-Type": "application/json"})
    assert_problem(unsigned, 401, "webhook_signature_missing")
    forged = {"X-Hub-Signature-256": "sha256=" + hmac.new(b"not the secret", body, hashlib.sha256).hexdigest()}
    assert line.replay(forged, body).json["code"] == "webhook_signature_invalid"
    # The same JSON re-serialised (unescaped unicode and slashes): other bytes, so the signature fails.
    reserialised = json.dumps(json.loads(body), ensure_ascii=False).encode()
    assert line.replay(headers, reserialised).status_code == 401
    assert line.replay({"X-Hub-Signature-256": "sha1=abc"}, body).json["code"] == "webhook_signature_missing"
    assert _count(Message) == 0


def test_bad_payloads_store_nothing(line):
    line.customer_writes()
    [(headers, body)] = line.deliveries()
    payload = json.loads(body)
    good = payload["entry"][0]["changes"][0]["value"]["messages"][0]
    broken = dict(good, id="wamid.second")
    del broken["timestamp"]
    payload["entry"][0]["changes"][0]["value"]["messages"].append(broken)
    answer = line.replay(*_signed(line, payload))
    assert_problem(answer, 400, "invalid_webhook_payload")
    assert "entry[0].changes[0].value.messages[1]" in answer.json["errors"]
    assert _count(Message) == 0 and _count(Contact) == 0  # not even the good first message
    for bad in ({"object": "page"}, {"object": "whatsapp_business_account", "entry": []}, [1, 2]):
        assert line.replay(*_signed(line, bad)).status_code == 400
    not_json = line.replay({"X-Hub-Signature-256": "sha256=" + "0" * 64}, b"{not json")
    assert_problem(not_json, 400, "invalid_json")
    unknown = json.loads(body)
    unknown["entry"][0]["changes"][0]["value"]["metadata"]["phone_number_id"] = "999"
    answer = line.replay(*_signed(line, unknown))
    assert_problem(answer, 404, "unknown_phone_number")


def test_unknown_inbound_types_and_fields_are_kept_not_dropped(line):
    line.customer_writes({"type": "reaction", "reaction": {"message_id": "wamid.x", "emoji": "👍"}})
    line.customer_writes({"type": "unsupported", "errors": [{"code": 131051, "title": "Unsupported message type"}]})
    assert all(a.status_code == 200 for a in line.deliver())
    conversation = line.get("/conversations")["items"][0]
    kinds = {m["type"] for m in line.get(f"/conversations/{conversation['id']}/messages")["items"]}
    assert kinds == {"reaction", "unsupported"}


def _outbound(line, wamid: str) -> str:
    """An outbound message as the sending path will store it (sending is the next issue)."""
    line.customer_writes()
    line.deliver()
    with runtime.get().db.unit_of_work(write=True) as session:
        conversation = session.exec(select(Conversation)).one()
        now = clock.now()
        message = Message(organization_id=conversation.organization_id, phone_number_pk=conversation.phone_number_pk,
                          conversation_id=conversation.id, contact_id=conversation.contact_id, direction="out",
                          wamid=wamid, type="text", payload={"text": {"body": "Sí"}}, status="sent", sent_at=now,
                          created_at=now, updated_at=now)
        session.add(message)
    return message.id


def _status(line, wamid, status, errors=None):
    sent = {"wamid": wamid, "to": CUSTOMER, "type": "text"}
    entry = webhooks.status_entry(sent, status, clock.now().timestamp(), errors=errors)
    number = line.account["numbers"][0]
    change = {"field": "messages", "value": {"messaging_product": "whatsapp", "statuses": [entry],
              "metadata": {"display_phone_number": "15550102000", "phone_number_id": number["id"]}}}
    return line.replay(*_signed(line, webhooks.envelope(line.account["wabaId"], [change])))


def _status_of(message_id):
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.get(Message, message_id)


def test_statuses_move_forward_only_and_failed_sticks(line):
    message_id = _outbound(line, "wamid.OUT1")
    assert _status(line, "wamid.OUT1", "delivered").json["data"]["statuses"] == 1
    assert _status(line, "wamid.OUT1", "sent").json["data"]["statuses"] == 0  # late: ignored
    assert _status_of(message_id).status == "delivered"
    _status(line, "wamid.OUT1", "read")
    assert _status_of(message_id).status == "read"
    error = {"code": 131047, "title": "Re-engagement message", "error_data": {"details": "More than 24 hours"}}
    _status(line, "wamid.OUT1", "failed", errors=[error])
    failed = _status_of(message_id)
    assert (failed.status, failed.error_code, failed.error_title, failed.error_details) == (
        "failed", 131047, "Re-engagement message", "More than 24 hours")
    _status(line, "wamid.OUT1", "delivered")
    assert _status_of(message_id).status == "failed"
    assert _status(line, "wamid.UNKNOWN", "read").json["data"]["statuses"] == 0


def test_media_is_fetched_after_the_message_is_stored(line, settings):
    png = b"\x89PNG\r\n\x1a\n" + b"1" * 300
    line.customer_writes({"type": "image", "image": {"caption": "¿Este?"}},
                         media={"contentBase64": base64.b64encode(png).decode(), "mimeType": "image/png"})
    assert [a.status_code for a in line.deliver()] == [200]
    with runtime.get().db.unit_of_work(write=False) as session:
        message = session.exec(select(Message)).one()
    # The queue runs in immediate mode in tests: the fetch ran right after the commit.
    assert (message.media_status, message.media_mime_type, message.media_size) == ("stored", "image/png", len(png))
    assert media_store.inbound_path(message.organization_id, message.id).read_bytes() == png
    assert message.payload["image"]["caption"] == "¿Este?"


def test_media_that_cannot_be_fetched_leaves_the_message(line, simulator):
    line.customer_writes({"type": "document", "document": {"filename": "pedido.pdf"}},
                         media={"contentBase64": base64.b64encode(b"%PDF-1.4").decode(), "mimeType": "application/pdf"})
    deliveries = line.deliveries()
    simulator.network.media.clear()  # expired at the network before we asked for it
    assert [line.replay(h, b).status_code for h, b in deliveries] == [200]
    with runtime.get().db.unit_of_work(write=False) as session:
        message = session.exec(select(Message)).one()
    assert message.media_status == "failed" and message.error_code == 100 and message.type == "document"


def test_a_network_outage_keeps_the_fetch_pending_and_retries(line, netsim_url):
    import requests
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    line.customer_writes({"type": "audio", "audio": {"voice": True}},
                         media={"contentBase64": base64.b64encode(b"OggS").decode(), "mimeType": "audio/ogg"})
    # The simulator's faults only touch Graph calls, so its webhook still arrives.
    assert [a.status_code for a in line.deliver()] == [200]
    with runtime.get().db.unit_of_work(write=False) as session:
        message = session.exec(select(Message)).one()
    assert (message.media_status, message.media_attempts) == ("pending", 1)
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 0.0}, timeout=5)
    assert media_service.fetch(runtime.get().db, message.id) == ("stored", 2)
    clock.advance(3600)
    assert media_service.list_stuck(runtime.get().db, older_than=timedelta(minutes=30)) == []


def test_opt_out_keywords_of_the_organization(line):
    answer = line.api.patch(f"/organizations/{line.org_id}", {"optOutKeywords": ["BAJA", "stop"]},
                            token=line.owner["token"])
    assert answer.status_code == 200, answer.json
    line.customer_writes({"type": "text", "text": {"body": "  bája "}})
    line.deliver()
    with runtime.get().db.unit_of_work(write=False) as session:
        contact = session.exec(select(Contact)).one()
        events = [e.name for e in session.exec(select(OutboxEvent)).all()]
    assert contact.opted_out_at is not None and "contact.opted_out" in events


def test_a_closed_conversation_is_reopened(line):
    line.customer_writes()
    line.deliver()
    with runtime.get().db.unit_of_work(write=True) as session:
        conversation = session.exec(select(Conversation)).one()
        conversation.status, conversation.unread = "closed", False
        session.add(conversation)
    line.customer_writes({"type": "text", "text": {"body": "Otra cosa"}})
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    assert conversation["status"] == "open" and conversation["unread"] is True
    assert len(line.get(f"/conversations/{conversation['id']}/messages")["items"]) == 2


def test_pagination_and_other_tenants(line, api):
    for i in range(3):
        line.customer_writes(wa_id=f"52155000000{i}", name=f"C{i}")
    line.deliver()
    first = line.get("/conversations?take=2")
    assert len(first["items"]) == 2 and first["nextCursor"]
    rest = line.get(f"/conversations?take=2&cursor={first['nextCursor']}")
    assert len(rest["items"]) == 1 and rest["nextCursor"] is None
    conversation_id = first["items"][0]["id"]
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]["id"]
    assert api.get(f"/organizations/{theirs}/conversations/{conversation_id}/messages", token=stranger).status_code == 404
    assert api.get(f"/organizations/{theirs}/conversations", token=stranger).json["data"]["items"] == []
    key = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "other number",
                                                              "phoneNumberIds": [another_number(line.org_id)["phoneNumberPk"]]},
                   token=line.owner["token"]).json["data"]["secret"]
    listed = api.client.get(f"/organizations/{line.org_id}/conversations", headers={"X-Api-Key": key})
    assert listed.status_code == 200 and listed.json["data"]["items"] == []
    assert api.client.get(f"/organizations/{line.org_id}/conversations/{conversation_id}/messages",
                          headers={"X-Api-Key": key}).status_code == 404
    assert line.api.get(f"/organizations/{line.org_id}/conversations?take=0", token=line.owner["token"]).status_code == 400
    from appliance.core.pagination import encode_cursor
    for forged in ("nope", encode_cursor(["2026-11-21T10:00:00", "x"]), encode_cursor(["not a time", "x"]),
                   encode_cursor([1])):
        answer = line.api.get(f"/organizations/{line.org_id}/conversations?cursor={forged}", token=line.owner["token"])
        assert_problem(answer, 400, "invalid_cursor", forged)


def test_enormous_deliveries_and_bad_message_pages_are_refused(line, settings):
    line.customer_writes()
    [(headers, body)] = line.deliveries()
    payload = json.loads(body)
    value = payload["entry"][0]["changes"][0]["value"]
    value["messages"][0]["text"]["body"] = "x" * (settings.max_json_bytes + 1)
    answer = line.replay(*_signed(line, payload))
    assert_problem(answer, 413, "payload_too_large")
    assert _count(Message) == 0
    line.replay(headers, body)
    conversation = line.get("/conversations")["items"][0]
    path = f"/organizations/{line.org_id}/conversations/{conversation['id']}/messages"
    for query in ("?limit=0", "?limit=201", "?limit=x", "?before=not-ours"):
        answer = line.api.get(path + query, token=line.owner["token"])
        assert answer.status_code == 400, query


def test_erasing_a_contact_takes_their_conversation_and_messages(line):
    line.customer_writes()
    line.deliver()
    [contact] = line.get("/contacts")["items"]
    assert contact["profileName"] == "Ana Pérez" and contact["userId"]
    assert line.api.delete(f"/organizations/{line.org_id}/contacts/{contact['id']}",
                           token=line.owner["token"]).status_code == 204
    assert line.get("/conversations")["items"] == []
    assert _count(Message) == 0
    line.customer_writes({"type": "text", "text": {"body": "¿Sigue ahí?"}})  # writing again starts afresh
    line.deliver()
    assert len(line.get("/conversations")["items"]) == 1
