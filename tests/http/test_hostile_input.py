"""Issue 17's findings 3 and 6, reproduced as observed: input that answered 500 (a traceback in the
log per request) now answers 400 with a stable code, or is stored mended, never lost."""

import json

import pytest
from sqlmodel import select

from appliance.contacts.models import Contact
from appliance.core import json_text, runtime
from appliance.messages.models import Message
from appliance.netsim import webhooks
from tests.problems import assert_problem

DEEP = b"[" * 1000 + b"]" * 1000


@pytest.mark.parametrize("path", ["/auth/login", "/auth/signup", "/webhooks/whatsapp", "/oauth/token"])
def test_deeply_nested_json_is_refused_on_public_routes(client, path):
    answer = client.post(path, data=DEEP, headers={"Content-Type": "application/json"})
    assert_problem(answer, 400, "json_too_deep")


def test_deeply_nested_json_is_refused_on_signed_in_routes_and_the_limit_is_exact(api, owner):
    org_id = owner["org"]["id"]
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {owner['token']}"}
    deep = api.client.post(f"/organizations/{org_id}/contacts", data=b'{"waId": ' + DEEP + b"}", headers=headers)
    assert_problem(deep, 400, "json_too_deep")
    at_limit = {"attributes": json.loads("[" * (json_text.MAX_DEPTH - 1) + "]" * (json_text.MAX_DEPTH - 1))}
    answer = api.client.post(f"/organizations/{org_id}/contacts", json={"waId": "573001112222", **at_limit},
                             headers=headers)
    assert answer.status_code == 400 and answer.json["code"] != "json_too_deep"  # deep enough, refused for its shape
    brackets_in_text = {"waId": "573001112222", "name": "[" * 500}
    answer = api.client.post(f"/organizations/{org_id}/contacts", json=brackets_in_text, headers=headers)
    assert answer.json["code"] != "json_too_deep"  # brackets inside strings are text


def test_a_signed_webhook_with_a_lone_surrogate_is_stored_mended(line):
    line.customer_writes({"type": "text", "text": {"body": "MARK"}})
    [(headers, body)] = line.deliveries()
    body = body.replace(b"MARK", b"hola \\ud800 chau")
    headers = {"X-Hub-Signature-256": webhooks.sign(line.account["appSecret"], body)}
    assert line.replay(headers, body).status_code == 200  # not a 500 Meta would redeliver forever
    with runtime.get().db.unit_of_work(write=False) as session:
        [message] = session.exec(select(Message)).all()
    assert message.payload["text"]["body"] == "hola \ufffd chau"


def test_a_signed_webhook_with_nul_characters_is_stored_mended_on_both_engines(line):
    """PostgreSQL's text cannot hold U+0000 (SQLite's can): a NUL the sender escaped is stored as U+FFFD on
    either engine, with the rest of the delivery (a huge number included), and acknowledged."""
    line.customer_writes({"type": "text", "text": {"body": "MARK"}}, name="Ana NAME")
    [(headers, body)] = line.deliveries()
    body = body.replace(b'MARK"', b'hola \\u0000 chau","n":-1.0528957739166775e+244').replace(b"NAME", b"P\\u0000\\ud80a")
    headers = {"X-Hub-Signature-256": webhooks.sign(line.account["appSecret"], body)}
    answer = line.replay(headers, body)
    assert answer.status_code == 200 and answer.json["data"]["messages"] == 1, answer.json
    with runtime.get().db.unit_of_work(write=False) as session:
        [message] = session.exec(select(Message)).all()
        [contact] = session.exec(select(Contact)).all()
    assert message.payload["text"] == {"body": "hola \ufffd chau", "n": -1.0528957739166775e+244}
    assert contact.profile_name == "Ana P\ufffd\ufffd"


def test_a_webhook_naming_an_account_with_a_nul_finds_none(line):
    """The WABA id is looked up before the signature is checked: a NUL in it is an unknown account (404), as on
    SQLite, not PostgreSQL's refusal of the text (a 500)."""
    body = webhooks.encode(webhooks.envelope(line.account["wabaId"] + "\u0000\ud80a",
                                             [{"field": "account_update", "value": {"event": "x\u0000"}}]))
    answer = line.replay({"X-Hub-Signature-256": webhooks.sign(line.account["appSecret"], body)}, body)
    assert_problem(answer, 404, "unknown_phone_number")


@pytest.mark.parametrize("number", [b"NaN", b"-Infinity", b"1e400"])
def test_a_webhook_with_a_number_json_cannot_hold_is_a_400(line, number):
    """Python reads NaN, Infinity and 1e400 (as inf), which neither JSON nor PostgreSQL's json column takes."""
    body = webhooks.encode(webhooks.envelope(line.account["wabaId"], [{"field": "account_update", "value": {"n": 1}}]))
    body = body.replace(b'"n":1', b'"n":' + number)
    answer = line.replay({"X-Hub-Signature-256": webhooks.sign(line.account["appSecret"], body)}, body)
    assert_problem(answer, 400, "invalid_json")


def test_a_pasted_token_with_a_stray_character_is_a_400(api, owner, account):
    org_id = owner["org"]["id"]
    for token in ("EAAG\u00f1token", "EAAG token", "EAAG\u2028x", "\nEAAGtoken"):
        answer = api.post(f"/organizations/{org_id}/wabas", {"wabaId": account["wabaId"], "accessToken": token,
                                                             "appSecret": account["appSecret"]}, token=owner["token"])
        assert answer.status_code == 400, (token, answer.json)  # a 500 (Latin-1) or a 503 (newline) before
        if token.strip() == token:
            assert "accessToken" in answer.json["errors"]
        else:  # trimmed, well formed: the network says it does not know it
            assert answer.json["code"] == "graph_token_invalid"
    pasted = api.post(f"/organizations/{org_id}/wabas", {"wabaId": account["wabaId"],
                                                         "accessToken": account["accessToken"] + "\n",
                                                         "appSecret": account["appSecret"]}, token=owner["token"])
    assert pasted.status_code == 201, pasted.json  # a trailing line break from the clipboard is trimmed


def test_list_names_that_differ_only_in_case_are_one_name_in_every_script(api, owner):
    lists = f"/organizations/{owner['org']['id']}/contact-lists"
    assert api.post(lists, {"name": "Über"}, token=owner["token"]).status_code == 201
    for same in ("Über", "über", "ÜBER"):
        assert_problem(api.post(lists, {"name": same}, token=owner["token"]), 409, "contact_list_name_taken")
    assert api.post(lists, {"name": "Uber"}, token=owner["token"]).status_code == 201


@pytest.mark.parametrize("name", ["Ana\u202eazúcar", "Ana\u200bMaría", "Ana\u0085x", "\ufeffAna", "Ana\u2066x\u2069"])
def test_names_refuse_hidden_and_reordering_characters(api, owner, name):
    answer = api.post(f"/organizations/{owner['org']['id']}/contacts", {"waId": "573001112222", "name": name},
                      token=owner["token"])
    assert answer.status_code == 400 and "name" in answer.json["errors"], answer.json


def test_emoji_sequences_with_joiners_are_names(api, owner):
    family = "Familia \U0001F468\u200D\U0001F469\u200D\U0001F467"
    answer = api.post(f"/organizations/{owner['org']['id']}/contacts", {"waId": "573001112222", "name": family},
                      token=owner["token"])
    assert answer.status_code == 201 and answer.json["data"]["name"] == family


@pytest.mark.parametrize("value", [80.5, True])
def test_integers_are_whole_numbers_not_truncated(line, value):
    answer = line.api.patch(f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}",
                            {"messagesPerSecond": value}, token=line.owner["token"])
    assert answer.status_code == 400 and "messagesPerSecond" in answer.json["errors"], answer.json
    assert line.api.patch(f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}",
                          {"messagesPerSecond": 80.0}, token=line.owner["token"]).status_code == 200
