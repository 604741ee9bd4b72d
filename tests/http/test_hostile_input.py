"""Issue 17's findings 3 and 6, reproduced as observed: input that answered 500 (a traceback in the
log per request) now answers 400 with a stable code, or is stored mended, never lost."""

import json

import pytest
from sqlmodel import select

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
