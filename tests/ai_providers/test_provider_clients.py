"""Issue 20, part: the three HTTP clients (OpenAI chat completions for OPENAI, GROQ, MISTRAL and
LOCAL; Anthropic Messages; Gemini generateContent) against the simulator's AI double over
loopback: the shapes each sends, tool calling round trips, token counts, one retry on 429/5xx,
and failures as sentences that never carry the key.

Issue 44: every client keeps the rule on addresses it is given (the double's origin is allowed
here, as an installation allows an Ollama on its own machine), and a failure never quotes what the
server answered."""

import json

import pytest
import requests

from appliance.address_rule import AddressRule
from appliance.ai_providers.base import AUTH, BAD_ANSWER, NOT_ALLOWED, RATE_LIMITED, TIMEOUT, UNAVAILABLE, \
    ChatRequest, Message, ProviderError, Tool
from appliance.ai_providers.clients import PROVIDERS, client_for
from appliance.settings import parse_origins

KEY = "sk-secret-0123456789"
SEARCH = Tool("knowledge_search", "Search the business's documents", {
    "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]})
PASSAGE = "Envíos: el envío a domicilio cuesta 5 euros y es gratis desde 50 euros."
SHAPES = {"OPENAI": "openai", "GROQ": "openai", "MISTRAL": "openai", "LOCAL": "openai", "ANTHROPIC": "anthropic",
          "GEMINI": "gemini"}


def _allowing(*origins: str) -> AddressRule:
    return AddressRule(allowed=parse_origins(",".join(origins)))


def _client(netsim_url, provider, key=KEY, timeout=5.0):
    return client_for(provider, api_key=key, base_url=f"{netsim_url}/ai/{SHAPES[provider]}", timeout=timeout,
                      addresses=_allowing(netsim_url))


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
    client = client_for("LOCAL", api_key=None, base_url="http://127.0.0.1:9/v1", timeout=1,
                        addresses=_allowing("http://127.0.0.1:9"))
    with pytest.raises(ProviderError) as unreachable:
        client.chat(ChatRequest(model="llama3", messages=(Message("user", "hola"),)))
    assert unreachable.value.kind == UNAVAILABLE and "server is running" in str(unreachable.value)
    with pytest.raises(ValueError):
        client_for("LOCAL", api_key=None, base_url=None, addresses=AddressRule())
    with pytest.raises(ValueError):
        client_for("WATSON", api_key="k", base_url=None, addresses=AddressRule())
    with pytest.raises(ProviderError) as missing_key:  # Anthropic's shape needs its key
        _client(netsim_url, "ANTHROPIC", key=None).chat(ChatRequest(model="m", messages=(Message("user", "x"),)))
    assert missing_key.value.kind == AUTH


@pytest.mark.parametrize("provider", ["OPENAI", "ANTHROPIC", "GEMINI"])
def test_what_the_server_said_is_never_passed_on(netsim_url, provider):
    """A refusal's body (the double answers `simulated 404`, `simulated 400`, `Invalid API key`) is
    not in the sentence: an address is a tenant's choice, and whatever answers there must not be
    read back through us. Only the kind and our own sentence."""
    request = ChatRequest(model="double-small", messages=(Message("user", "hola"),))
    for status in (400, 404, 401, 422):
        requests.put(f"{netsim_url}/_control/ai", json={"failNext": [status]}, timeout=5)
        with pytest.raises(ProviderError) as refused:
            _client(netsim_url, provider).chat(request)
        assert "simulated" not in str(refused.value) and provider in str(refused.value), str(refused.value)
    if provider != "OPENAI":  # Anthropic's and Gemini's shapes refuse an invalid key in their own words
        with pytest.raises(ProviderError) as bad_key:
            _client(netsim_url, provider, key="sk-invalid").list_models()
        assert bad_key.value.kind == AUTH and "Invalid API key" not in str(bad_key.value), str(bad_key.value)


@pytest.mark.parametrize("base_url", [
    "http://169.254.169.254", "http://169.254.169.254/latest/meta-data#", "http://10.0.0.7:8080", "http://127.0.0.1:{port}",
    "http://[::1]:{port}", "http://localhost:{port}", "http://[::ffff:127.0.0.1]:{port}", "http://2130706433:{port}",
    "http://0.0.0.0:{port}", "http://[64:ff9b::7f00:1]:{port}"])
def test_a_non_public_address_is_refused_before_anything_is_sent(netsim_url, base_url):
    """The rule without the double's origin: the metadata service, the LAN, loopback by every
    spelling; refused with one sentence, nothing reaches the double (refused, timed out or open,
    a private port says nothing)."""
    port = netsim_url.rsplit(":", 1)[1]
    client = client_for("LOCAL", api_key=KEY, base_url=base_url.format(port=port), addresses=AddressRule(), timeout=2)
    for call in (client.list_models, lambda: client.chat(ChatRequest(model="m", messages=(Message("user", "x"),)))):
        with pytest.raises(ProviderError) as refused:
            call()
        assert refused.value.kind == NOT_ALLOWED and not refused.value.retryable
        assert "not a public address" in str(refused.value), str(refused.value)
    assert _calls(netsim_url) == []


def test_an_allowed_origin_is_reached_and_only_by_its_spelling(netsim_url):
    port = netsim_url.rsplit(":", 1)[1]
    rule = _allowing(f"http://127.0.0.1:{port}")
    assert client_for("LOCAL", api_key=None, base_url=f"{netsim_url}/ai/openai", addresses=rule).list_models()
    with pytest.raises(ProviderError) as other_port:  # the origin, not the host: another port stays refused
        client_for("LOCAL", api_key=None, base_url="http://127.0.0.1:9/ai/openai", addresses=rule).list_models()
    assert other_port.value.kind == NOT_ALLOWED
