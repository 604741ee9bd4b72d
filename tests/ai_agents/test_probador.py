"""Issue 20, part: the probador. An agent answers a test conversation through a real provider
client and the AI double: grounded in the knowledge base (the passages it read are shown), the
business's facts and catalog in its prompt, tools carried out, the reply cut into the parts a
paced bot would send; a provider's failure is a sentence."""

import requests

from tests.problems import assert_problem

PRICES = ("# Envíos\n\nEl envío a domicilio cuesta 5 euros en toda la ciudad y es gratis en pedidos de más de 50 euros."
          "\n\n# Devoluciones\n\nAceptamos devoluciones durante 30 días con el ticket.")


def _setup(line, provider="LOCAL", capabilities=("knowledge_search",), **agent):
    api, token, base = line.api, line.owner["token"], f"/organizations/{line.org_id}/bot"
    shape = {"LOCAL": "openai", "ANTHROPIC": "anthropic", "GEMINI": "gemini"}[provider]
    settings = {"baseUrl": f"{line.netsim_url}/ai/{shape}"} | ({} if provider == "LOCAL" else {"apiKey": "sk-test-1"})
    assert api.put(f"{base}/providers/{provider}", settings, token=token).status_code == 200
    note = api.post(f"{base}/knowledge/notes", {"title": "Envíos y devoluciones", "content": PRICES}, token=token)
    assert note.status_code == 201
    model = {"LOCAL": "double-small", "ANTHROPIC": "claude-3-5-haiku-latest", "GEMINI": "gemini-2.0-flash"}[provider]
    made = api.post(f"{base}/agents", {"name": "Ventas", "provider": provider, "model": model,
                                       "capabilities": list(capabilities), **agent}, token=token)
    assert made.status_code == 201, made.json
    return made.json["data"], note.json["data"]


def _probe(line, agent, *messages):
    return line.api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/probador",
                         {"messages": [{"role": role, "content": text} for role, text in messages]},
                         token=line.owner["token"])


def test_the_agent_answers_from_the_knowledge_base_and_shows_what_it_read(line):
    agent, note = _setup(line)
    answered = _probe(line, agent, ("user", "Hola"), ("assistant", "¡Hola! ¿En qué te ayudo?"),
                      ("user", "¿Cuánto cuesta el envío a domicilio?"))
    assert answered.status_code == 201, answered.json
    body = answered.json["data"]
    assert "5 euros" in body["reply"] and body["parts"] and "".join(body["parts"]).replace(" ", "") == body["reply"].replace(" ", "")
    assert body["knowledge"] and body["knowledge"][0]["documentId"] == note["id"] and body["knowledge"][0]["similarity"] > 0
    assert body["tokensIn"] > 20 and body["tokensOut"] > 3 and body["costUsd"] == 0 and body["actions"] == []
    calls = requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"]
    assert len(calls) == 2  # the model searched with the tool first, then answered
    first = calls[0]["body"]
    assert first["tools"][0]["function"]["name"] == "knowledge_search"
    assert [m["role"] for m in first["messages"]] == ["system", "user", "assistant", "user"]
    assert "El envío a domicilio cuesta 5 euros" in first["messages"][0]["content"]  # the passages, in the prompt
    assert calls[1]["body"]["messages"][-1]["role"] == "tool"
    insights = line.api.get(f"/organizations/{line.org_id}/bot/knowledge/insights", token=line.owner["token"]).json["data"]
    assert insights["queries"] == 0  # a test conversation is not a customer's question


def test_the_services_catalog_in_the_prompt_through_anthropics_shape(line):
    api, token = line.api, line.owner["token"]
    api.post(f"/organizations/{line.org_id}/bot/servicios", {"nombre": "Tarta de queso", "precios": [
        {"etiqueta": "Entera", "monto": 24}]}, token=token)
    agent, _ = _setup(line, provider="ANTHROPIC", capabilities=["services_catalog"])
    body = _probe(line, agent, ("user", "¿Qué precio tiene la tarta de queso entera?")).json["data"]
    assert "Tarta de queso" in body["reply"] and "24" in body["reply"] and body["costUsd"] > 0
    sent = requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"][-1]
    assert "- Tarta de queso: Entera: 24 USD" in sent["body"]["system"] and sent["body"]["tools"][0]["name"] == "services_catalog"


def test_failures_are_sentences(line):
    agent, _ = _setup(line)
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [401]}, timeout=5)
    refused = _probe(line, agent, ("user", "hola"))
    assert_problem(refused, 502, "ai_provider_failed")
    assert refused.get_json()["kind"] == "auth" and "Paste a valid key" in refused.get_json()["detail"]
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": ["garbage"]}, timeout=5)
    assert _probe(line, agent, ("user", "hola")).get_json()["kind"] == "bad_answer"
    assert_problem(line.api.post(f"/organizations/{line.org_id}/bot/agents/{agent['id']}/probador", {"messages": []},
                                 token=line.owner["token"]), 400, "validation_failed")
    gemini, _ = _setup(line, provider="GEMINI", name="Sin clave")
    assert line.api.delete(f"/organizations/{line.org_id}/bot/providers/GEMINI", token=line.owner["token"]).status_code == 204
    assert_problem(_probe(line, gemini, ("user", "hola")), 400, "provider_not_configured")


def test_no_transaction_waits_for_the_provider(line):
    """While the model thinks (1.5 s here), other requests write at once."""
    import threading
    import time
    agent, _ = _setup(line, capabilities=[])
    requests.put(f"{line.netsim_url}/_control/ai", json={"delaySeconds": 1.5}, timeout=5)
    answers = []
    thinking = threading.Thread(target=lambda: answers.append(_probe(line, agent, ("user", "¿Cuánto cuesta el envío?"))))
    thinking.start()
    try:
        started = time.monotonic()
        while not requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["count"]:
            assert time.monotonic() - started < 10
        began = time.monotonic()
        written = line.api.post(f"/organizations/{line.org_id}/tags", {"name": "vip", "color": "#aa3355"},
                                token=line.owner["token"])
        took = time.monotonic() - began
    finally:
        thinking.join(timeout=10)
        requests.put(f"{line.netsim_url}/_control/ai", json={"delaySeconds": 0}, timeout=5)
    assert written.status_code == 201 and took < 1.0, took
    assert answers[0].status_code == 201 and "5 euros" in answers[0].json["data"]["reply"]


def test_the_models_search_with_the_question_reuses_the_prompts(line, monkeypatch):
    """The double, like many models, calls knowledge_search with the customer's words: the passages
    the prompt was built from answer it, with no second search; other words are searched."""
    from appliance.ai_agents import answering
    agent, _ = _setup(line)
    searches = []
    original = answering._search
    monkeypatch.setattr(answering, "_search", lambda *args: searches.append(args[3]) or original(*args))
    answered = _probe(line, agent, ("user", "¿Cuánto cuesta el envío a domicilio?"))
    assert answered.status_code == 201 and "5 euros" in answered.json["data"]["reply"]
    assert searches == ["¿Cuánto cuesta el envío a domicilio?"]
    tool_result = requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"][-1]["body"]["messages"][-1]
    assert tool_result["role"] == "tool" and "5 euros" in tool_result["content"]


def test_an_agent_reads_only_its_documents_and_tags(line):
    """knowledgeTags narrows the library to documents with any of the tags, knowledgeDocIds to the
    documents named; the passages of the others never reach the prompt."""
    base, token = f"/organizations/{line.org_id}/bot", line.owner["token"]
    _, shipping = _setup(line)
    parking = line.api.post(f"{base}/knowledge/notes", {"title": "Parking", "tags": ["local"],
                                                        "content": "Hay parking gratuito detrás de la tienda."},
                            token=token).json["data"]

    def agent(name, **scope):
        made = line.api.post(f"{base}/agents", {"name": name, "provider": "LOCAL", "model": "double-small",
                                                "capabilities": ["knowledge_search"], **scope}, token=token)
        assert made.status_code == 201, made.json
        return made.json["data"]

    asks = {parking["id"]: ("user", "¿Hay parking para clientes?"), shipping["id"]: ("user", "¿Cuánto cuesta el envío?")}

    def read(scoped, question) -> set[str]:
        answered = _probe(line, scoped, question)
        assert answered.status_code == 201, answered.json
        return {passage["documentId"] for passage in answered.json["data"]["knowledge"]}

    for scoped, own, other in ((agent("Local", knowledgeTags=["LOCAL"]), parking, shipping),
                               (agent("Envíos", knowledgeDocIds=[shipping["id"]]), shipping, parking)):
        assert own["id"] in read(scoped, asks[own["id"]])
        assert other["id"] not in read(scoped, asks[other["id"]])
