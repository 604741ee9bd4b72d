"""Issue 20, part: the three HTTP clients (OpenAI chat completions for OPENAI, GROQ, MISTRAL and
LOCAL; Anthropic Messages; Gemini generateContent) against the simulator's AI double over
loopback: the shapes each sends, tool calling round trips, token counts, one retry on 429/5xx,
and failures as sentences that never carry the key."""

import json

import pytest
import requests

from appliance.ai_providers.base import AUTH, BAD_ANSWER, RATE_LIMITED, TIMEOUT, UNAVAILABLE, ChatRequest, Message, \
    ProviderError, Tool
from appliance.ai_providers.clients import PROVIDERS, client_for

KEY = "sk-secret-0123456789"
SEARCH = Tool("knowledge_search", "Search the business's documents", {
    "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]})
PASSAGE = "Envíos: el envío a domicilio cuesta 5 euros y es gratis desde 50 euros."
SHAPES = {"OPENAI": "openai", "GROQ": "openai", "MISTRAL": "openai", "LOCAL": "openai", "ANTHROPIC": "anthropic",
          "GEMINI": "gemini"}


def _client(netsim_url, provider, key=KEY, timeout=5.0):
    return client_for(provider, api_key=key, base_url=f"{netsim_url}/ai/{SHAPES[provider]}", timeout=timeout)


def _calls(netsim_url):
    return requests.get(f"{netsim_url}/_control/ai/calls", timeout=5).json()["data"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_provider_answers_from_its_context_and_counts_tokens(netsim_url, provider):
    client = _client(netsim_url, provider)
    reply = client.chat(ChatRequest(model="double-small", system=f"Eres el asistente. Datos: {PASSAGE}",
                                    messages=(Message("user", "¿Cuánto cuesta el envío a domicilio?"),),
                                    temperature=0.2, max_tokens=300))
    assert "5 euros" in reply.text and reply.tool_calls == ()
    assert reply.tokens_in > 10 and reply.tokens_out > 3 and reply.latency_ms >= 0
    [call] = _calls(netsim_url)
    sent = call["body"]
    if SHAPES[provider] == "openai":
        assert sent["messages"][0] == {"role": "system", "content": f"Eres el asistente. Datos: {PASSAGE}"}
        assert sent["max_tokens"] == 300 and sent["temperature"] == 0.2
        assert call["headers"]["Authorization"] == f"Bearer {KEY}"
    elif provider == "ANTHROPIC":
        assert sent["system"].startswith("Eres") and sent["max_tokens"] == 300
        assert call["headers"]["X-Api-Key"] == KEY and call["headers"]["Anthropic-Version"] == "2023-06-01"
    else:
        assert sent["systemInstruction"]["parts"][0]["text"].startswith("Eres")
        assert sent["generationConfig"] == {"maxOutputTokens": 300, "temperature": 0.2}
        assert call["headers"]["X-Goog-Api-Key"] == KEY and KEY not in call["path"]
    assert client.list_models() == ["double-large", "double-small"]


@pytest.mark.parametrize("provider", ["OPENAI", "ANTHROPIC", "GEMINI"])
def test_a_tool_call_round_trip(netsim_url, provider):
    client = _client(netsim_url, provider)
    question = Message("user", "¿El envío es gratis?")
    first = client.chat(ChatRequest(model="double-small", messages=(question,), tools=(SEARCH,)))
    [call] = first.tool_calls
    assert call.name == "knowledge_search" and call.arguments == {"query": "¿El envío es gratis?"}
    second = client.chat(ChatRequest(model="double-small", tools=(SEARCH,), messages=(
        question, Message("assistant", "", tool_calls=(call,)),
        Message("tool", json.dumps({"passages": [PASSAGE]}), tool_call_id=call.id, name=call.name))))
    assert "gratis desde 50 euros" in second.text and second.tool_calls == ()


def test_one_retry_on_429_and_5xx_then_a_sentence(netsim_url):
    client = _client(netsim_url, "OPENAI")
    request = ChatRequest(model="double-small", messages=(Message("user", "hola"),))
    requests.put(f"{netsim_url}/_control/ai", json={"failNext": [429]}, timeout=5)
    assert client.chat(request).text  # the retry answered
    requests.put(f"{netsim_url}/_control/ai", json={"failNext": [503, 503]}, timeout=5)
    with pytest.raises(ProviderError) as failed:
        client.chat(request)
    assert failed.value.kind == UNAVAILABLE and failed.value.retryable and "try again later" in str(failed.value).lower()
    requests.put(f"{netsim_url}/_control/ai", json={"failNext": [429, 429]}, timeout=5)
    with pytest.raises(ProviderError) as limited:
        client.chat(request)
    assert limited.value.kind == RATE_LIMITED and "out of credit" in str(limited.value)
    assert len(_calls(netsim_url)) == 6  # each request tried twice, never more


@pytest.mark.parametrize("provider", ["OPENAI", "ANTHROPIC", "GEMINI"])
def test_a_refused_key_garbage_and_a_timeout_are_sentences_without_the_key(netsim_url, provider):
    request = ChatRequest(model="double-small", messages=(Message("user", "hola"),))
    requests.put(f"{netsim_url}/_control/ai", json={"failNext": [401]}, timeout=5)
    with pytest.raises(ProviderError) as refused:
        _client(netsim_url, provider).chat(request)
    assert refused.value.kind == AUTH and "Paste a valid key" in str(refused.value) and KEY not in str(refused.value)
    requests.put(f"{netsim_url}/_control/ai", json={"failNext": ["garbage"]}, timeout=5)
    with pytest.raises(ProviderError) as garbage:
        _client(netsim_url, provider).chat(request)
    assert garbage.value.kind == BAD_ANSWER
    requests.put(f"{netsim_url}/_control/ai", json={"delaySeconds": 1.5}, timeout=5)
    with pytest.raises(ProviderError) as slow:
        _client(netsim_url, provider, timeout=0.5).chat(request)
    assert slow.value.kind == TIMEOUT and "did not answer within" in str(slow.value)
    requests.put(f"{netsim_url}/_control/ai", json={"delaySeconds": 0}, timeout=5)


def test_an_unreachable_server_and_unknown_providers(netsim_url):
    client = client_for("LOCAL", api_key=None, base_url="http://127.0.0.1:9/v1", timeout=1)
    with pytest.raises(ProviderError) as unreachable:
        client.chat(ChatRequest(model="llama3", messages=(Message("user", "hola"),)))
    assert unreachable.value.kind == UNAVAILABLE and "server is running" in str(unreachable.value)
    with pytest.raises(ValueError):
        client_for("LOCAL", api_key=None, base_url=None)
    with pytest.raises(ValueError):
        client_for("WATSON", api_key="k", base_url=None)
    with pytest.raises(ProviderError) as missing_key:  # Anthropic's shape needs its key
        _client(netsim_url, "ANTHROPIC", key=None).chat(ChatRequest(model="m", messages=(Message("user", "x"),)))
    assert missing_key.value.kind == AUTH
