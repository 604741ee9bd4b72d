"""The AI providers' double over HTTP (ai_double.py answers): three chat shapes (OpenAI's chat
completions, Anthropic's messages, Gemini's generateContent) and their model lists, and its own
control (`/_control/ai`: delay and failures; `/_control/ai/calls`: what it was asked)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from appliance.netsim import ai_double
from appliance.netsim.calls import json_body, simulator
from appliance.netsim.network import NetworkError

ai_providers = Blueprint("ai_providers", __name__)


def _answer(answer):
    status, body = answer
    return (body, status) if isinstance(body, str) else (jsonify(body), status)


def _call(shape_answer, key_header: str | None):
    body = request.get_json(silent=True)
    headers = dict(request.headers)
    refused = (ai_double.key_refused(headers, key_header) if key_header else None) or \
        ai_double.record_and_fault(simulator().ai, request.path, body, headers)
    return _answer(refused or shape_answer(body if isinstance(body, dict) else {}))


@ai_providers.post("/ai/openai/v1/chat/completions")
def ai_openai_chat():
    return _call(ai_double.openai_answer, None)  # LOCAL servers often take no key


@ai_providers.post("/ai/anthropic/v1/messages")
def ai_anthropic_messages():
    return _call(ai_double.anthropic_answer, "x-api-key")


@ai_providers.post("/ai/gemini/v1beta/models/<path:model>:generateContent")
def ai_gemini_generate(model):
    return _call(ai_double.gemini_answer, "x-goog-api-key")


@ai_providers.get("/ai/<any(openai, anthropic):shape>/v1/models")
@ai_providers.get("/ai/<any(gemini):shape>/v1beta/models")
def ai_models(shape):
    key_header = {"anthropic": "x-api-key", "gemini": "x-goog-api-key"}.get(shape)  # as their chat routes
    refused = ai_double.key_refused(dict(request.headers), key_header) if key_header else None
    return _answer(refused) if refused else jsonify(ai_double.model_list(shape))


@ai_providers.put("/_control/ai")
def control_ai():
    ai = simulator().ai
    try:
        ai.update(json_body())
    except ValueError as exc:
        raise NetworkError(100, str(exc)) from None
    return jsonify({"delaySeconds": ai.delay_seconds, "failNext": ai.fail_next})


@ai_providers.get("/_control/ai/calls")
def control_ai_calls():
    ai = simulator().ai
    with ai.lock:
        return jsonify({"data": list(ai.calls), "count": len(ai.calls)})
