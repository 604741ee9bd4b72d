"""The intent classifier: a customer's message sorted into one of the route tags of the agents
serving the number, by a model (the number's default agent's), so that the agent for that topic
answers. Asked outside any transaction, at temperature 0, for one word; an answer that names no
topic, or a failing provider, leaves the choice to the default agent."""

from __future__ import annotations

from dataclasses import dataclass

from appliance.ai_agents import catalog, providers
from appliance.ai_agents.models import BotAgent
from appliance.ai_providers.base import ChatRequest, Message, ProviderError
from appliance.core import text as core_text
from appliance.core.db import Database

NONE = "none"
INSTRUCTIONS = ("You sort the messages customers send a business on WhatsApp by topic. Answer with exactly one "
                "of: {topics} | none. Nothing else.")


@dataclass(frozen=True)
class Intent:
    topic: str | None  # one of the topics as written, or None
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    error: str | None = None  # the provider's failure kind


def classify(database: Database, *, organization_id: str, by: BotAgent, question: str, topics: list[str]) -> Intent:
    with database.unit_of_work(write=False) as session:
        client = providers.client_of(session, organization_id, by.provider)
    try:
        reply = client.chat(ChatRequest(model=by.model, system=INSTRUCTIONS.format(topics=" | ".join(topics)),
                                        messages=(Message("user", question[:2000]),), temperature=0.0, max_tokens=16))
    except ProviderError as exc:
        return Intent(None, error=exc.kind)
    return Intent(topic_in(reply.text, topics), reply.tokens_in, reply.tokens_out,
                  catalog.cost_usd(by.provider, by.model, reply.tokens_in, reply.tokens_out))


def topic_in(answer: str, topics: list[str]) -> str | None:
    """The topic a model's answer names (case, accents and punctuation aside), or None."""
    said = core_text.fold(answer or "").strip(" .!\"'`*")
    if not said or said == NONE:
        return None
    exact = next((topic for topic in topics if core_text.fold(topic) == said), None)
    return exact or next((topic for topic in sorted(topics, key=len, reverse=True) if core_text.fold(topic) in said), None)
