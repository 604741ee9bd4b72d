"""Issue 18, part 7: the activity log (what the engine records, filtered and paged, a key seeing its
numbers only) and the bots' health (what keeps a bot from doing what it is set to do)."""

import pytest

from appliance.bots import activity
from appliance.core import runtime
from tests.factories import another_number
from tests.problems import assert_problem


def _log(org_id, kind, number=None, conversation=None, **detail):
    with runtime.get().db.unit_of_work(write=True) as session:
        activity.record(session, organization_id=org_id, kind=kind, phone_number_pk=number,
                        conversation_id=conversation, **detail)


def test_the_log_lists_decisions_newest_first_with_filters(line, api):
    other = another_number(line.org_id)["phoneNumberPk"]
    _log(line.org_id, "RULE_MATCHED", line.number["id"], rule="Horario")
    _log(line.org_id, "SKIPPED", line.number["id"], reason="contact_bot_excluded")
    _log(line.org_id, "HANDOFF", other, keyword="asesor")
    items = line.get("/bot/activity")["items"]
    assert [i["kind"] for i in items] == ["HANDOFF", "SKIPPED", "RULE_MATCHED"]
    assert items[1]["detail"] == {"reason": "contact_bot_excluded"} and items[1]["phoneNumberId"] == line.number["id"]
    assert [i["kind"] for i in line.get(f"/bot/activity?phoneNumberId={other}")["items"]] == ["HANDOFF"]
    assert [i["kind"] for i in line.get("/bot/activity?kind=SKIPPED")["items"]] == ["SKIPPED"]
    page = line.get("/bot/activity?take=2")
    assert len(page["items"]) == 2 and line.get(f"/bot/activity?take=2&cursor={page['nextCursor']}")["items"][0]["kind"] \
        == "RULE_MATCHED"
    bad = api.get(f"/organizations/{line.org_id}/bot/activity?kind=DANCED", token=line.owner["token"])
    assert_problem(bad, 400, "validation_failed")
    key = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "k", "phoneNumberIds": [other]},
                   token=line.owner["token"]).json["data"]["secret"]
    seen = api.client.get(f"/organizations/{line.org_id}/bot/activity", headers={"X-Api-Key": key}).json["data"]
    assert [i["kind"] for i in seen["items"]] == ["HANDOFF"]


def test_an_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError):
        activity.record(None, organization_id="x", kind="DANCED")


def test_health_says_what_keeps_each_bot_from_working(line, api):
    token = line.owner["token"]
    url = f"/organizations/{line.org_id}/bot/config/{line.number['id']}"
    [number] = line.get("/bot/salud")["numbers"]
    assert number == {"phoneNumberId": line.number["id"], "enabled": False, "mode": "OFF", "healthy": True, "problems": []}
    api.put(url, {"enabled": True}, token=token)
    assert [p["code"] for p in line.get("/bot/salud")["numbers"][0]["problems"]] == ["mode_off"]
    api.put(url, {"mode": "RULES_PLUS_AI_FALLBACK"}, token=token)
    assert [p["code"] for p in line.get("/bot/salud")["numbers"][0]["problems"]] == ["no_rules", "ai_provider_missing"]
    api.post(f"/organizations/{line.org_id}/bot/rules", {"name": "h", "keywords": ["horario"], "reply": "8 a 18"},
             token=token)
    api.put(url, {"aiProvider": "LOCAL"}, token=token)
    assert line.get("/bot/salud")["numbers"][0]["healthy"] is True
