"""Issue 20, part: what AI costs and what agents did. Every call that reached a provider is
counted by the organization's day; a billing group's caps stop the bot's AI replies (logged, the
fallback said) and the probador and configurador (409); /bot/agents/stats reads the activity log;
the configurador turns a goal into prompt proposals through the agent's own model."""

import requests

from appliance.ai_agents import configurador
from tests.bots.test_bot_engine import _bot, _kinds, _reads_outlive_the_clock, _texts, _write  # noqa: F401
from tests.problems import assert_problem

NOTE = "# Envíos\n\nEl envío a domicilio cuesta 5 euros y es gratis en pedidos de más de 50 euros."


def _priced_agent(line, api, **fields):
    """An agent on a priced model (ANTHROPIC's list prices), answered by the AI double."""
    token, base = line.owner["token"], f"/organizations/{line.org_id}/bot"
    assert api.put(f"{base}/providers/ANTHROPIC", {"baseUrl": f"{line.netsim_url}/ai/anthropic", "apiKey": "sk-ant-1"},
                   token=token).status_code == 200
    assert api.post(f"{base}/knowledge/notes", {"title": "Envíos", "content": NOTE}, token=token).status_code == 201
    made = api.post(f"{base}/agents", {"name": "Ventas", "provider": "ANTHROPIC", "model": "claude-3-5-haiku-latest",
                                       "isDefault": True, "capabilities": ["knowledge_search", "handoff"], **fields},
                    token=token)
    assert made.status_code == 201, made.json
    return made.json["data"]


def _cap(line, api, **limits):
    """The line's organization becomes a child of a new parent, which caps its AI spend."""
    token = line.owner["token"]
    parent = api.post("/organizations", {"name": "Matriz", "slug": "matriz", "billingEmail": "b@x.test"},
                      token=token).json["data"]["id"]
    assert api.post(f"/organizations/{line.org_id}/billing-group/link", {"parentOrgId": parent},
                    token=token).status_code == 201
    capped = api.patch(f"/organizations/{parent}/billing-group/{line.org_id}/ai-limits",
                       {"dailyUsd": None, "monthlyUsd": None, **limits}, token=token)
    assert capped.status_code == 200, capped.json


def test_a_spent_daily_cap_stops_ai_replies_with_the_fallback_and_a_reason(line, api):
    agent = _priced_agent(line, api)
    _bot(line, api, mode="AI_AGENT", fallbackEnabled=True, fallbackMessage="Enseguida te atiende una persona.")
    _cap(line, api, dailyUsd=0.000001)  # the first reply spends more than this
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    _write(line, "¿Y si el pedido es grande?")
    texts = _texts(line)
    assert "5 euros" in texts[0] and texts[-1] == "Enseguida te atiende una persona."
    assert _kinds(line)[-3:] == ["AI_REPLY", "SKIPPED", "FALLBACK_SENT"]
    skipped = next(a for a in line.get("/bot/activity")["items"] if a["kind"] == "SKIPPED")
    assert skipped["detail"]["reason"] == "ai_spend_cap_reached" and skipped["detail"]["cap"] == "daily"
    assert skipped["detail"]["limitUsd"] == 0.000001 and skipped["detail"]["spentUsd"] > 0
    probe = api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/probador",
                     {"messages": [{"role": "user", "content": "hola"}]}, token=line.owner["token"])
    assert_problem(probe, 409, "ai_spend_cap_reached")
    assert probe.get_json()["cap"] == "daily" and "billing group" in probe.get_json()["detail"]
    proposals = api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/configurador",
                         {"goal": "Vender más tartas"}, token=line.owner["token"])
    assert_problem(proposals, 409, "ai_spend_cap_reached")


def test_a_monthly_cap_and_no_cap(line, api):
    _priced_agent(line, api)
    _bot(line, api, mode="AI_AGENT")
    _cap(line, api, monthlyUsd=1000)
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    _write(line, "¿Es gratis en pedidos grandes?")
    assert _kinds(line) == ["AI_REPLY", "AI_REPLY"]  # far from the cap


def test_stats_per_agent(line, api):
    agent = _priced_agent(line, api)
    idle = api.post(f"/organizations/{line.org_id}/bot/agents", {"name": "Zeta", "provider": "LOCAL",
                                                                  "model": "double-small"}, token=line.owner["token"])
    _bot(line, api, mode="AI_AGENT", fallbackEnabled=True, fallbackMessage="Un momento.")
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    _write(line, "¿Es gratis en pedidos de más de 50 euros?")
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [401]}, timeout=5)
    _write(line, "¿Y a otra ciudad?")
    stats = line.get("/bot/agents/stats?dias=7")
    assert [row["name"] for row in stats] == ["Ventas", "Zeta"]
    busy, quiet = stats
    assert busy["agentId"] == agent["id"] and busy["replies"] == 2 and busy["conversations"] == 1
    assert busy["errors"] == 1 and busy["handoffs"] == 0 and busy["tokensIn"] > 20 and busy["tokensOut"] > 5
    assert busy["costUsd"] > 0
    assert quiet["agentId"] == idle.json["data"]["id"] and quiet["replies"] == 0 and quiet["costUsd"] == 0
    assert_problem(api.get(f"/organizations/{line.org_id}/bot/agents/stats?dias=0", token=line.owner["token"]),
                   400, "validation_failed")


def test_the_configurador_proposes_prompts_through_the_agents_model(line, api):
    agent = _priced_agent(line, api, systemPrompt="Eres el asistente de la panadería.")
    answered = api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/configurador",
                        {"goal": "Responder sobre envíos y precios con amabilidad"}, token=line.owner["token"])
    assert answered.status_code == 201, answered.json
    body = answered.json["data"]
    assert body["proposals"] and body["proposals"][0]["systemPrompt"] and body["tokensIn"] > 0 and body["costUsd"] > 0
    sent = requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"][-1]["body"]
    assert "Eres el asistente de la panadería." in sent["system"] and '"proposals"' in sent["system"]
    assert sent["messages"][-1]["content"] == "Responder sobre envíos y precios con amabilidad"
    agent_after = api.get(f"/organizations/{line.org_id}/bot/agents/{agent['id']}", token=line.owner["token"]).json["data"]
    assert agent_after["systemPrompt"] == "Eres el asistente de la panadería."  # nothing changes until saved
    assert_problem(api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/configurador", {"goal": ""},
                            token=line.owner["token"]), 400, "validation_failed")
    assert_problem(api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/configurador", {"goal": "x" * 2001},
                            token=line.owner["token"]), 400, "validation_failed")
    assert_problem(api.post(f"/organizations/{line.org_id}/bot/agents/01a214dd-7407-7164-aaef-09787f422510/configurador",
                            {"goal": "Vender más"}, token=line.owner["token"]), 404, "agent_not_found")
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [401]}, timeout=5)
    refused = api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/configurador", {"goal": "Vender más"},
                       token=line.owner["token"])
    assert_problem(refused, 502, "ai_provider_failed")


def test_proposals_are_read_from_json_fenced_or_not_and_free_text_is_kept():
    fenced = '```json\n{"proposals": [{"systemPrompt": "Eres Sol.", "why": "Breve."}, {"systemPrompt": " "}]}\n```'
    assert configurador.read_proposals(fenced) == [{"system_prompt": "Eres Sol.", "why": "Breve."}]
    many = '{"proposals": [' + ",".join('{"systemPrompt": "P%d"}' % i for i in range(5)) + "]}"
    assert [p["system_prompt"] for p in configurador.read_proposals(many)] == ["P0", "P1", "P2"]
    assert configurador.read_proposals("Eres el asistente {de} Sol.") == [
        {"system_prompt": "Eres el asistente {de} Sol.", "why": configurador.FREE_TEXT_WHY}]
    assert configurador.read_proposals("  ") == []
