"""Issue 44, finding 2: a key kept to some numbers (`phoneNumberIds`) and a member kept to some
business accounts (WABA scope) reach nothing of the other numbers', through any route. Generated
from the route table, as test_matrix.py is: the line's number and account (B) hold one record of
every kind, the subjects are kept to a second number and its account (A), and

- every operation whose path names a record of B answers 404, and B's records are unchanged after;
- creating a record on B, or one for every number (an empty `phoneNumberIds`), answers 403
  `phone_number_not_allowed`; records for every number are read, not changed;
- every list leaves out B's records (while the owner's shows them);
- the subjects still manage what is theirs (a rule of A is made, changed and deleted)."""

import json
import re

import pytest
import requests

from appliance.bots import activity
from appliance.core import runtime
from tests.factories import add_member, another_number
from tests.problems import assert_problem

UNKNOWN_ID = "00000000-0000-7000-8000-0000000000aa"
CART = {"type": "order", "order": {"catalog_id": "cat-sol", "text": "Para el sábado", "product_items": [
    {"product_retailer_id": "pan", "quantity": 1, "item_price": 1000, "currency": "COP"}]}}
# The path parameters that name a record of one number or one business account, and who holds B's.
NUMBER_RECORDS = ("phone_id", "phone_number_pk", "waba_pk", "template_pk", "flow_pk", "rule_id", "flow_id",
                  "agent_id", "link_id", "broadcast_id", "order_id", "appointment_id", "task_id",
                  "conversation_id", "message_id")
# Bodies that pass validation, so a call reaches the record (or the scope) and not a 400 first.
BODIES = {
    ("post", "/probador"): {"messages": [{"role": "user", "content": "Hola"}]},
    ("post", "/configurador"): {"goal": "Vender más pan"},
    ("patch", "/orders/{order_id}"): {"status": {"code": "COMPLETED"}},
    ("patch", "/status"): {"status": "closed"},
    ("patch", "/assignee"): {"userId": None},
    ("post", "/tags"): {"tagId": UNKNOWN_ID},
    ("post", "/notes"): {"body": "nota"},
    ("patch", "/agent"): {"agentId": None},
    ("patch", "/edit"): {"body": "editado"},
    ("patch", "/categorize"): {"category": "ventas"},
    ("put", "/profile"): {"about": "Pan"},
    ("put", "/reactions"): {"emoji": "👍"},
    ("patch", "/phone-numbers/{phone_number_pk}"): {"messagesPerSecond": 10},
    ("patch", "/bot/agents/{agent_id}"): {"name": "Cambiado"},
    ("patch", "/chatapp-links/{link_id}"): {"name": "Cambiado"},
    ("patch", "/agenda/appointments/{appointment_id}"): {"title": "Cambiado"},
    ("post", "/replace"): {"reason": "No funciona"},
}
SKIPPED = {
    # A multipart upload: its body is checked before the number (the number's profile routes are
    # covered by GET and PUT /profile, which read the same number first).
    ("post", "/organizations/{org_id}/phone-numbers/{phone_number_pk}/profile/picture"),
}


class Estate:
    """The owner's records on the line's number B, and two subjects kept to the number A."""

    def __init__(self, line, api):
        self.line, self.api, self.org_id = line, api, line.org_id
        self.base, self.owner = f"/organizations/{line.org_id}", line.owner["token"]
        self.number_b, self.waba_b = line.number["id"], line.waba["id"]
        other = another_number(line.org_id)
        self.number_a, self.waba_a = other["phoneNumberPk"], other["wabaPk"]

        line.customer_writes(CART)
        line.customer_writes({"type": "text", "text": {"body": "Hola"}})
        assert all(answer.status_code == 200 for answer in line.deliver())
        [order] = self.owned("GET", "/orders")["items"]
        [conversation] = self.owned("GET", "/conversations")["items"]
        messages = self.owned("GET", f"/conversations/{conversation['id']}/messages")["items"]
        self.owned("PUT", f"/bot/config/{self.number_b}", {"enabled": True, "mode": "RULES_ONLY"})
        rule = self.owned("POST", "/bot/rules", {"name": "B", "phoneNumberIds": [self.number_b],
                                                 "keywords": ["pan"], "reply": "Hay pan"})
        self.rule_all = self.owned("POST", "/bot/rules", {"name": "Todos", "keywords": ["hola"], "reply": "Hola"})["id"]
        steps = [{"id": "s1", "type": "message", "text": "Hola"}]
        flow = self.owned("POST", "/bot/flows", {"name": "B", "phoneNumberIds": [self.number_b],
                                                 "triggerKeywords": ["menu"], "steps": steps})
        self.flow_all = self.owned("POST", "/bot/flows", {"name": "Todos", "triggerKeywords": ["inicio"],
                                                          "steps": steps})["id"]
        agent = self.owned("POST", "/bot/agents", {"name": "B", "provider": "LOCAL", "model": "double-small",
                                                   "phoneNumberIds": [self.number_b]})
        self.agent_all = self.owned("POST", "/bot/agents", {"name": "Todos", "provider": "LOCAL",
                                                            "model": "double-small"})["id"]
        self.document = self.owned("POST", "/bot/knowledge/notes", {
            "title": "Envíos", "content": "Enviamos a domicilio.", "agentIds": [agent["id"]]})["id"]
        self.owned("PATCH", "/surveys/config", {"phoneNumberIds": [self.number_b]})
        template = self.owned("POST", "/templates", {
            "businessAccountId": self.waba_b, "name": "oferta", "language": "es", "category": "MARKETING",
            "components": [{"type": "BODY", "text": "Hola {{1}}", "example": {"body_text": [["Ana"]]}}]})
        approved = requests.post(f"{line.netsim_url}/_control/templates/{line.account['wabaId']}/status",
                                 json={"name": "oferta", "language": "es", "status": "APPROVED"}, timeout=5)
        assert approved.status_code == 200, approved.text
        line.deliver()
        wa_flow = self.owned("POST", "/whatsapp-flows", {"businessAccountId": self.waba_b, "flowId": "1122334455",
                                                         "name": "Pedido"})
        link = self.owned("POST", "/chatapp-links", {"phoneNumberId": self.number_b, "name": "Afiche"})
        broadcast = self.owned("POST", "/broadcasts", {
            "name": "Ofertas", "phoneNumberId": self.number_b, "templateId": template["id"], "variables": ["Ana"],
            "audience": {"contactIds": [conversation["contactId"]]}, "scheduledAt": "2099-01-01T10:00:00Z"})
        appointment = self.owned("POST", "/agenda/appointments", {
            "title": "Corte", "start": "2099-01-01T10:00:00Z", "end": "2099-01-01T11:00:00Z",
            "conversationId": conversation["id"]})
        task = self.owned("POST", "/tasks", {"title": "Llamar", "conversationId": conversation["id"]})
        with runtime.get().db.unit_of_work(write=True) as session:
            activity.record(session, organization_id=self.org_id, kind="RULE_MATCHED", phone_number_pk=self.number_b,
                            conversation_id=conversation["id"], ruleId=rule["id"])
        self.ids = {"phone_id": self.number_b, "phone_number_pk": self.number_b, "waba_pk": self.waba_b,
                    "template_pk": template["id"], "flow_pk": wa_flow["id"], "rule_id": rule["id"],
                    "flow_id": flow["id"], "agent_id": agent["id"], "link_id": link["id"],
                    "broadcast_id": broadcast["id"], "order_id": order["id"], "appointment_id": appointment["id"],
                    "task_id": task["id"], "conversation_id": conversation["id"], "message_id": messages[0]["id"]}
        self.key = self.owned("POST", "/api-keys", {"name": "kept", "phoneNumberIds": [self.number_a]})["secret"]
        member = add_member(api, self.org_id, "admin", "kept@example.com")
        membership = next(m for m in self.owned("GET", "/memberships") if m["email"] == "kept@example.com")
        self.owned("PUT", f"/memberships/{membership['id']}/waba-scope", {"wabaIds": [self.waba_a]})
        self.subjects = {"key": {"X-Api-Key": self.key}, "member": {"Authorization": f"Bearer {member}"}}

    def call(self, headers, method, path, body=None):
        response = self.api.client.open(self.base + path, method=method, json=body, headers=headers)
        response.close()
        return response

    def owned(self, method, path, body=None):
        """The owner's call, which must succeed; its data."""
        answer = self.call({"Authorization": f"Bearer {self.owner}"}, method, path, body)
        assert answer.status_code < 300, (method, path, answer.status_code, answer.json)
        return answer.json["data"] if answer.json else None

    def snapshot(self) -> str:
        """B's records as the owner reads them (what no subject may change)."""
        reads = [f"/bot/config/{self.number_b}", "/bot/rules", "/bot/flows", "/bot/agents", "/surveys/config",
                 f"/bot/knowledge/{self.document}", "/templates", "/whatsapp-flows", "/wabas", "/chatapp-links",
                 "/broadcasts", "/orders", "/agenda/appointments", "/tasks", "/conversations",
                 f"/conversations/{self.ids['conversation_id']}/messages", "/phone-numbers"]
        return json.dumps([self.owned("GET", path) for path in reads], sort_keys=True)


@pytest.fixture
def estate(line, api):
    return Estate(line, api)


def _operations(client):
    spec = client.get("/openapi.json").json
    for path, item in spec["paths"].items():
        if path.startswith("/organizations/{org_id}"):
            for method in ("get", "post", "put", "patch", "delete"):
                if method in item:
                    yield method, path


def _body(method, path):
    return next((body for (m, end), body in BODIES.items() if m == method and path.endswith(end)), {})


@pytest.mark.parametrize("subject", ["key", "member"])
def test_every_route_on_a_record_of_another_number_answers_404(estate, client, subject):
    before = estate.snapshot()
    kinds, wrong = set(), []
    for method, path in _operations(client):
        names = re.findall(r"\{(\w+)\}", path)
        if not set(names) & set(NUMBER_RECORDS) or (method, path) in SKIPPED or "/attendance/" in path:
            continue
        url = re.sub(r"\{(\w+)\}", lambda m: estate.ids.get(m.group(1), UNKNOWN_ID),
                     path.removeprefix("/organizations/{org_id}"))
        answer = estate.call(estate.subjects[subject], method.upper(), url,
                             _body(method, path) if method in ("post", "put", "patch") else None)
        if answer.status_code != 404:
            wrong.append(f"{method.upper()} {path}: {answer.status_code} {(answer.json or {}).get('code')}")
        kinds |= set(names) & set(NUMBER_RECORDS)
    assert wrong == [], "\n".join(wrong) + f"\n({len(wrong)})"
    assert kinds == set(NUMBER_RECORDS)
    assert estate.snapshot() == before


def _creations(estate):
    """Every way to make a record on B, or one for every number."""
    steps = [{"id": "s1", "type": "message", "text": "Hola"}]
    agent = {"name": "Nuevo", "provider": "LOCAL", "model": "double-small"}
    template = {"businessAccountId": estate.waba_b, "name": "nueva", "language": "es", "category": "MARKETING",
                "components": [{"type": "BODY", "text": "Hola"}]}
    creations = [
        ("POST", "/wabas", {"wabaId": "123456789", "accessToken": "EAAG", "appSecret": "s"}),
        ("POST", "/templates", template),
        ("POST", "/whatsapp-flows", {"businessAccountId": estate.waba_b, "flowId": "99887766", "name": "Otro"}),
        ("POST", "/chatapp-links", {"phoneNumberId": estate.number_b, "name": "Otro"}),
        ("POST", "/broadcasts", {"name": "Otra", "phoneNumberId": estate.number_b,
                                 "templateId": estate.ids["template_pk"], "variables": ["Ana"],
                                 "audience": {"contactIds": [UNKNOWN_ID]}}),
        ("POST", "/agenda/appointments", {"title": "Otra", "start": "2099-02-01T10:00:00Z",
                                          "end": "2099-02-01T11:00:00Z",
                                          "conversationId": estate.ids["conversation_id"]}),
        ("POST", "/tasks", {"title": "Otra", "conversationId": estate.ids["conversation_id"]}),
        ("POST", "/messages", {"phoneNumberId": estate.number_b, "to": "5215512345678", "type": "text",
                               "payload": {"body": "Hola"}}),
        ("PATCH", "/surveys/config", {"phoneNumberIds": [estate.number_b]}),
        ("PATCH", "/surveys/config", {"phoneNumberIds": []}),
        ("PATCH", "/surveys/config", {"active": True}),  # the settings are B's: not the subject's to change
        ("PATCH", f"/bot/knowledge/{estate.document}/agentes", {"agentIds": [], "compartido": False}),
        ("PATCH", f"/bot/knowledge/{estate.document}/agentes",
         {"agentIds": [estate.ids["agent_id"]], "compartido": True}),
        ("POST", "/bot/knowledge/notes", {"title": "Otra", "content": "Texto", "agentIds": [estate.ids["agent_id"]]}),
        ("POST", "/bot/knowledge/notes", {"title": "Otra", "content": "Texto"}),  # shared: every agent's
    ]
    for numbers in ([estate.number_b], [estate.number_a, estate.number_b], []):
        creations += [
            ("POST", "/bot/rules", {"name": "Otra", "phoneNumberIds": numbers, "keywords": ["x"], "reply": "x"}),
            ("POST", "/bot/flows", {"name": "Otro", "phoneNumberIds": numbers, "triggerKeywords": ["x"],
                                    "steps": steps}),
            ("POST", "/bot/agents", {**agent, "phoneNumberIds": numbers}),
        ]
    for path in (f"/bot/rules/{estate.rule_all}", f"/bot/flows/{estate.flow_all}", f"/bot/agents/{estate.agent_all}"):
        creations += [("PATCH", path, {"name": "Cambiado"}), ("DELETE", path, None)]
    return creations


@pytest.mark.parametrize("subject", ["key", "member"])
def test_creating_on_another_number_or_on_every_number_answers_403(estate, subject):
    before = estate.snapshot()
    for method, path, body in _creations(estate):
        answer = estate.call(estate.subjects[subject], method, path, body)
        assert_problem(answer, 403, "phone_number_not_allowed", method, path, body)
    assert estate.snapshot() == before


@pytest.mark.parametrize("subject", ["key", "member"])
def test_records_of_every_number_are_read_and_the_subjects_own_are_managed(estate, subject):
    headers = estate.subjects[subject]
    for path in (f"/bot/rules/{estate.rule_all}", f"/bot/flows/{estate.flow_all}", f"/bot/agents/{estate.agent_all}",
                 "/surveys/config"):
        assert estate.call(headers, "GET", path).status_code == 200, path
    made = estate.call(headers, "POST", "/bot/rules", {"name": "Mía", "phoneNumberIds": [estate.number_a],
                                                       "keywords": ["mía"], "reply": "Sí"})
    assert made.status_code == 201, made.json
    rule = made.json["data"]["id"]
    assert estate.call(headers, "PATCH", f"/bot/rules/{rule}", {"name": "Mía, cambiada"}).status_code == 200
    assert_problem(estate.call(headers, "PATCH", f"/bot/rules/{rule}", {"phoneNumberIds": []}), 403,
                   "phone_number_not_allowed")
    assert estate.call(headers, "DELETE", f"/bot/rules/{rule}").status_code == 204
    task = estate.call(headers, "POST", "/tasks", {"title": "Sin conversación"})
    assert task.status_code == 201, task.json


def _leaks(estate, answer) -> set[str]:
    text = answer.get_data(as_text=True)
    return {name for name, record_id in estate.ids.items() if record_id in text}


# Answers that name B's records without being records of B: the organization's one survey setting
# (read by everyone, changed only by a subject that reaches all its numbers) and the library, whose
# documents are the organization's and show every agent they are given to (a kept subject changing
# them sends back the agents it does not change).
NOT_LISTS = {"/organizations/{org_id}/surveys/config", "/organizations/{org_id}/bot/knowledge"}


@pytest.mark.parametrize("subject", ["key", "member"])
def test_every_list_leaves_out_the_other_numbers_records(estate, client, subject):
    shown_to_owner, wrong = set(), []
    for method, path in _operations(client):
        if method != "get" or "{" in path.removeprefix("/organizations/{org_id}") or path in NOT_LISTS \
                or path.endswith("/events"):
            continue
        url = path.removeprefix("/organizations/{org_id}")
        owners = estate.call({"Authorization": f"Bearer {estate.owner}"}, "GET", url)
        if not _leaks(estate, owners):
            continue
        shown_to_owner.add(url)
        answer = estate.call(estate.subjects[subject], "GET", url)
        assert answer.status_code == 200, (url, answer.status_code, answer.json)
        if _leaks(estate, answer):
            wrong.append(f"GET {url}: {sorted(_leaks(estate, answer))}")
    assert wrong == [], "\n".join(wrong)
    assert {"/bot/config", "/bot/rules", "/bot/flows", "/bot/agents", "/bot/agents/stats", "/bot/activity",
            "/bot/salud", "/templates", "/whatsapp-flows", "/wabas", "/phone-numbers", "/chatapp-links",
            "/broadcasts", "/orders", "/agenda/appointments", "/tasks", "/conversations"} <= shown_to_owner
