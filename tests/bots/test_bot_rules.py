"""Issue 18, part 4: keyword rules. Matching case and accents aside, whole words only; CRUD with
every field checked and the cross-field rules refused when saved."""

import pytest

from appliance.bots.matching import compile_rule, first_match, normalize
from tests.factories import another_number
from tests.problems import assert_problem, error_fields


@pytest.mark.parametrize("text, keyword, match_type, expected", [
    ("¿Tienen PAN dulce?", "pan", "CONTAINS", True),
    ("Panadería Sol", "pan", "CONTAINS", False),  # whole words only
    ("El MENU del dia, por favor", "menú del día", "CONTAINS", True),
    ("Quiero el menú", "menú del día", "CONTAINS", False),
    ("Hola!!", "hola", "EXACT", True),
    ("hola amigo", "hola", "EXACT", False),
    ("Precio del pan", "precio", "STARTS_WITH", True),
    ("¿y el precio?", "precio", "STARTS_WITH", False),
    ("Años", "anos", "CONTAINS", True),  # ñ is typed both ways
    ("", "pan", "CONTAINS", False),
])
def test_words_match_as_customers_write_them(text, keyword, match_type, expected):
    rule = compile_rule("r", [keyword], match_type, [])
    assert (first_match([rule], text, "n1") == "r") is expected


def test_the_first_rule_by_priority_wins_and_numbers_narrow_it():
    rules = [compile_rule("only-n2", ["pan"], "CONTAINS", ["n2"]), compile_rule("any", ["pan"], "CONTAINS", [])]
    assert first_match(rules, "pan", "n1") == "any" and first_match(rules, "pan", "n2") == "only-n2"
    assert normalize("  ¡Hola,   MUNDO!  ") == "hola mundo"


def _rules(line):
    return f"/organizations/{line.org_id}/bot/rules"


def test_rules_are_created_listed_by_priority_changed_and_deleted(line, api):
    token = line.owner["token"]
    tag = api.post(f"/organizations/{line.org_id}/tags", {"name": "Pedido"}, token=token).json["data"]
    late = api.post(_rules(line), {"name": "Horario", "keywords": ["horario", "abren"], "reply": "De 8 a 18.",
                                   "priority": 50}, token=token)
    assert late.status_code == 201, late.json
    first = api.post(_rules(line), {"name": "Pedido", "keywords": ["pedido"], "action": "ADD_TAG", "tagId": tag["id"],
                                    "priority": 10, "phoneNumberIds": [line.number["id"]]}, token=token)
    assert first.status_code == 201, first.json
    assert [r["name"] for r in line.get("/bot/rules")] == ["Pedido", "Horario"]
    assert late.json["data"]["matchType"] == "CONTAINS" and late.json["data"]["enabled"] is True
    rule_id = late.json["data"]["id"]
    changed = api.patch(f"{_rules(line)}/{rule_id}", {"priority": 1, "keywords": ["abren", "abren"]}, token=token)
    assert changed.status_code == 200 and changed.json["data"]["keywords"] == ["abren"]
    assert [r["name"] for r in line.get("/bot/rules")] == ["Horario", "Pedido"]
    assert api.delete(f"{_rules(line)}/{rule_id}", token=token).status_code == 204
    assert api.get(f"{_rules(line)}/{rule_id}", token=token).status_code == 404


@pytest.mark.parametrize("body, field", [
    ({"name": "x", "keywords": [], "reply": "y"}, "keywords"),
    ({"name": "x", "keywords": ["a"] * 51, "reply": "y"}, "keywords"),
    ({"name": "", "keywords": ["a"], "reply": "y"}, "name"),
    ({"name": "x", "keywords": ["a"], "reply": "y", "matchType": "REGEX"}, "matchType"),
    ({"name": "x", "keywords": ["a"], "reply": "y", "action": "DANCE"}, "action"),
    ({"name": "x", "keywords": ["a"], "reply": "y" * 4097}, "reply"),
    ({"name": "x", "keywords": ["a"]}, "reply"),  # does nothing
    ({"name": "x", "keywords": ["a"], "action": "ADD_TAG"}, "tagId"),
    ({"name": "x", "keywords": ["a"], "action": "ADD_TAG", "tagId": "01a20000-0000-7000-8000-000000000000"}, "tagId"),
    ({"name": "x", "keywords": ["a"], "action": "START_FLOW", "flowId": "01a20000-0000-7000-8000-000000000000"}, "flowId"),
    ({"name": "x", "keywords": ["a"], "reply": "y", "phoneNumberIds": ["01a20000-0000-7000-8000-000000000000"]},
     "phoneNumberIds"),
    ({"name": "x", "keywords": ["a"], "reply": "y", "priority": -1}, "priority"),
    # an unknown flow or tag is refused even when the action does not use it (it was a 500: the fuzz found it)
    ({"name": "x", "keywords": ["a"], "reply": "y", "flowId": "01a20000-0000-7000-8000-000000000000"}, "flowId"),
    ({"name": "x", "keywords": ["a"], "reply": "y", "tagId": "01a20000-0000-7000-8000-000000000000"}, "tagId"),
])
def test_every_field_and_rule_is_checked_when_saved(line, api, body, field):
    answer = api.post(_rules(line), body, token=line.owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_other_organizations_rules_are_not_found(line, api):
    rule = api.post(_rules(line), {"name": "x", "keywords": ["a"], "reply": "y"}, token=line.owner["token"]).json["data"]
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"}, token=eve).json["data"]["id"]
    assert_problem(api.get(f"/organizations/{theirs}/bot/rules/{rule['id']}", token=eve), 404, "bot_rule_not_found")
    assert api.get(f"/organizations/{theirs}/bot/rules", token=eve).json["data"] == []
    ours = another_number(line.org_id)["phoneNumberPk"]  # a second number of ours may be named, not theirs
    named = api.patch(f"{_rules(line)}/{rule['id']}", {"phoneNumberIds": [ours]}, token=line.owner["token"])
    assert named.status_code == 200 and named.json["data"]["phoneNumberIds"] == [ours]


UNKNOWN = "01a20000-0000-7000-8000-000000000000"


def _theirs(api) -> tuple[str, str]:
    """Another organization (its owner's token, its id)."""
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    return eve, api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                         token=eve).json["data"]["id"]


@pytest.mark.parametrize("field", ["tagId", "imageId", "flowId"])
def test_a_rule_changed_to_an_unknown_or_foreign_id_is_refused_like_a_new_one(api, owner, field):
    """Issue 44, item 11: a PATCH naming a tag or image of nobody's answered 500 (the rule, changed in
    memory, was flushed by the check's own read and failed its foreign key)."""
    token, base = owner["token"], f"/organizations/{owner['org']['id']}/bot/rules"
    rule = api.post(base, {"name": "x", "keywords": ["a"], "reply": "y"}, token=token).json["data"]
    eve, theirs = _theirs(api)
    foreign = {"tagId": lambda: api.post(f"/organizations/{theirs}/tags", {"name": "Suya"}, token=eve),
               "imageId": None, "flowId": lambda: api.post(f"/organizations/{theirs}/bot/flows", {
                   "name": "F", "steps": [{"id": "a", "type": "message", "text": "Hola"}]}, token=eve)}[field]
    ids = [UNKNOWN] + ([foreign().json["data"]["id"]] if foreign else [])
    for unknown in ids:
        for body in ({field: unknown}, {field: unknown, "action": {"tagId": "ADD_TAG", "flowId": "START_FLOW"}.get(field, "NONE")}):
            changed = api.patch(f"{base}/{rule['id']}", body, token=token)
            assert_problem(changed, 400, "unknown_ids", body)
            assert field in changed.json["errors"], changed.json
            made = api.post(base, {"name": "x", "keywords": ["a"], "reply": "y", **body}, token=token)
            assert_problem(made, 400, "unknown_ids", body)
    assert api.get(f"{base}/{rule['id']}", token=token).json["data"][field] is None
