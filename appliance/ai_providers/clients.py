"""The six provider identifiers and the client of each."""

from __future__ import annotations

from appliance.address_rule import AddressRule
from appliance.ai_providers.anthropic import AnthropicClient
from appliance.ai_providers.base import ChatClient
from appliance.ai_providers.gemini import GeminiClient
from appliance.ai_providers.openai_chat import DEFAULT_URLS, OpenAIChatClient

PROVIDERS = ("OPENAI", "ANTHROPIC", "GEMINI", "GROQ", "MISTRAL", "LOCAL")


def client_for(provider: str, *, api_key: str | None, base_url: str | None, addresses: AddressRule,
               timeout: float = 30.0) -> ChatClient:
    """LOCAL needs a base URL (an OpenAI-compatible server); the others default to the vendor's.
    `addresses`: the rule every call keeps (installation.addresses.rule() in the appliance)."""
    if provider == "ANTHROPIC":
        return AnthropicClient(base_url=base_url, api_key=api_key, addresses=addresses, timeout=timeout)
    if provider == "GEMINI":
        return GeminiClient(base_url=base_url, api_key=api_key, addresses=addresses, timeout=timeout)
    if provider in DEFAULT_URLS or provider == "LOCAL":
        url = base_url or DEFAULT_URLS.get(provider)
        if not url:
            raise ValueError("LOCAL needs the address of an OpenAI-compatible server")
        return OpenAIChatClient(provider, base_url=url, api_key=api_key, addresses=addresses, timeout=timeout)
    raise ValueError(f"unknown provider {provider!r}")
