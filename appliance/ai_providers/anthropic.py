"""Anthropic's Messages API: POST {base}/v1/messages, `x-api-key`, `anthropic-version`."""

from __future__ import annotations

from appliance.address_rule import AddressRule
from appliance.ai_providers.base import (BAD_ANSWER, ChatReply, ChatRequest, ProviderError, ToolCall, Transport,
                                         arguments_of, number)

DEFAULT_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


class AnthropicClient:
    provider = "ANTHROPIC"

    def __init__(self, *, base_url: str | None, api_key: str | None, addresses: AddressRule, timeout: float = 30.0):
        self.base_url = (base_url or DEFAULT_URL).rstrip("/").removesuffix("/v1")
        self.transport = Transport(self.provider, addresses, timeout,
                                   {"x-api-key": api_key or "", "anthropic-version": API_VERSION})

    def chat(self, request: ChatRequest) -> ChatReply:
        body = {"model": request.model, "max_tokens": request.max_tokens, "messages": _messages(request)}
        if request.system:
            body["system"] = request.system
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.tools:
            body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters}
                             for t in request.tools]
        answer, latency = self.transport.request("POST", f"{self.base_url}/v1/messages", body)
        try:
            blocks = answer["content"]
            text = "".join(b["text"] for b in blocks if b.get("type") == "text")
            calls = tuple(ToolCall(b["id"], b["name"], arguments_of(b.get("input"))) for b in blocks
                          if b.get("type") == "tool_use")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ProviderError(BAD_ANSWER, f"{self.provider} answered an unexpected shape ({exc.__class__.__name__}).",
                                provider=self.provider) from None
        usage = answer.get("usage") or {}
        return ChatReply(text, calls, number(usage.get("input_tokens")), number(usage.get("output_tokens")), latency,
                         str(answer.get("stop_reason") or ""))

    def list_models(self) -> list[str]:
        answer, _ = self.transport.request("GET", f"{self.base_url}/v1/models")
        return sorted(str(m["id"]) for m in answer.get("data") or () if isinstance(m, dict) and m.get("id"))


def _messages(request: ChatRequest) -> list[dict]:
    """Tool results ride in the next user turn as `tool_result` blocks; consecutive ones join."""
    out: list[dict] = []
    for m in request.messages:
        if m.role == "tool":
            block = {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content}
            if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                out[-1]["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        elif m.tool_calls:
            blocks = ([{"type": "text", "text": m.content}] if m.content else []) + [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in m.tool_calls]
            out.append({"role": "assistant", "content": blocks})
        else:
            out.append({"role": m.role, "content": m.content})
    return out
