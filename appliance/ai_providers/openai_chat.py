"""The OpenAI chat-completions shape: OpenAI, Groq, Mistral, and any OpenAI-compatible server
(Ollama, llama.cpp's server, vLLM, LM Studio) as LOCAL. POST {base}/v1/chat/completions."""

from __future__ import annotations

import json

from appliance.address_rule import AddressRule
from appliance.ai_providers.base import (BAD_ANSWER, ChatReply, ChatRequest, Message, ProviderError, ToolCall,
                                         Transport, arguments_of, number)

DEFAULT_URLS = {"OPENAI": "https://api.openai.com", "GROQ": "https://api.groq.com/openai",
                "MISTRAL": "https://api.mistral.ai"}


class OpenAIChatClient:
    def __init__(self, provider: str, *, base_url: str, api_key: str | None, addresses: AddressRule,
                 timeout: float = 30.0):
        self.provider = provider
        self.base_url = base_url.rstrip("/").removesuffix("/v1")
        self.transport = Transport(provider, addresses, timeout, {"Authorization": f"Bearer {api_key}"} if api_key else {})

    def chat(self, request: ChatRequest) -> ChatReply:
        body = {"model": request.model, "messages": _messages(request), "max_tokens": request.max_tokens}
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.tools:
            body["tools"] = [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                                "parameters": t.parameters}} for t in request.tools]
        answer, latency = self.transport.request("POST", f"{self.base_url}/v1/chat/completions", body)
        try:
            choice = answer["choices"][0]
            message = choice["message"]
            calls = tuple(ToolCall(call["id"], call["function"]["name"], arguments_of(call["function"].get("arguments")))
                          for call in message.get("tool_calls") or ())
            text = message.get("content") or ""
            if not isinstance(text, str):
                raise TypeError("content is not text")
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ProviderError(BAD_ANSWER, f"{self.provider} answered an unexpected shape ({exc.__class__.__name__}).",
                                provider=self.provider) from None
        usage = answer.get("usage") or {}
        return ChatReply(text, calls, number(usage.get("prompt_tokens")), number(usage.get("completion_tokens")),
                         latency, str(choice.get("finish_reason") or ""))

    def list_models(self) -> list[str]:
        answer, _ = self.transport.request("GET", f"{self.base_url}/v1/models")
        return sorted(str(m["id"]) for m in answer.get("data") or () if isinstance(m, dict) and m.get("id"))


def _messages(request: ChatRequest) -> list[dict]:
    out = [{"role": "system", "content": request.system}] if request.system else []
    for m in request.messages:
        out.append(_message(m))
    return out


def _message(m: Message) -> dict:
    if m.role == "tool":
        return {"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content}
    message = {"role": m.role, "content": m.content}
    if m.tool_calls:
        message["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": json.dumps(c.arguments)}} for c in m.tool_calls]
    return message
