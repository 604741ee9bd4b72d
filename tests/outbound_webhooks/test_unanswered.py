"""conversation.unanswered: after the webhook's threshold without a person's reply, once per waiting
spell; an integration's or the bot's message does not stop the clock, a person's reply does; a
webhook of another number hears nothing; spells older than the webhook are not announced."""

import json

import pytest

from appliance.core import clock
from appliance.netsim.network import Network
from appliance.netsim.simulator import Simulator
from appliance.outbound_webhooks import tasks
from tests import factories
from tests.outbound_webhooks.conftest import Webhooks


@pytest.fixture
def simulator():
    """The network stamps messages in whole seconds of the project's clock, which the tests move:
    a spell is known by its first message's stamp, so a later spell needs a later second."""
    return Simulator(Network(clock=lambda: clock.now().timestamp()))


def _minute():
    return tasks.unanswered_minute_check.call_local()


def _sent(hook):
    return [json.loads(r["body"]) for r in hook.requests if json.loads(r["body"])["type"] == "conversation.unanswered"]


def _send(line, token=None, key=None, text="Un momento, por favor"):
    headers = {"Authorization": f"Bearer {token}"} if token else {"X-Api-Key": key}
    answer = line.client.post(f"/organizations/{line.org_id}/messages", json={
        "phoneNumberId": line.number["id"], "to": "5215512345678", "type": "text", "payload": {"body": text}},
        headers=headers)
    assert answer.status_code == 201, answer.json


def test_a_customer_waiting_past_the_threshold_is_announced_once_per_spell(line, api, hook):
    webhooks = Webhooks(api, line.owner)
    made = webhooks.create(url=hook.url, events=["conversation.unanswered"], unansweredThresholdMinutes=3)
    line.customer_writes()
    line.deliver()
    clock.advance(120)
    assert _minute() == 0 and _sent(hook) == []
    _send(line, key=webhooks.key)  # an integration's message is not a person's reply
    clock.advance(65)
    assert _minute() == 1
    [event] = _sent(hook)
    assert event["data"]["minutes"] == 3 and event["data"]["phoneNumberId"] == line.number["id"]
    assert event["data"]["waitingSince"] and event["data"]["conversationId"]
    clock.advance(600)
    assert _minute() == 0  # once per spell
    _send(line, token=api.login("owner@example.com", password="correct horse battery")["tokens"]["accessToken"])
    line.customer_writes({"type": "text", "text": {"body": "¿Sigue ahí?"}})
    line.deliver()
    clock.advance(181)
    assert _minute() == 1 and len(_sent(hook)) == 2  # a new spell after a person answered
    assert webhooks.deliveries(made["id"])[0]["status"] == "DELIVERED"


def test_spells_older_than_the_webhook_and_other_numbers_are_not_announced(line, api, hook):
    webhooks = Webhooks(api, line.owner)  # its key, before the clock moves past the owner's token
    line.customer_writes()
    line.deliver()
    clock.advance(3600)
    webhooks.create(url=hook.url, events=["conversation.unanswered"], unansweredThresholdMinutes=2)
    other = factories.another_number(line.org_id)
    webhooks.create(url=hook.url + "/other", events=["conversation.unanswered"], phoneNumberIds=[other["phoneNumberPk"]])
    clock.advance(600)
    assert _minute() == 0 and hook.requests == []
