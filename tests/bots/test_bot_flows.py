"""Issue 18, part 5: bot flows. Saved only when they can run; run with the conversation's position
and answers kept, answers checked, saved to the contact, buttons as WhatsApp shows them."""

import pytest

from tests.bots.test_bot_engine import _bot, _kinds, _network_got, _write
from tests.problems import assert_problem

STEPS = [
    {"id": "menu", "type": "buttons", "text": "¿Qué necesitas?", "options": [
        {"id": "pedido", "title": "Hacer un pedido", "next": "correo"},
        {"id": "persona", "title": "Hablar con alguien", "next": "persona"}]},
    {"id": "correo", "type": "question", "text": "¿Tu correo?", "saveAs": "correo", "validate": "EMAIL",
     "errorText": "Ese correo no es válido.", "next": "gracias"},
    {"id": "gracias", "type": "end", "text": "¡Gracias! Te escribimos pronto."},
    {"id": "persona", "type": "handoff", "text": "Te paso con una persona."},
]


def _flows(line):
    return f"/organizations/{line.org_id}/bot/flows"


def test_a_flow_runs_buttons_a_checked_question_and_saves_the_answer(line, api):
    token = line.owner["token"]
    flow = api.post(_flows(line), {"name": "Pedidos", "triggerKeywords": ["pedido", "menu"], "steps": STEPS}, token=token)
    assert flow.status_code == 201, flow.json
    _bot(line, api)
    _write(line, "Hola, quiero ver el menú")
    sent = _network_got(line)
    assert sent[-1]["type"] == "interactive"
    assert [b["reply"]["title"] for b in sent[-1]["interactive"]["action"]["buttons"]] == ["Hacer un pedido",
                                                                                          "Hablar con alguien"]
    line.customer_writes({"type": "interactive", "interactive": {
        "type": "button_reply", "button_reply": {"id": "pedido", "title": "Hacer un pedido"}}})
    line.deliver()
    _write(line, "no tengo")
    _write(line, "ana@example.com")
    texts = [m.get("text", {}).get("body") for m in _network_got(line)[1:]]
    assert texts == ["¿Tu correo?", "Ese correo no es válido.", "¡Gracias! Te escribimos pronto."]
    assert _kinds(line) == ["FLOW_STARTED", "FLOW_COMPLETED"]
    contact = line.get("/contacts")["items"][0]
    assert contact["attributes"]["correo"] == "ana@example.com"


def test_a_rule_starts_a_flow_and_its_handoff_step_hands_off(line, api):
    token = line.owner["token"]
    flow = api.post(_flows(line), {"name": "Menú", "steps": STEPS}, token=token).json["data"]
    rule = api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "Ayuda", "keywords": ["ayuda"],
                    "action": "START_FLOW", "flowId": flow["id"]}, token=token)
    assert rule.status_code == 201, rule.json
    _bot(line, api)
    _write(line, "ayuda")
    _write(line, "2")  # the second option, typed
    assert _network_got(line)[-1]["text"]["body"] == "Te paso con una persona."
    assert line.get("/conversations")["items"][0]["handoffPending"] is True
    assert api.delete(f"{_flows(line)}/{flow['id']}", token=token).status_code == 409  # a rule starts it


@pytest.mark.parametrize("steps, field", [
    ([{"id": "a", "type": "message", "text": "x", "next": "nowhere"}], "steps.0.next"),
    ([{"id": "a", "type": "message", "text": "x", "next": "b"}, {"id": "b", "type": "message", "text": "y", "next": "a"}],
     "steps.0.next"),
    ([{"id": "a", "type": "buttons", "text": "x", "options": [{"id": "o", "title": "x" * 21, "next": "a"}]}],
     "steps"),
    ([{"id": "a", "type": "buttons", "text": "x", "options": [{"id": f"o{i}", "title": "t", "next": "a"}
                                                              for i in range(11)]}], "steps"),
    ([{"id": "a", "type": "question", "text": "x"}], "steps"),  # no saveAs
    ([{"id": "a", "type": "end", "next": "a"}], "steps"),
    ([{"id": "a", "type": "message", "text": "x"}, {"id": "a", "type": "end"}], "steps.1.id"),
    ([], "steps"),
])
def test_flows_that_cannot_run_are_refused_when_saved(line, api, steps, field):
    answer = api.post(_flows(line), {"name": "Mal", "steps": steps}, token=line.owner["token"])
    assert answer.status_code == 400, answer.json
    assert any(key == field or key.startswith(field) for key in answer.json["errors"]), answer.json


def test_a_loop_through_a_question_is_fine_and_the_templates_post_as_they_are(line, api):
    token = line.owner["token"]
    looping = [{"id": "q", "type": "question", "text": "¿Otra?", "saveAs": "otra", "next": "m"},
               {"id": "m", "type": "message", "text": "Anotado.", "next": "q"}]
    assert api.post(_flows(line), {"name": "Lista", "steps": looping}, token=token).status_code == 201
    templates = line.get("/bot/flows/plantillas")
    assert {t["language"] for t in templates} == {"es", "en"}
    for template in templates:
        created = api.post(_flows(line), template["flow"], token=token)
        assert created.status_code == 201, (template["key"], created.json)


def test_unknown_tags_and_flows_are_refused(line, api):
    token = line.owner["token"]
    answer = api.post(_flows(line), {"name": "T", "steps": [
        {"id": "t", "type": "set_tag", "tagId": "01900000-0000-7000-8000-000000000000"}]}, token=token)
    assert_problem(answer, 400, "unknown_ids")
    answer = api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "R", "keywords": ["x"], "action": "START_FLOW",
                      "flowId": "01900000-0000-7000-8000-000000000000"}, token=token)
    assert_problem(answer, 400, "unknown_ids")


def test_a_flow_reads_back_as_it_was_sent(line, api):
    token = line.owner["token"]
    created = api.post(_flows(line), {"name": "Pedidos", "steps": STEPS}, token=token).json["data"]
    assert line.get(f"/bot/flows/{created['id']}")["steps"] == STEPS
    changed = api.patch(f"{_flows(line)}/{created['id']}", {"enabled": False}, token=token)
    assert changed.status_code == 200 and changed.json["data"]["enabled"] is False
