"""The real Graph client against the network simulator: shapes, errors, limits, media, templates,
and the webhooks the simulator posts back (signed over ASCII-escaped bytes, as Meta does)."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
import requests

from appliance.graph_api.client import GraphClient, GraphError
from tests.waiting import eventually

CUSTOMER = "5215512345678"


def _customer_writes(netsim_url, number_id, text="hola", wa_id=CUSTOMER, name="Ana Pérez"):
    answer = requests.post(f"{netsim_url}/_control/inbound", json={
        "phoneNumberId": number_id, "from": wa_id, "name": name, "type": "text", "text": {"body": text}}, timeout=5)
    assert answer.status_code == 201, answer.text
    return answer.json()["wamid"]


def _wait(netsim_url):
    assert requests.post(f"{netsim_url}/_control/wait", timeout=35).json()["idle"]


def test_numbers_are_listed_with_the_accounts_token(graph, account):
    numbers = graph.list_phone_numbers(account["accessToken"], account["wabaId"])
    assert [n["display_phone_number"] for n in numbers] == ["+1 555 010 2000"]
    assert numbers[0]["id"] == account["numbers"][0]["id"]
    with pytest.raises(GraphError) as wrong:
        graph.list_phone_numbers("EAAGnot-the-token", account["wabaId"])
    assert wrong.value.code == 190 and wrong.value.status == 401 and wrong.value.token_expired
    assert not wrong.value.retryable


def test_free_text_needs_an_open_window_and_then_is_accepted(graph, account, netsim_url, receiver):
    token, number = account["accessToken"], account["numbers"][0]["id"]
    text = {"to": CUSTOMER, "type": "text", "text": {"body": "Hola"}}
    with pytest.raises(GraphError) as closed:
        graph.send_message(token, number, text)
    assert closed.value.code == 131047 and closed.value.status == 400 and not closed.value.retryable
    assert "24 hours" in closed.value.details
    _customer_writes(netsim_url, number)
    answer = graph.send_message(token, number, {**text, "to": "+" + CUSTOMER})
    assert answer["contacts"] == [{"input": "+" + CUSTOMER, "wa_id": CUSTOMER}]
    assert answer["messages"][0]["id"].startswith("wamid.") and answer["messages"][0]["message_status"] == "accepted"
    sent = requests.get(f"{netsim_url}/_control/sent", timeout=5).json()["data"]
    assert [m["text"]["body"] for m in sent] == ["Hola"]
    _wait(netsim_url)
    statuses = [s["status"] for _, body in receiver[1].posts
                for e in json.loads(body)["entry"] for c in e["changes"] for s in c["value"].get("statuses", [])]
    assert statuses == ["sent", "delivered"]


def test_webhooks_are_signed_over_the_ascii_escaped_bytes(account, netsim_url, receiver):
    _customer_writes(netsim_url, account["numbers"][0]["id"], text="¿Tienen pan/dulce? ä")
    _wait(netsim_url)
    headers, body = receiver[1].posts[-1]
    assert body.isascii() and b"\\u00e4" in body and b"pan\\/dulce" in body
    expected = "sha256=" + hmac.new(account["appSecret"].encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Hub-Signature-256"] == expected
    # Re-serialising the parsed JSON gives other bytes: receivers must check the raw body.
    assert json.dumps(json.loads(body)).encode() != body
    change = json.loads(body)["entry"][0]["changes"][0]
    assert change["field"] == "messages"
    value = change["value"]
    assert value["metadata"]["phone_number_id"] == account["numbers"][0]["id"]
    assert value["contacts"][0]["wa_id"] == CUSTOMER and value["contacts"][0]["user_id"].startswith("US.")
    message = value["messages"][0]
    assert message["text"]["body"] == "¿Tienen pan/dulce? ä" and isinstance(message["timestamp"], str)


def test_a_failing_receiver_gets_the_delivery_again(account, netsim_url, receiver):
    receiver[1].answer_status = 500
    _customer_writes(netsim_url, account["numbers"][0]["id"])
    eventually(lambda: len(receiver[1].posts), lambda posts: posts >= 2, seconds=5)
    receiver[1].answer_status = 200
    _wait(netsim_url)
    bodies = [body for _, body in receiver[1].posts]
    assert len(bodies) >= 3 and len(set(bodies)) == 1  # the same delivery, again, until answered 200


def test_limits_of_the_network(graph, account, netsim_url, simulator):
    token, number = account["accessToken"], account["numbers"][0]["id"]
    _customer_writes(netsim_url, number)
    simulator.network.numbers[number].messages_per_second = 3
    codes = []
    for _ in range(5):
        try:
            graph.send_message(token, number, {"to": CUSTOMER, "type": "text", "text": {"body": "x"}})
            codes.append(200)
        except GraphError as error:
            codes.append(error.code)
            assert error.retryable
    assert codes[:3] == [200, 200, 200] and set(codes[3:]) == {130429}
    simulator.network.numbers[number].messages_per_second = 1000
    pair = []
    for _ in range(50):  # 45 may burst to one person; then one per six seconds
        try:
            graph.send_message(token, number, {"to": CUSTOMER, "type": "reaction",
                                               "reaction": {"message_id": "wamid.x", "emoji": "👍"}})
            pair.append(200)
        except GraphError as error:
            pair.append(error.code)
    assert 131056 in pair and pair.index(131056) >= 40
    simulator.network.customer("15550009999", on_whatsapp=False)
    with pytest.raises(GraphError) as absent:
        graph.send_message(token, number, {"to": "15550009999", "type": "reaction",
                                           "reaction": {"message_id": "wamid.x", "emoji": "👍"}})
    assert absent.value.code == 131026 and not absent.value.retryable


def test_templates_are_created_approved_and_checked(graph, account, netsim_url, receiver):
    token, waba, number = account["accessToken"], account["wabaId"], account["numbers"][0]["id"]
    created = graph.create_template(token, waba, {
        "name": "order_ready", "language": "es_MX", "category": "UTILITY",
        "components": [{"type": "HEADER", "format": "IMAGE"},
                       {"type": "BODY", "text": "Hola {{1}}, tu pedido {{2}} está listo."}]})
    assert created["status"] == "PENDING"
    send = {"to": CUSTOMER, "type": "template", "template": {"name": "order_ready", "language": {"code": "es_MX"},
                                                             "components": []}}
    with pytest.raises(GraphError) as pending:
        graph.send_message(token, number, send)
    assert pending.value.code == 132001
    approved = requests.post(f"{netsim_url}/_control/templates/{waba}/status",
                             json={"name": "order_ready", "language": "es_MX", "status": "APPROVED"}, timeout=5)
    assert approved.status_code == 200
    assert [t["status"] for t in graph.list_templates(token, waba)] == ["APPROVED"]
    with pytest.raises(GraphError) as count:
        graph.send_message(token, number, send)
    assert count.value.code == 132000
    body = {"type": "body", "parameters": [{"type": "text", "text": "Ana"}, {"type": "text", "text": "A-17"}]}
    with pytest.raises(GraphError) as header:
        graph.send_message(token, number, {**send, "template": {**send["template"], "components": [body]}})
    assert header.value.code == 132012 and "expected IMAGE" in header.value.details
    image = {"type": "header", "parameters": [{"type": "image", "image": {"link": "https://example.com/p.jpg"}}]}
    answer = graph.send_message(token, number, {**send, "template": {**send["template"], "components": [image, body]}})
    assert answer["messages"][0]["id"].startswith("wamid.")  # templates need no open window
    _wait(netsim_url)
    fields = [c["field"] for _, b in receiver[1].posts for e in json.loads(b)["entry"] for c in e["changes"]]
    assert "message_template_status_update" in fields


def test_media_round_trip(graph, account):
    token, number = account["accessToken"], account["numbers"][0]["id"]
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 100
    media_id = graph.upload_media(token, number, png, "image/png", "p.png")
    info = graph.get_media(token, media_id)
    assert info["mime_type"] == "image/png" and info["file_size"] == len(png)
    assert info["sha256"] == hashlib.sha256(png).hexdigest()
    assert graph.download_media(token, info["url"], max_bytes=1000) == png
    with pytest.raises(GraphError):
        graph.download_media(token, info["url"], max_bytes=10)
    with pytest.raises(GraphError) as html:
        graph.upload_media(token, number, b"<html>", "text/html")
    assert html.value.code == 131053
    assert graph.delete_media(token, media_id) is True
    with pytest.raises(GraphError) as gone:
        graph.get_media(token, media_id)
    assert gone.value.code == 100


def test_outages_and_timeouts_are_retryable_transport_errors(graph, account, netsim_url):
    token, waba = account["accessToken"], account["wabaId"]
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    with pytest.raises(GraphError) as outage:
        graph.list_phone_numbers(token, waba)
    assert outage.value.status == 500 and outage.value.retryable and not outage.value.token_expired
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 0.0, "slowSeconds": 1.0}, timeout=5)
    impatient = GraphClient(netsim_url, "v23.0", timeout=0.3)
    with pytest.raises(GraphError) as slow:
        impatient.list_phone_numbers(token, waba)
    assert slow.value.code == -1 and slow.value.retryable and "timed out" in slow.value.message
    unreachable = GraphClient("http://127.0.0.1:9", "v23.0", timeout=1)
    with pytest.raises(GraphError) as refused:
        unreachable.list_phone_numbers(token, waba)
    assert refused.value.code == -1 and refused.value.status == 0


def test_bad_ids_never_reach_the_network(graph):
    for bad in ("../me", "1/2", "", "1?x=1"):
        with pytest.raises(ValueError):
            graph.list_phone_numbers("token", bad)


def test_a_message_send_says_whether_it_may_have_left_when_the_network_fails(graph, account, netsim_url):
    """Messages go through the client's urllib3 path: the same errors as every other call, and a
    transport failure says whether the message may have reached the network (a read timed out:
    maybe; nothing could connect: never) so the queue neither loses nor doubles it."""
    token, number = account["accessToken"], account["numbers"][0]["id"]
    text = {"to": CUSTOMER, "type": "text", "text": {"body": "hola"}}
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    with pytest.raises(GraphError) as outage:
        graph.send_message(token, number, text)
    assert outage.value.status == 500 and outage.value.retryable
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 0.0, "slowSeconds": 1.0}, timeout=5)
    with pytest.raises(GraphError) as slow:
        GraphClient(netsim_url, "v23.0", timeout=0.3).send_message(token, number, text)
    assert slow.value.code == -1 and "timed out" in slow.value.message and slow.value.maybe_delivered
    requests.put(f"{netsim_url}/_control/faults", json={"slowSeconds": 0.0}, timeout=5)
    with pytest.raises(GraphError) as refused:
        GraphClient("http://127.0.0.1:9", "v23.0", timeout=1).send_message(token, number, text)
    assert refused.value.code == -1 and refused.value.status == 0 and not refused.value.maybe_delivered
    with pytest.raises(GraphError) as bad_token:
        graph.send_message("not-a-token", number, text)
    assert bad_token.value.token_expired
