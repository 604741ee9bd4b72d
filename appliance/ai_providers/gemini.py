"""Google's Gemini generateContent: POST {base}/v1beta/models/{model}:generateContent with the key in
the `x-goog-api-key` header (not the URL, where logs would keep it)."""

from __future__ import annotations

import json
from urllib.parse import quote

from appliance.address_rule import AddressRule
from appliance.ai_providers.base import (BAD_ANSWER, ChatReply, ChatRequest, ProviderError, ToolCall, Transport,
                                         arguments_of, number)

DEFAULT_URL = "https://generativelanguage.googleapis.com"


class GeminiClient:
    provider = "GEMINI"

    def __init__(self, *, base_url: str | None, api_key: str | None, addresses: AddressRule, timeout: float = 30.0):
        self.base_url = (base_url or DEFAULT_URL).rstrip("/").removesuffix("/v1beta")
        self.transport = Transport(self.provider, addresses, timeout, {"x-goog-api-key": api_key or ""})

    def chat(self, request: ChatRequest) -> ChatReply:
        body: dict = {"contents": _contents(request), "generationConfig": {"maxOutputTokens": request.max_tokens}}
        if request.temperature is not None:
            body["generationConfig"]["temperature"] = request.temperature
        if request.system:
            body["systemInstruction"] = {"parts": [{"text": request.system}]}
        if request.tools:
            body["tools"] = [{"functionDeclarations": [{"name": t.name, "description": t.description,
                                                        "parameters": t.parameters} for t in request.tools]}]
        url = f"{self.base_url}/v1beta/models/{quote(request.model, safe='')}:generateContent"
        answer, latency = self.transport.request("POST", url, body)
        try:
            candidate = answer["candidates"][0]
            parts = (candidate.get("content") or {}).get("parts") or []
            text = "".join(p.get("text", "") for p in parts)
            calls = tuple(ToolCall(f"call-{i}", p["functionCall"]["name"], arguments_of(p["functionCall"].get("args") or {}))
                          for i, p in enumerate(parts) if "functionCall" in p)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise ProviderError(BAD_ANSWER, f"{self.provider} answered an unexpected shape ({exc.__class__.__name__}).",
                                provider=self.provider) from None
        usage = answer.get("usageMetadata") or {}
        return ChatReply(text, calls, number(usage.get("promptTokenCount")), number(usage.get("candidatesTokenCount")),
                         latency, str(candidate.get("finishReason") or ""))

    def list_models(self) -> list[str]:
        answer, _ = self.transport.request("GET", f"{self.base_url}/v1beta/models")
        return sorted(str(m["name"]).removeprefix("models/") for m in answer.get("models") or ()
                      if isinstance(m, dict) and m.get("name"))


def _contents(request: ChatRequest) -> list[dict]:
    """Gemini calls the assistant `model`; a tool result is a user turn's `functionResponse`."""
    out: list[dict] = []
    for m in request.messages:
        if m.role == "tool":
            try:
                result = json.loads(m.content)
            except ValueError:
                result = None
            part = {"functionResponse": {"name": m.name or "", "response": result if isinstance(result, dict)
                                         else {"result": m.content}}}
            if out and out[-1]["role"] == "user" and "functionResponse" in out[-1]["parts"][-1]:
                out[-1]["parts"].append(part)
            else:
                out.append({"role": "user", "parts": [part]})
        elif m.tool_calls:
            parts = ([{"text": m.content}] if m.content else []) + [
                {"functionCall": {"name": c.name, "args": c.arguments}} for c in m.tool_calls]
            out.append({"role": "model", "parts": parts})
        else:
            out.append({"role": "model" if m.role == "assistant" else "user", "parts": [{"text": m.content}]})
    return out
