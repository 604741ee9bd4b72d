"""Simplified template sends: by id or name, variables checked against the synced template before
anything is sent; named parameters, media headers, URL and copy-code buttons; outside the window."""

import pytest
import requests

from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem

NEW_CUSTOMER = "5215500000001"  # never wrote: only templates may go


def _approved(line, name, language, components, parameter_format=None):
    body = {"businessAccountId": line.waba["id"], "name": name, "language": language, "category": "UTILITY",
            "components": components}
    if parameter_format:
        body["parameterFormat"] = parameter_format
    created = line.api.post(f"/organizations/{line.org_id}/templates", body, token=line.owner["token"])
    assert created.status_code == 201, created.json
    answer = requests.post(f"{line.netsim_url}/_control/templates/{line.account['wabaId']}/status",
                           json={"name": name, "language": language, "status": "APPROVED"}, timeout=5)
    assert answer.status_code == 200
    line.deliver()
    return created.json["data"]


@pytest.fixture
def pedido(outbox):
    return _approved(outbox.line, "pedido_listo", "es", [
        {"type": "HEADER", "format": "IMAGE", "example": {"header_handle": ["4::aW1n"]}},
        {"type": "BODY", "text": "Hola {{1}}, tu pedido {{2}} está listo", "example": {"body_text": [["Ana", "A-17"]]}},
        {"type": "BUTTONS", "buttons": [
            {"type": "URL", "text": "Ver pedido", "url": "https://pan.example/pedidos/{{1}}", "example": ["https://pan.example/pedidos/A-17"]},
            {"type": "COPY_CODE", "example": "PAN10"}]}])


def test_by_name_with_header_body_and_buttons_outside_the_window(outbox, pedido):
    created = outbox.send(type="template", to=NEW_CUSTOMER, templateName="pedido_listo", variables={
        "header": {"type": "image", "link": "https://pan.example/hogaza.jpg"}, "body": ["Ana", "A-17"],
        "buttons": [{"index": 0, "value": "A-17"}, {"index": 1, "value": "PAN10"}]})
    assert created.status_code == 201, created.json
    assert outbox.get(created.json["data"]["id"])["status"] == "sent"
    [got] = outbox.network_got()
    assert got["template"] == {"name": "pedido_listo", "language": {"code": "es"}, "components": [
        {"type": "header", "parameters": [{"type": "image", "image": {"link": "https://pan.example/hogaza.jpg"}}]},
        {"type": "body", "parameters": [{"type": "text", "text": "Ana"}, {"type": "text", "text": "A-17"}]},
        {"type": "button", "sub_type": "url", "index": "0", "parameters": [{"type": "text", "text": "A-17"}]},
        {"type": "button", "sub_type": "copy_code", "index": "1",
         "parameters": [{"type": "coupon_code", "coupon_code": "PAN10"}]}]}


def test_mismatched_variables_are_refused_naming_what_is_missing(outbox, pedido):
    full = {"header": {"type": "image", "link": "https://pan.example/h.jpg"}, "body": ["Ana", "A-17"],
            "buttons": [{"index": 0, "value": "A-17"}, {"index": 1, "value": "PAN10"}]}
    cases = [
        (["Ana"], "variables.header"),
        ({**full, "body": ["Ana"]}, "variables.body"),
        ({**full, "body": ["Ana", "A-17", "extra"]}, "variables.body"),
        ({**full, "header": {"type": "video", "link": "https://pan.example/v.mp4"}}, "variables.header.type"),
        ({**full, "header": {"type": "image", "link": "not a url"}}, "variables.header.link"),
        ({**full, "buttons": [{"index": 0, "value": "A-17"}]}, "variables.buttons"),
        ({**full, "buttons": [*full["buttons"], {"index": 5, "value": "x"}]}, "variables.buttons"),
        ({**full, "footer": ["x"]}, "variables.footer"),
        ("Ana", "variables"),
    ]
    for variables, field in cases:
        refused = outbox.send(type="template", templateId=pedido["id"], variables=variables)
        assert refused.status_code == 400, (variables, refused.json)
        assert field in refused.json["errors"], (field, refused.json)
    body_missing = outbox.send(type="template", templateId=pedido["id"], variables={**full, "body": ["Ana"]})
    assert body_missing.json["code"] == "template_variables_mismatch" and "{{2}}" in body_missing.json["detail"]
    assert outbox.network_got() == []


def test_named_parameters_and_the_default_language(outbox):
    line = outbox.line
    _approved(line, "cita", "es_MX", [{"type": "BODY", "text": "Hola {{nombre}}, tu cita es el {{dia}}",
                                       "example": {"body_text_named_params": [{"param_name": "nombre", "example": "Ana"},
                                                                              {"param_name": "dia", "example": "lunes"}]}}],
              parameter_format="NAMED")
    created = outbox.send(type="template", templateName="cita", variables={"body": {"nombre": "Ana", "dia": "lunes"}})
    assert created.status_code == 201, created.json
    [got] = outbox.network_got()
    assert got["template"]["language"] == {"code": "es_MX"}
    assert got["template"]["components"] == [{"type": "body", "parameters": [
        {"type": "text", "text": "Ana", "parameter_name": "nombre"}, {"type": "text", "text": "lunes", "parameter_name": "dia"}]}]
    missing = outbox.send(type="template", templateName="cita", variables={"body": {"nombre": "Ana"}})
    assert missing.status_code == 400 and "dia" in missing.json["detail"]


def test_unknown_unapproved_and_foreign_templates(outbox):
    line = outbox.line
    unknown = outbox.send(type="template", templateName="no_existe", variables=[])
    assert_problem(unknown, 400, "template_not_found")
    unknown_id = outbox.send(type="template", templateId="0190a0a0-0000-7000-8000-000000000000", variables=[])
    assert_problem(unknown_id, 400, "template_not_found")
    assert "templateId" in unknown_id.json["errors"]
    pending = line.api.post(f"/organizations/{line.org_id}/templates", {
        "businessAccountId": line.waba["id"], "name": "pendiente", "language": "es", "category": "UTILITY",
        "components": [{"type": "BODY", "text": "Hola"}]}, token=line.owner["token"]).json["data"]
    refused = outbox.send(type="template", templateId=pending["id"])
    assert_problem(refused, 400, "template_not_approved")
    wrong_language = outbox.send(type="template", templateName="pendiente", templateLanguage="en")
    assert_problem(wrong_language, 400, "template_not_found")
    both = outbox.send(type="template", templateId=pending["id"], payload={"name": "x", "language": {"code": "es"}})
    assert both.status_code == 400 and "payload" in both.json["errors"]


def test_the_networks_own_template_object_is_passed_through(outbox, pedido):
    native = {"name": "pedido_listo", "language": {"code": "es"}, "components": [
        {"type": "body", "parameters": [{"type": "text", "text": "Ana"}]}]}
    created = outbox.send(type="template", payload=native)
    assert created.status_code == 201, created.json
    failed = outbox.get(created.json["data"]["id"])  # the network counts the parameters: 132000
    assert failed["status"] == "failed" and failed["errorCode"] == 132000 and failed["errorGuidance"]["es"]
    assert outbox.send(type="template", payload={"name": "x"}).status_code == 400
    assert CUSTOMER


def test_a_native_template_object_is_kept_with_what_the_customer_reads_whatever_its_parameters(outbox, pedido):
    """The network's own object: what the customer reads is kept beside it (`rendered`), never sent,
    and odd parameters (numbers, strings, currencies) make no 500."""
    native = {"name": "pedido_listo", "language": {"code": "es"}, "components": [
        {"type": "body", "parameters": [{"type": "text", "text": "Ana"},
                                        {"type": "currency", "currency": {"fallback_value": "$5", "code": "USD",
                                                                          "amount_1000": 5000}}]}]}
    created = outbox.send(type="template", payload=native)
    assert created.status_code == 201, created.json
    assert created.json["data"]["payload"]["rendered"]["body"] == "Hola Ana, tu pedido $5 está listo"
    for parameters in ([{"type": "text", "text": 5}], "x", ["x"], [None]):
        odd = {**native, "components": [{"type": "body", "parameters": parameters}],
               "rendered": {"body": "a caller's words are not ours to keep"}}
        answer = outbox.send(type="template", payload=odd)
        assert answer.status_code in (201, 400), answer.json
        if answer.status_code == 201:
            assert "not ours" not in answer.json["data"]["payload"]["rendered"]["body"]
