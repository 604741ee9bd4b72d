"""Issue 18, part 3: the engine. A customer's message on a number whose bot is on becomes a turn
(after the debounce), decided in the order of the docs, answered once, as the bot; every
decision is in the activity log."""

import requests

from appliance.bots import runner
from appliance.core import clock, runtime


def _network_got(line) -> list[dict]:
    return requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"]


def _texts(line) -> list[str]:
    return [m.get("text", {}).get("body") or m.get("interactive", {}).get("body", {}).get("text")
            for m in _network_got(line)]


def _bot(line, api, **fields):
    body = {"enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0, **fields}
    answer = api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}", body, token=line.owner["token"])
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def _rule(line, api, **fields):
    answer = api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "Pan", "keywords": ["pan"],
                                                                  "reply": "Sí, pan recién horneado.", **fields},
                      token=line.owner["token"])
    assert answer.status_code == 201, answer.json
    return answer.json["data"]


def _kinds(line) -> list[str]:
    return [a["kind"] for a in reversed(line.get("/bot/activity")["items"])]


def _write(line, text):
    line.customer_writes({"type": "text", "text": {"body": text}})
    line.deliver()


def test_a_rule_answers_the_customer_as_the_bot(line, api):
    _bot(line, api)
    _rule(line, api)
    _write(line, "Hola, ¿tienen PAN?")
    assert _texts(line) == ["Sí, pan recién horneado."]
    assert _kinds(line) == ["RULE_MATCHED"]
    thread = line.get(f"/conversations")["items"][0]
    messages = line.get(f"/conversations/{thread['id']}/messages")["items"]
    assert [m["sentBy"] for m in messages if m["direction"] == "out"] == ["bot"]
