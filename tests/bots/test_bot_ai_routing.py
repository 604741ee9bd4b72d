"""Issue 20, part: the intent classifier. With it on, a conversation no agent is pinned to and no
tag routes is sorted by the number's default agent's model into one of the route tags of the
agents serving the number: that agent answers, the topic becomes the conversation's tag (the
inbox shows it), and later messages follow the tag without asking again. A message of no topic is
answered by the default; a failing classification leaves the default to answer, and says so."""

import requests

from tests.bots.test_bot_ai import _agent
from tests.bots.test_bot_engine import _bot, _reads_outlive_the_clock, _texts, _write  # noqa: F401


def _calls(line):
    return requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"]


def _shipping_agent(line, api):
    made = api.post(f"/organizations/{line.org_id}/bot/agents", {
        "name": "Envíos", "provider": "LOCAL", "model": "double-small", "routeTags": ["envios"],
        "systemPrompt": "Los envíos a Cali tardan dos días hábiles."}, token=line.owner["token"])
    assert made.status_code == 201, made.json
    return made.json["data"]


def _replies(line):
    return [a for a in line.get("/bot/activity")["items"] if a["kind"] == "AI_REPLY"]


def test_the_classifier_routes_to_the_agent_of_the_topic_and_tags_the_conversation(line, api):
    _agent(line, api)
    shipping = _shipping_agent(line, api)
    _bot(line, api, mode="AI_AGENT", intentClassifierEnabled=True)
    _write(line, "¿Cuántos días tarda el envío a Cali?")
    assert "dos días hábiles" in _texts(line)[-1]
    [replied] = _replies(line)
    assert replied["detail"]["agentId"] == shipping["id"] and replied["detail"]["intent"] == "envios"
    classification = _calls(line)[0]["body"]
    assert "Answer with exactly one of: envios | none." in classification["messages"][0]["content"]
    assert classification["temperature"] == 0
    conversation = line.get("/conversations")["items"][0]
    assert [t["name"] for t in conversation["tags"]] == ["envios"]
    before = len(_calls(line))
    _write(line, "¿Y a Bogotá?")
    assert _replies(line)[0]["detail"]["agentId"] == shipping["id"]  # the tag routes now
    assert not any("Answer with exactly one of" in str(c["body"]) for c in _calls(line)[before:])


def test_a_message_of_no_topic_is_the_defaults(line, api):
    default = _agent(line, api)
    _shipping_agent(line, api)
    _bot(line, api, mode="AI_AGENT", intentClassifierEnabled=True)
    _write(line, "Buenos días, ¿a qué hora abren la tienda?")
    [replied] = _replies(line)
    assert replied["detail"]["agentId"] == default["id"] and replied["detail"]["intent"] is None
    assert not line.get("/conversations")["items"][0]["tags"]


def test_without_the_classifier_the_default_answers(line, api):
    default = _agent(line, api)
    _shipping_agent(line, api)
    _bot(line, api, mode="AI_AGENT")
    _write(line, "¿Cuántos días tarda el envío a Cali?")
    [replied] = _replies(line)
    assert replied["detail"]["agentId"] == default["id"] and "intent" not in replied["detail"]
    assert not line.get("/conversations")["items"][0]["tags"]


def test_a_failing_classification_leaves_the_default(line, api):
    default = _agent(line, api)
    _shipping_agent(line, api)
    _bot(line, api, mode="AI_AGENT", intentClassifierEnabled=True)
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [401]}, timeout=5)
    _write(line, "¿Cuántos días tarda el envío a Cali?")
    [replied] = _replies(line)
    assert replied["detail"]["agentId"] == default["id"]
    assert replied["detail"]["intent"] is None and replied["detail"]["intentError"] == "auth"
