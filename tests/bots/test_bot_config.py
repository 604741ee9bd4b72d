"""Issue 18, parts 1 and 2: plans with their capabilities, and each number's bot configuration
(GET list, GET one, PUT every field with ranges, PATCH toggle), with key and scope filters."""

import subprocess
import sys

import pytest
from sqlmodel import select

from appliance.core import runtime
from appliance.core.events import OutboxEvent
from appliance.organizations.models import Organization
from tests.factories import add_member, another_number
from tests.problems import assert_problem, error_fields


def _config(line, suffix=""):
    return f"/organizations/{line.org_id}/bot/config{suffix}"


def _set_plan(org_id, plan):
    with runtime.get().db.unit_of_work(write=True) as session:
        session.get(Organization, org_id).plan_slug = plan


def test_every_number_has_a_configuration_with_the_decided_defaults(line):
    [config] = line.get("/bot/config")
    assert config["phoneNumberId"] == line.number["id"] and config["saved"] is False
    assert (config["enabled"], config["mode"], config["debounceSeconds"], config["ritmoDeRespuesta"]) == \
        (False, "OFF", 3, "INSTANTANEO")
    assert config["aiTemperature"] == 0.3 and config["followUpMode"] == "TEXT" and config["outOfHoursSchedule"] is None
    assert "cooldownSeconds" not in config
    assert line.get(f"/bot/config/{line.number['id']}") == config


def test_put_changes_what_it_names_and_keeps_the_rest(line):
    url = _config(line, f"/{line.number['id']}")
    saved = line.api.put(url, {"enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 5, "cooldownSeconds": 30,
                               "welcomeEnabled": True, "welcomeMessage": "¡Hola! Soy el asistente de Sol.",
                               "humanHandoffKeywords": ["asesor", "humano"], "protectedValues": ["1234-5678"],
                               "outOfHoursSchedule": {"mon": [{"open": "08:00", "close": "17:00"}]}},
                         token=line.owner["token"])
    assert saved.status_code == 200, saved.json
    data = saved.json["data"]
    assert data["saved"] is True and data["enabled"] is True and data["debounceSeconds"] == 5
    assert "cooldownSeconds" not in data and data["humanHandoffKeywords"] == ["asesor", "humano"]
    again = line.api.put(url, {"ritmoDeRespuesta": "NATURAL"}, token=line.owner["token"]).json["data"]
    assert again["ritmoDeRespuesta"] == "NATURAL" and again["welcomeMessage"] == "¡Hola! Soy el asistente de Sol."
    with runtime.get().db.unit_of_work(write=False) as session:
        kinds = list(session.exec(select(OutboxEvent.name)).all())
    assert kinds.count("bot.config_updated") == 2


@pytest.mark.parametrize("body", [
    {"debounceSeconds": 121}, {"debounceSeconds": -1}, {"velocidadTecleoCps": 0}, {"maxRepliesPerWindow": 1001},
    {"replyWindowMinutes": 0}, {"aiTemperature": 2.5}, {"aiMaxTokens": 8001}, {"knowledgeTopK": 21},
    {"knowledgeMinSimilarity": 1.5}, {"followUpAfterMin": 10081}, {"mode": "ALWAYS"}, {"ritmoDeRespuesta": "FAST"},
    {"aiProvider": "OTHER"}, {"welcomeMessage": "x" * 4097}, {"humanHandoffKeywords": ["x"] * 101},
    {"outOfHoursSchedule": {"mon": [{"open": "18:00", "close": "08:00"}]}}, {"enabled": "yes"}, {"unknown": 1},
])
def test_every_field_is_checked(line, body):
    answer = line.api.put(_config(line, f"/{line.number['id']}"), body, token=line.owner["token"])
    assert answer.status_code == 400, (body, answer.json)
    assert set(body) & error_fields(answer) or "unknown" in body, answer.json


def test_toggle_flips_or_sets_and_creates_the_defaults(line):
    url = _config(line, f"/{line.number['id']}/toggle")
    flipped = line.api.patch(url, None, token=line.owner["token"])
    assert flipped.status_code == 200 and flipped.json["data"]["enabled"] is True and flipped.json["data"]["saved"]
    assert line.api.patch(url, None, token=line.owner["token"]).json["data"]["enabled"] is False
    assert line.api.patch(url, {"enabled": True}, token=line.owner["token"]).json["data"]["enabled"] is True
    assert line.api.patch(url, {"enabled": True}, token=line.owner["token"]).json["data"]["enabled"] is True


def test_a_setting_the_plan_lacks_is_400_with_the_capability(line):
    _set_plan(line.org_id, "free")
    url = _config(line, f"/{line.number['id']}")
    for body in ({"mode": "AI_AGENT"}, {"mode": "RULES_PLUS_AI_FALLBACK"}, {"intentClassifierEnabled": True},
                 {"followUpEnabled": True, "followUpMode": "AI"}):
        refused = line.api.put(url, body, token=line.owner["token"])
        assert_problem(refused, 400, "plan_capability_missing")
        assert refused.json["capability"] == "bot.ai" and "bot.ai" in refused.json["detail"]
    assert line.api.put(url, {"enabled": True, "mode": "RULES_ONLY"}, token=line.owner["token"]).status_code == 200
    _set_plan(line.org_id, "business")
    assert line.api.put(url, {"mode": "AI_AGENT"}, token=line.owner["token"]).status_code == 200


def test_keys_members_and_other_tenants(line, api):
    org = line.org_id
    other = another_number(org)
    key = api.post(f"/organizations/{org}/api-keys", {"name": "bot", "phoneNumberIds": [other["phoneNumberPk"]]},
                   token=line.owner["token"]).json["data"]["secret"]  # bot scopes are not key scopes: no scopes, all
    listed = api.client.get(_config(line), headers={"X-Api-Key": key})
    assert [c["phoneNumberId"] for c in listed.json["data"]] == [other["phoneNumberPk"]]
    assert api.client.get(_config(line, f"/{line.number['id']}"), headers={"X-Api-Key": key}).status_code == 404
    assert api.client.put(_config(line, f"/{other['phoneNumberPk']}"), json={"enabled": True},
                          headers={"X-Api-Key": key}).status_code == 200
    agent = add_member(api, org, "agent", "agent@example.com")
    assert api.get(_config(line), token=agent).status_code in (200, 403)
    assert api.put(_config(line, f"/{line.number['id']}"), {"enabled": True}, token=agent).status_code == 403
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"}, token=eve).json["data"]["id"]
    stranger = api.put(f"/organizations/{theirs}/bot/config/{line.number['id']}", {"enabled": True}, token=eve)
    assert_problem(stranger, 404, "phone_number_not_found")


def test_new_organizations_get_the_default_plan_and_staff_change_it(api, owner, settings, tmp_path):
    org = api.get(f"/organizations/{owner['org']['id']}", token=owner["token"]).json["data"]
    assert org["planSlug"] == settings.default_plan == "business"
    unknown = api.post("/organizations", {"name": "X", "slug": "xyz", "billingEmail": "x@x.test", "planSlug": "gold"},
                       token=owner["token"])
    assert_problem(unknown, 400, "unknown_plan")
    free = api.post("/organizations", {"name": "Y", "slug": "yyy", "billingEmail": "y@y.test", "planSlug": "free"},
                    token=owner["token"])
    assert free.status_code == 201 and free.json["data"]["planSlug"] == "free"


def test_staff_plan_command(api, owner, settings):
    run = [sys.executable, "-m", "appliance", "--data-dir", str(settings.data_dir), "staff", "plan"]
    changed = subprocess.run(run + ["acme", "free"], capture_output=True, text=True, check=False)
    assert changed.returncode == 0 and "acme: plan free" in changed.stdout, changed.stderr
    assert api.get(f"/organizations/{owner['org']['id']}", token=owner["token"]).json["data"]["planSlug"] == "free"
    for wrong in (["acme", "gold"], ["nobody", "free"]):
        refused = subprocess.run(run + wrong, capture_output=True, text=True, check=False)
        assert refused.returncode != 0 and ("Unknown plan" in refused.stderr + refused.stdout
                                            or "No organization" in refused.stderr + refused.stdout), refused
