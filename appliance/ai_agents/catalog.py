"""The shipped catalogs (data/ai_models.json): models with their context size and prices, and the
capabilities an agent may be given. Read once."""

from __future__ import annotations

import json
from functools import cache

from appliance.ai_providers.clients import PROVIDERS
from appliance.core.errors import Invalid
from appliance.paths import SHIPPED_DATA_DIR

LOCAL = "LOCAL"


@cache
def _data() -> dict:
    return json.loads((SHIPPED_DATA_DIR / "ai_models.json").read_text(encoding="utf-8"))


def models() -> list[dict]:
    return _data()["models"]


def capabilities(language: str = "en") -> list[dict]:
    return [{"key": c["key"], "name": c["name"].get(language, c["name"]["en"]),
             "description": c["description"].get(language, c["description"]["en"])} for c in _data()["capabilities"]]


def capability_keys() -> tuple[str, ...]:
    return tuple(c["key"] for c in _data()["capabilities"])


def price_of(provider: str, model: str) -> tuple[float, float]:
    """USD per million tokens (input, output); 0 for LOCAL and unknown models."""
    found = next((m for m in models() if m["provider"] == provider and m["model"] == model), None)
    return (found["priceInPer1M"], found["priceOutPer1M"]) if found else (0.0, 0.0)


def check_provider(provider: str, *, field: str = "provider") -> str:
    """400 unknown_provider for a name outside the six (in a body or in a path alike: a value the
    caller got wrong, not a page that is missing)."""
    if provider not in PROVIDERS:
        raise Invalid(f"Unknown provider; use one of {', '.join(PROVIDERS)}.", code="unknown_provider",
                      errors={field: [f"One of {', '.join(PROVIDERS)}."]})
    return provider


def check_provider_model(provider: str, model: str, *, field_prefix: str = "") -> None:
    """400 unknown_provider or unknown_model; LOCAL takes any model its server has."""
    check_provider(provider, field=f"{field_prefix}provider")
    if provider == LOCAL:
        return
    offered = [m["model"] for m in models() if m["provider"] == provider]
    if model not in offered:
        raise Invalid(f"{provider} has no model {model!r} here; use one of {', '.join(offered)}.", code="unknown_model",
                      errors={f"{field_prefix}model": [f"One of {', '.join(offered)}."]})


def check_capabilities(keys: list[str]) -> None:
    unknown = [key for key in keys if key not in capability_keys()]
    if unknown:
        raise Invalid(f"Unknown capabilities: {', '.join(unknown)}.", code="unknown_capability",
                      errors={"capabilities": [f"One of {', '.join(capability_keys())}."]})


def cost_usd(provider: str, model: str, tokens_in: int, tokens_out: int) -> float:
    price_in, price_out = price_of(provider, model)
    return (tokens_in * price_in + tokens_out * price_out) / 1_000_000
