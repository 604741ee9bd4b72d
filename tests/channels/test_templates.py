"""Templates: created through the network (checked here first), synced from it, moved by its
status webhooks, each change an event in the outbox; tenancy and bad input."""

import requests
from sqlmodel import select

from appliance.core import runtime
from appliance.core.events import OutboxEvent
from appliance.templates.models import Template
from appliance.wabas.network import graph_client
from tests.factories import another_number
from tests.problems import assert_problem

BODY = {"type": "BODY", "text": "Hola {{1}}, tu pedido {{2}} está listo",
        "example": {"body_text": [["Ana", "A-17"]]}}


def _create(line, **changes):
    body = {"businessAccountId": line.waba["id"], "name": "pedido_listo", "language": "es", "category": "UTILITY",
            "components": [{"type": "HEADER", "format": "IMAGE"}, BODY, {"type": "FOOTER", "text": "Panadería Sol"},
                           {"type": "BUTTONS", "buttons": [{"type": "QUICK_REPLY", "text": "Gracias"}]}], **changes}
    return line.api.post(f"/organizations/{line.org_id}/templates", body, token=line.owner["token"])


def _events(name):
    with runtime.get().db.unit_of_work(write=False) as session:
        return [e.data for e in session.exec(select(OutboxEvent).where(OutboxEvent.name == name)
                                             .order_by(OutboxEvent.id)).all()]


def _set_status_on_network(line, name, language, status):
    answer = requests.post(f"{line.netsim_url}/_control/templates/{line.account['wabaId']}/status",
                           json={"name": name, "language": language, "status": status}, timeout=5)
    assert answer.status_code == 200, answer.text


def test_create_then_approval_arrives_by_webhook(line):
    created = _create(line)
    assert created.status_code == 201, created.json
    template = created.json["data"]
    assert template["status"] == "PENDING" and template["templateId"] and template["businessAccountId"] == line.waba["id"]
    assert template["variables"] == {"header": {"format": "IMAGE", "count": 1}, "body": ["1", "2"], "buttons": []}
    on_network = requests.get(f"{line.netsim_url}/v23.0/{line.account['wabaId']}/message_templates",
                              headers={"Authorization": f"Bearer {line.account['accessToken']}"}, timeout=5).json()
    assert [t["name"] for t in on_network["data"]] == ["pedido_listo"]

    _set_status_on_network(line, "pedido_listo", "es", "APPROVED")
    assert [a.status_code for a in line.deliver()] == [200]
    assert line.get(f"/templates/{template['id']}")["status"] == "APPROVED"
    assert [(e["templateId"], e["status"]) for e in _events("template.status")] == [
        (template["id"], "PENDING"), (template["id"], "APPROVED")]
    assert _events("template.status")[-1]["wabaId"] == line.waba["id"]

    _set_status_on_network(line, "pedido_listo", "es", "APPROVED")  # the same news again changes nothing
    line.deliver()
    assert len(_events("template.status")) == 2


def test_sync_adds_changes_and_removes(line):
    token, waba_id = line.account["accessToken"], line.account["wabaId"]
    graph_client().create_template(token, waba_id, {"name": "bienvenida", "language": "es", "category": "MARKETING",
                                                    "components": [{"type": "BODY", "text": "¡Bienvenida!"}]})
    graph_client().create_template(token, waba_id, {"name": "bienvenida", "language": "en_US", "category": "MARKETING",
                                                    "components": [{"type": "BODY", "text": "Welcome!"}]})
    _set_status_on_network(line, "bienvenida", "es", "APPROVED")
    line.deliveries()  # the webhooks are lost: only a sync will tell

    first = line.api.post(f"/organizations/{line.org_id}/templates/sync", {}, token=line.owner["token"])
    assert first.status_code == 200, first.json
    assert first.json["data"] == {"businessAccounts": 1, "templates": 2, "added": 2, "changed": 0, "removed": 0,
                                  "errors": []}
    listed = line.get("/templates")["items"]
    assert [(t["name"], t["language"], t["status"]) for t in listed] == [
        ("bienvenida", "en_US", "PENDING"), ("bienvenida", "es", "APPROVED")]
    assert [t["name"] for t in line.get("/templates?status=APPROVED")["items"]] == ["bienvenida"]
    assert _events("template.status") == []  # first sight is not a change

    _set_status_on_network(line, "bienvenida", "en_US", "REJECTED")
    line.deliveries()
    line.simulator.network.accounts[waba_id].templates.pop(("bienvenida", "es"))  # deleted in Meta's manager
    again = line.api.post(f"/organizations/{line.org_id}/templates/sync",
                          {"businessAccountId": line.waba["id"]}, token=line.owner["token"]).json["data"]
    assert (again["changed"], again["removed"], again["added"]) == (1, 1, 0)
    assert [(t["language"], t["status"]) for t in line.get("/templates")["items"]] == [("en_US", "REJECTED")]
    assert [e["status"] for e in _events("template.status")] == ["REJECTED"]


def test_bad_templates_are_refused_before_the_network(line):
    cases = [
        ({"name": "Pedido Listo"}, "name"),
        ({"language": "spanish"}, "language"),
        ({"category": "PROMO"}, "category"),
        ({"components": [{"type": "FOOTER", "text": "x"}]}, "components"),
        ({"components": [{"type": "BODY", "text": "Hola {{2}}", "example": {"body_text": [["a"]]}}]}, "components[0].text"),
        ({"components": [{"type": "BODY", "text": "Hola {{1}}"}]}, "components[0].example"),
        ({"components": [BODY, {"type": "FOOTER", "text": "Hola {{1}}"}]}, "components[1].text"),
        ({"components": [BODY, {"type": "BUTTONS", "buttons": [{"type": "URL", "text": "Ver", "url": "http://x"}]}]},
         "components[1].buttons[0].url"),
        ({"components": [{"type": "BODY", "text": "Hola {{Nombre}}",
                          "example": {"body_text_named_params": [{"param_name": "Nombre", "example": "Ana"}]}}],
          "parameterFormat": "NAMED"}, "components[0].text"),
        ({"components": [BODY, BODY]}, "components[1].type"),
        ({"businessAccountId": "not-a-uuid"}, "businessAccountId"),
    ]
    for changes, field in cases:
        answer = _create(line, **changes)
        assert answer.status_code == 400, (changes, answer.json)
        assert field in answer.json["errors"], (changes, answer.json)
    named = _create(line, parameterFormat="NAMED", components=[{
        "type": "BODY", "text": "Hola {{nombre}}", "example": {"body_text_named_params": [{"param_name": "nombre", "example": "Ana"}]}}])
    assert named.status_code == 201 and named.json["data"]["variables"]["body"] == ["nombre"]
    assert _create(line, name="otra", businessAccountId="00000000-0000-0000-0000-000000000000").json["code"] == "waba_not_found"
    assert line.get("/templates")["items"][0]["id"] == named.json["data"]["id"]


def test_duplicates_and_a_network_that_fails_store_nothing(line):
    assert _create(line).status_code == 201
    duplicate = _create(line)
    assert_problem(duplicate, 409, "template_exists")
    requests.put(f"{line.netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    down = _create(line, name="otra_plantilla")
    assert_problem(down, 503, "graph_unavailable")
    sync = line.api.post(f"/organizations/{line.org_id}/templates/sync", {}, token=line.owner["token"])
    assert sync.status_code == 200 and sync.json["data"]["errors"][0]["graphCode"] == 131000
    one = line.api.post(f"/organizations/{line.org_id}/templates/sync", {"businessAccountId": line.waba["id"]},
                        token=line.owner["token"])
    assert one.status_code == 503
    with runtime.get().db.unit_of_work(write=False) as session:
        assert [t.name for t in session.exec(select(Template)).all()] == ["pedido_listo"]


def test_other_tenants_and_scopes(line, api):
    template = _create(line).json["data"]
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]["id"]
    assert api.get(f"/organizations/{theirs}/templates", token=stranger).json["data"]["items"] == []
    assert_problem(api.get(f"/organizations/{theirs}/templates/{template['id']}", token=stranger), 404,
                   "template_not_found")
    assert_problem(api.get(f"/organizations/{line.org_id}/templates/{template['id']}", token=stranger), 403,
                   "not_a_member")
    reader = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "lector", "scopes": ["templates:read"]},
                      token=line.owner["token"]).json["data"]["secret"]
    assert api.client.get(f"/organizations/{line.org_id}/templates", headers={"X-Api-Key": reader}).status_code == 200
    refused = api.client.post(f"/organizations/{line.org_id}/templates/sync", json={}, headers={"X-Api-Key": reader})
    assert refused.status_code == 403
    other_number = api.post(f"/organizations/{line.org_id}/api-keys", {
        "name": "other number", "phoneNumberIds": [another_number(line.org_id)["phoneNumberPk"]]},
        token=line.owner["token"]).json["data"]["secret"]
    listed = api.client.get(f"/organizations/{line.org_id}/templates", headers={"X-Api-Key": other_number})
    assert listed.status_code == 200 and listed.json["data"]["items"] == []
