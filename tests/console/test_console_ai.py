"""The console's AI pages without JavaScript (issue 20): a provider set up and tested (and one that
refuses its key, said in a sentence), an agent written in the editor with errors by their fields,
a test chat in the probador that carries its conversation in the page and shows what the agent
read, the configurador's proposal used with one click, the agents' figures, the inbox showing an
AI reply's passages, and a supervisor who may look but not change."""

import requests

from tests import factories
from tests.bots.test_bot_engine import _bot, _reads_outlive_the_clock, _write  # noqa: F401
from tests.browser_forms import csrf_of, sign_in

NOTE = "# Envíos\n\nEl envío a domicilio cuesta 5 euros y es gratis en pedidos de más de 50 euros."


def _ai_calls(line):
    return requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"]


def test_providers_an_agent_the_probador_and_the_configurador(client, line, api):
    org = line.org_id
    api.post(f"/organizations/{org}/bot/knowledge/notes", {"title": "Envíos", "content": NOTE}, token=line.owner["token"])
    sign_in(client, email="owner@example.com")
    home = client.get(f"/console/{org}/bot/ai").text
    assert "No agents yet" in home and "No provider is set up yet" in home
    providers = f"/console/{org}/bot/ai/providers"
    saved = client.post(f"{providers}/LOCAL", data={"csrf": csrf_of(client.get(providers)),
                                                    "base_url": f"{line.netsim_url}/ai/openai"})
    assert saved.status_code == 302
    checked = client.post(f"{providers}/LOCAL/check", data={"csrf": csrf_of(client.get(providers))})
    assert checked.status_code == 200 and "Connected: 2 models offered." in checked.text and "double-small" in checked.text
    no_key = client.post(f"{providers}/OPENAI", data={"csrf": csrf_of(client.get(providers)), "base_url": ""})
    assert no_key.status_code == 400 and 'id="error-apiKey"' in no_key.text
    client.post(f"{providers}/ANTHROPIC", data={"csrf": csrf_of(client.get(providers)), "api_key": "sk-invalid",
                                                "base_url": f"{line.netsim_url}/ai/anthropic"})
    refused = client.post(f"{providers}/ANTHROPIC/check", data={"csrf": csrf_of(client.get(providers))})
    assert "Not connected:" in refused.text and "sk-invalid" not in refused.text
    assert "sk-invalid" not in client.get(providers).text  # a key is never shown again

    new = f"/console/{org}/bot/ai/agents/new"
    form = {"csrf": csrf_of(client.get(new)), "name": "Ventas", "provider": "OPENAI", "model": "no-such-model",
            "system_prompt": "Eres el asistente de la tienda.", "temperature": "0.3", "max_tokens": "400",
            "capabilities": ["knowledge_search", "handoff"], "is_default": "1", "enabled": "1"}
    wrong = client.post(f"/console/{org}/bot/ai/agents", data=form)
    assert wrong.status_code == 400 and 'id="error-model"' in wrong.text and 'value="Ventas"' in wrong.text
    made = client.post(f"/console/{org}/bot/ai/agents", data=form | {"provider": "LOCAL", "model": "double-small"})
    assert made.status_code == 302
    page = made.headers["Location"].split("?")[0]
    agent_id = page.rsplit("/", 1)[1]
    shown = client.get(page).text
    assert "Test chat" in shown and "Eres el asistente de la tienda." in shown

    first = client.post(f"{page}/probador", data={"csrf": csrf_of(client.get(page)), "chat": "[]",
                                                  "message": "¿Cuánto cuesta el envío a domicilio?"})
    assert first.status_code == 200 and "5 euros" in first.text and "What it read (1)" in first.text
    assert "Envíos" in first.text and "tokens in" in first.text
    carried = first.text.split('name="chat" value="')[1].split('"')[0]
    second = client.post(f"{page}/probador", data={"csrf": csrf_of(first), "chat": carried.replace("&#34;", '"'),
                                                   "message": "¿Y si compro más de 50 euros?"})
    assert second.status_code == 200 and "gratis" in second.text
    assert [m["role"] for m in _ai_calls(line)[-1]["body"]["messages"]][:4] == ["system", "user", "assistant", "user"]

    proposed = client.post(f"{page}/configurador", data={"csrf": csrf_of(client.get(page)),
                                                         "goal": "Responder sobre envíos a domicilio"})
    assert proposed.status_code == 200 and "Use these instructions" in proposed.text
    prompt = proposed.text.split('name="system_prompt" value="')[-1].split('"')[0]
    used = client.post(f"{page}/prompt", data={"csrf": csrf_of(proposed), "system_prompt": prompt})
    assert used.status_code == 302
    agent = api.get(f"/organizations/{org}/bot/agents/{agent_id}", token=line.owner["token"]).json["data"]
    assert agent["systemPrompt"] and agent["systemPrompt"] != "Eres el asistente de la tienda."

    _bot(line, api, mode="AI_AGENT")
    _write(line, "¿Cuánto cuesta el envío a domicilio?")
    figures = client.get(f"/console/{org}/bot/ai?dias=7").text
    assert "Ventas" in figures and "<strong>1</strong> replies" in figures and "AI spending" in figures
    conversation = line.get("/conversations")["items"][0]
    thread = client.get(f"/inbox/{org}/c/{conversation['id']}").text
    assert 'data-bot-decision="AI_REPLY"' in thread and "Passages it read: 1" in thread and "double-small" in thread

    deleted = client.post(f"{page}/delete", data={"csrf": csrf_of(client.get(page))})
    assert deleted.status_code == 302 and "Agent deleted." in client.get(deleted.headers["Location"]).text


def test_a_supervisor_may_look_but_not_change(client, line, api):
    org = line.org_id
    api.put(f"/organizations/{org}/bot/providers/LOCAL", {"baseUrl": f"{line.netsim_url}/ai/openai"},
            token=line.owner["token"])
    agent = api.post(f"/organizations/{org}/bot/agents", {"name": "Ventas", "provider": "LOCAL", "model": "double-small"},
                     token=line.owner["token"]).json["data"]
    factories.add_member(api, org, "supervisor", "sup@example.com")
    sign_in(client, email="sup@example.com")
    page = client.get(f"/console/{org}/bot/ai/agents/{agent['id']}")
    assert page.status_code == 200 and "<fieldset class=\"bare\" disabled>" in page.text and "/probador" not in page.text
    assert "New agent" not in client.get(f"/console/{org}/bot/ai").text
    assert "Test connection" not in client.get(f"/console/{org}/bot/ai/providers").text
    refused = client.post(f"/console/{org}/bot/ai/agents/{agent['id']}/probador",
                          data={"csrf": csrf_of(page), "message": "hola"})
    assert refused.status_code == 403


def test_a_numbers_ai_and_follow_up_settings(client, line, api):
    sign_in(client, email="owner@example.com")
    settings = f"/console/{line.org_id}/bot/numbers/{line.number['id']}"
    form = {"csrf": csrf_of(client.get(settings)), "enabled": "1", "mode": "AI_AGENT", "ritmo_de_respuesta": "NATURAL",
            "debounce_seconds": "3", "max_replies_per_window": "0", "reply_window_minutes": "60",
            "intent_classifier_enabled": "1", "knowledge_top_k": "4", "knowledge_min_similarity": "0.35",
            "protected_values": "ES12 3456 7890\n  \nclave-secreta", "follow_up_enabled": "1", "follow_up_after_min": "45",
            "follow_up_close_after_min": "120", "follow_up_mode": "AI", "follow_up_message": "¿Te ayudo con algo más?",
            "follow_up_close_message": ""}
    saved = client.post(settings, data=form)
    assert saved.status_code == 302, saved.text
    config = line.get(f"/bot/config/{line.number['id']}")
    assert config["intentClassifierEnabled"] is True and config["knowledgeTopK"] == 4
    assert config["knowledgeMinSimilarity"] == 0.35 and config["protectedValues"] == ["ES12 3456 7890", "clave-secreta"]
    assert (config["followUpEnabled"], config["followUpAfterMin"], config["followUpMode"]) == (True, 45, "AI")
    shown = client.get(settings).text
    assert 'value="45"' in shown and "clave-secreta" in shown
    wrong = client.post(settings, data={**form, "knowledge_min_similarity": "2", "follow_up_after_min": "0"})
    assert wrong.status_code == 400
    assert 'id="error-knowledgeMinSimilarity"' in wrong.text and 'id="error-followUpAfterMin"' in wrong.text
