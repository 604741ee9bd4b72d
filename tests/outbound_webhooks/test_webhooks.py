"""Outbound webhooks through the API: records, rules, signatures a Standard Webhooks verifier
accepts, events fanned out with their scope, and the delivery log."""

import json

import pytest
import requests
from standardwebhooks.webhooks import Webhook

from tests import factories
from tests.broadcasts.conftest import Campaigns
from tests.messages.conftest import Outbox
from tests.outbound_webhooks.conftest import Webhooks


def _verified(hook, secret, request=-1):
    """The request's JSON, after the standardwebhooks package checked its signature."""
    sent = hook.requests[request]
    return Webhook(secret).verify(sent["body"], sent["headers"])


def test_a_webhook_is_created_listed_without_its_secret_and_revealed_on_request(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated", "message.created"])
    assert created["format"] == "GENERIC" and created["active"] is True and created["health"] == "ok"
    assert created["unansweredThresholdMinutes"] == 2 and created["phoneNumberIds"] == []
    listed = webhooks.get()
    assert [w["id"] for w in listed] == [created["id"]]
    assert "secret" not in json.dumps(listed) and "secret" not in json.dumps(created)
    secret = webhooks.secret(created["id"])
    assert secret.startswith("whsec_") and len(secret) > 40


MATTERMOST_ID = "xq7kd3zc1pfn8ghw5ubya4rm6e"  # 26 lowercase letters and digits, as Mattermost makes them


@pytest.mark.parametrize("url", [
    "https://hooks.slack.com/services/T0/B0/x", "https://chat.googleapis.com/v1/spaces/A/messages",
    "https://acme.webhook.office.com/webhookb2/x",
    "https://prod-12.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=1",
    f"https://chat.example.com/hooks/{MATTERMOST_ID}", f"https://example.com/mattermost/hooks/{MATTERMOST_ID}/"])
def test_chat_apps_are_recognised_by_their_address(webhooks, url):
    assert webhooks.create(url=url, events=["conversation.handoff_requested"])["format"] == "TEAMCHAT"


@pytest.mark.parametrize("url", [
    "https://hooks.zapier.com/hooks/catch/123456/abcdef/",
    f"https://hooks.zapier.com/hooks/{MATTERMOST_ID}",  # Zapier's host never gets the chat-app body
    "https://n8n.example.com/webhook/0b7c0e6e-8d1c-4f0b-9c43-2a2f4f6c1e11",
    "https://n8n.example.com/hooks/order-created", "https://acme.app.n8n.cloud/webhook/orders",
    "https://hook.eu1.make.com/abcdefghijklmnopqrstuvwxyz123456", "https://example.com/hooks/abc",
    f"https://example.com/hooks/{MATTERMOST_ID.upper()}", f"https://example.com/hooks/{MATTERMOST_ID}/more",
    "https://example.com/api/events"])
def test_automation_tools_and_other_receivers_get_the_json_event(webhooks, url):
    assert webhooks.create(url=url, events=["conversation.handoff_requested"])["format"] == "GENERIC"


@pytest.mark.parametrize("body, field, code", [
    ({"url": "ftp://example.com/x"}, "url", "invalid_url"),
    ({"url": "not a url"}, "url", "invalid_url"),
    ({"events": ["conversation.exploded"]}, "events", "unknown_event"),
    ({"events": []}, "events", "validation_failed"),
    ({"unansweredThresholdMinutes": 0, "events": ["conversation.unanswered"]}, "unansweredThresholdMinutes", "validation_failed"),
    ({"unansweredThresholdMinutes": 1441, "events": ["conversation.unanswered"]}, "unansweredThresholdMinutes", "validation_failed"),
    ({"unansweredThresholdMinutes": 5}, "unansweredThresholdMinutes", "validation_failed"),
    ({"agentStatuses": ["LUNCH"]}, "agentStatuses", "validation_failed"),
    ({"agentStatuses": ["NAPPING"], "events": ["agent.status_changed"]}, "agentStatuses", "validation_failed"),
    ({"format": "XML"}, "format", "validation_failed"),
    ({"phoneNumberIds": ["0192f0a0-0000-7000-8000-000000000000"]}, "phoneNumberIds", "unknown_ids"),
    ({"secret": "mine"}, "secret", "validation_failed"),
])
def test_bad_fields_answer_400_naming_the_field(webhooks, hook, body, field, code):
    answer = webhooks.create(status=400, **{"url": hook.url, "events": ["conversation.updated"], **body})
    assert answer["code"] == code and any(key.split(".")[0] == field for key in answer["errors"]), answer


def test_a_test_event_arrives_signed_and_the_log_shows_the_attempt(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    delivery = webhooks.post(f"/{created['id']}/test")
    assert delivery["eventType"] == "webhook.test"
    envelope = _verified(hook, webhooks.secret(created["id"]))
    assert envelope["type"] == "webhook.test" and envelope["id"] == delivery["eventId"]
    assert envelope["organizationId"] == webhooks.owner["org"]["id"] and envelope["data"]["webhookId"] == created["id"]
    assert hook.requests[-1]["headers"]["webhook-id"] == delivery["eventId"]
    [logged] = webhooks.deliveries(created["id"])
    assert logged["status"] == "DELIVERED" and logged["attempt"] == 1 and logged["responseStatus"] == 200
    assert json.loads(logged["requestBody"]) == envelope and logged["responseBody"] == '{"ok": true}'
    detail = webhooks.get(f"/{created['id']}/deliveries/{logged['id']}")
    [attempt] = detail["attempts"]
    assert attempt["outcome"] == "delivered" and attempt["number"] == 1 and "webhook-signature" not in attempt["requestHeaders"]
    sent = hook.requests[-1]["headers"]  # the log keeps what was sent, the signature left out
    assert {name: attempt["requestHeaders"][name] for name in ("webhook-id", "webhook-timestamp", "content-type")} == {
        name: sent[name] for name in ("webhook-id", "webhook-timestamp", "content-type")}
    assert webhooks.get(f"/{created['id']}")["lastDeliveryAt"] is not None


def test_a_signature_made_with_another_secret_is_refused_by_the_verifier(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    webhooks.post(f"/{created['id']}/test")
    other = webhooks.create(url=hook.url, events=["conversation.updated"])
    with pytest.raises(Exception, match="signature"):
        _verified(hook, webhooks.secret(other["id"]))


def test_a_customer_message_reaches_the_webhooks_that_asked_and_only_those(line, api, hook):
    webhooks = Webhooks(api, line.owner)
    messages = webhooks.create(url=hook.url + "/messages", events=["message.created"])
    scoped = webhooks.create(url=hook.url + "/scoped", events=["message.created"], phoneNumberIds=[line.number["id"]])
    templates = webhooks.create(url=hook.url + "/templates", events=["template.status"])
    line.customer_writes()
    line.deliver()
    by_path = {}
    for request in hook.requests:
        by_path.setdefault(request["path"], []).append(json.loads(request["body"]))
    assert "/in/templates" not in by_path
    for path, webhook in (("/in/messages", messages), ("/in/scoped", scoped)):
        [envelope] = [e for e in by_path[path] if e["type"] == "message.created"]
        data = envelope["data"]
        assert data["direction"] == "in" and data["phoneNumberId"] == line.number["id"] and data["type"] == "text"
        assert data["conversationId"] and data["contactId"] and data["messageId"]
        [logged] = webhooks.deliveries(webhook["id"])
        assert logged["status"] == "DELIVERED"
    assert webhooks.deliveries(templates["id"]) == []


MESSAGE_DATA = {"messageId", "wamid", "conversationId", "phoneNumberId", "contactId", "direction", "type", "status", "text"}


def test_message_events_carry_the_decided_data_with_the_words_and_the_networks_id(line, api, hook):
    webhooks = Webhooks(api, line.owner)
    webhooks.create(url=hook.url, events=["message.created", "message.updated"])
    line.customer_writes()
    line.deliver()
    reply = Outbox(line).text("Sí, recién salido del horno")
    line.deliver()  # the network's statuses of the reply
    envelopes = [json.loads(r["body"]) for r in hook.requests]
    [inbound] = [e["data"] for e in envelopes if e["type"] == "message.created" and e["data"]["direction"] == "in"]
    [outbound] = [e["data"] for e in envelopes if e["type"] == "message.created" and e["data"]["direction"] == "out"]
    updates = [e["data"] for e in envelopes if e["type"] == "message.updated"]
    for data in (inbound, outbound, *updates):
        assert MESSAGE_DATA <= set(data), data
        assert data["phoneNumberId"] == line.number["id"] and data["conversationId"] and data["contactId"]
    assert inbound["text"] == "Hola, ¿tienen pan?" and inbound["wamid"] and inbound["type"] == "text"
    assert outbound["messageId"] == reply["id"] and outbound["text"] == "Sí, recién salido del horno"
    assert [u["status"] for u in updates][:2] == ["sent", "delivered"]
    sent = Outbox(line).get(reply["id"])
    assert all(u["messageId"] == reply["id"] and u["wamid"] == sent["wamid"] and u["text"] == outbound["text"]
               for u in updates)


def test_a_webhook_scoped_to_another_number_hears_nothing_of_this_one(line, api, hook, app):
    webhooks = Webhooks(api, line.owner)
    other = factories.another_number(line.org_id)
    webhooks.create(url=hook.url, events=["message.created", "conversation.updated"], phoneNumberIds=[other["phoneNumberPk"]])
    line.customer_writes()
    line.deliver()
    assert hook.requests == []


def test_template_status_goes_to_webhooks_with_a_number_of_its_business_account(line, api, hook):
    webhooks = Webhooks(api, line.owner)
    webhooks.create(url=hook.url, events=["template.status"], phoneNumberIds=[line.number["id"]])
    Campaigns(line).approved_template(name="aviso")
    statuses = [json.loads(r["body"]) for r in hook.requests]
    assert [e["data"]["status"] for e in statuses] == ["PENDING", "APPROVED"]
    assert statuses[1]["data"]["name"] == "aviso" and statuses[1]["data"]["wabaId"] == line.waba["id"]


def test_a_chat_app_gets_one_sentence_in_the_organizations_language(api, hook):
    token = factories.person(api, email="eva@example.com", locale="es")["tokens"]["accessToken"]
    org = factories.organization(api, token, name="Pan", slug="pan")
    webhooks = Webhooks(api, {"token": token, "org": org})
    created = webhooks.create(url=hook.url.replace("/in", f"/hooks/{MATTERMOST_ID}"), events=["conversation.updated"])
    assert created["format"] == "TEAMCHAT"
    webhooks.post(f"/{created['id']}/test")
    body = json.loads(hook.requests[-1]["body"])
    assert body == {"text": "Prueba desde tu bandeja de WhatsApp: este webhook funciona."}
    assert hook.requests[-1]["headers"]["webhook-signature"].startswith("v1,")


def test_another_organization_cannot_see_or_touch_a_webhook(api, webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.updated"])
    token = factories.person(api, email="mallory@example.com")["tokens"]["accessToken"]
    stranger = {"token": token, "org": factories.organization(api, token, name="Evil", slug="evil")}
    base = f"/organizations/{webhooks.owner['org']['id']}/webhooks-outbound/{created['id']}"
    outside = api.get(base + "/secret", token=stranger["token"])
    assert (outside.status_code, outside.json["code"]) == (403, "not_a_member")  # not her organization
    own = f"/organizations/{stranger['org']['id']}/webhooks-outbound/{created['id']}"
    for answer in (api.get(own, token=stranger["token"]), api.get(own + "/secret", token=stranger["token"]),
                   api.patch(own, {"active": False}, token=stranger["token"]),
                   api.post(own + "/test", token=stranger["token"]), api.delete(own, token=stranger["token"])):
        assert answer.status_code == 404 and answer.json["code"] == "webhook_not_found"
    assert api.get(f"/organizations/{stranger['org']['id']}/webhooks-outbound", token=stranger["token"]).json["data"] == []


def test_an_agent_may_not_manage_webhooks(api, webhooks, hook):
    agent_email = "agent@example.com"
    token = factories.add_member(api, webhooks.owner["org"]["id"], "agent", agent_email)
    answer = api.post(webhooks.base, {"url": hook.url, "events": ["conversation.updated"]}, token=token)
    assert answer.status_code == 403


def test_a_key_limited_to_a_number_hears_only_that_number(line, api, hook):
    base = f"/organizations/{line.org_id}"
    other = factories.another_number(line.org_id)
    key = api.post(f"{base}/api-keys", {"name": "pos", "phoneNumberIds": [line.number["id"]]},
                   token=line.owner["token"]).json["data"]["secret"]
    headers = {"X-Api-Key": key}
    created = line.client.post(f"{base}/webhooks-outbound", json={"url": hook.url, "events": ["message.created"]},
                               headers=headers)
    assert created.status_code == 201 and created.json["data"]["phoneNumberIds"] == [line.number["id"]]
    refused = line.client.post(f"{base}/webhooks-outbound", json={"url": hook.url, "events": ["message.created"],
                                                                  "phoneNumberIds": [other["phoneNumberPk"]]}, headers=headers)
    assert refused.status_code == 403 and refused.json["code"] == "phone_number_not_allowed"
    unscoped = api.post(f"{base}/webhooks-outbound", {"url": hook.url, "events": ["message.created"]},
                        token=line.owner["token"]).json["data"]
    assert line.client.get(f"{base}/webhooks-outbound/{unscoped['id']}", headers=headers).status_code == 404
    listed = line.client.get(f"{base}/webhooks-outbound", headers=headers).json["data"]
    assert [w["id"] for w in listed] == [created.json["data"]["id"]]


def test_changes_are_checked_as_the_webhook_will_be(webhooks, hook):
    created = webhooks.create(url=hook.url, events=["conversation.unanswered"], unansweredThresholdMinutes=10)
    assert created["unansweredThresholdMinutes"] == 10
    answer = webhooks.patch(created["id"], status=400, events=["conversation.updated"], unansweredThresholdMinutes=5)
    assert "unansweredThresholdMinutes" in answer["errors"]
    changed = webhooks.patch(created["id"], events=["agent.status_changed"], agentStatuses=["LUNCH", "BREAK"], active=False)
    assert changed["agentStatuses"] == ["LUNCH", "BREAK"] and changed["active"] is False and changed["health"] == "disabled"
    webhooks.delete(created["id"])
    assert webhooks.get(f"/{created['id']}", status=404)["code"] == "webhook_not_found"


def test_a_numbers_quality_change_is_read_back_from_the_network_and_announced(line, api, hook):
    webhooks = Webhooks(api, line.owner)
    webhooks.create(url=hook.url, events=["quality.changed"])
    number = line.account["numbers"][0]["id"]
    answer = requests.post(f"{line.netsim_url}/_control/numbers/{number}/quality", json={"rating": "YELLOW"}, timeout=5)
    assert answer.status_code == 200, answer.text
    line.deliver()
    [event] = [json.loads(r["body"]) for r in hook.requests]
    assert event["type"] == "quality.changed"
    assert event["data"] == {"phoneNumberId": line.number["id"], "from": "GREEN", "to": "YELLOW", "event": "FLAGGED"}
    assert line.get(f"/phone-numbers/{line.number['id']}")["qualityRating"] == "YELLOW"
    line.deliver()  # nothing new: the same rating is not announced twice
    assert len(hook.requests) == 1


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/in", "http://localhost:9/in", "http://[::1]:9/in", "http://0.0.0.0:9/in",
    "http://169.254.169.254/latest/meta-data/iam/", "http://[fe80::1]/x", "http://10.0.0.5/hook",
    "http://192.168.1.1:8080/admin", "http://[::ffff:127.0.0.1]:9/in", "http://2130706433:9/in"])
def test_a_webhook_to_a_non_public_address_is_refused_when_saved(webhooks, hook, url):
    """Issue 44, item 3: loopback (by address, by name, in IPv6 and in other spellings), link-local
    and the metadata service, the LAN: 400 url_not_allowed on create and on change. The receiver
    double's own origin is on the allowed private servers (tests/fixtures/doubles.py), another
    port of the same host is not."""
    refused = webhooks.create(status=400, url=url, events=["conversation.updated"])
    assert refused["code"] == "url_not_allowed" and "url" in refused["errors"], refused
    made = webhooks.create(url=hook.url, events=["conversation.updated"])
    changed = webhooks.patch(made["id"], status=400, url=url)
    assert changed["code"] == "url_not_allowed"
    assert webhooks.get(f"/{made['id']}")["url"] == hook.url and hook.requests == []


def test_a_webhook_whose_server_is_no_longer_allowed_gets_nothing(webhooks, hook):
    """Checked again at every connection: a webhook saved while its server was allowed is refused,
    in words, once the installation stops allowing it (the receiver hears nothing)."""
    from appliance.core import runtime

    made = webhooks.create(url=hook.url, events=["conversation.updated"])
    runtime.get().settings = runtime.get().settings.replace(allowed_private_urls="")
    delivery = webhooks.post(f"/{made['id']}/test")
    detail = webhooks.get(f"/{made['id']}/deliveries/{delivery['id']}")
    assert detail["status"] == "RETRYING" and detail["responseStatus"] is None and hook.requests == []
    assert "not a public address" in detail["error"], detail


def test_an_address_urllib_cannot_split_is_a_400_not_a_500(line):
    """A bracketed host that is no address (`[zz:1]`) made urlsplit raise: a 500 before."""
    for url in ("http://[zz:1]/x", "http://hooks.example:99999/x"):
        answer = line.client.post(f"/organizations/{line.org_id}/webhooks-outbound",
                                  json={"url": url, "events": ["message.created"]},
                                  headers={"Authorization": f"Bearer {line.owner['token']}"})
        assert answer.status_code == 400 and answer.json["code"] == "invalid_url", answer.json
