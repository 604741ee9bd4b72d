"""The configurador: an agent's model proposes system prompts for a goal the owner writes in
words ("answer questions about prices and book visits"), knowing the business's facts, what the
agent may do and its prompt today.

The model is asked for JSON (`{"proposals": [{"systemPrompt", "why"}]}`), read tolerantly (code
fences, text around the object); a model that answers in free text gets its text back as the one
proposal, with a `why` saying so, rather than an error: the owner can still use it. As with the
probador, no transaction is open while the model thinks, and the call's cost counts toward the
organization's AI spend.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from appliance.ai_agents import answering, catalog, providers, service as agents_service, spend
from appliance.ai_providers.base import BAD_ANSWER, ChatRequest, Message, ProviderError
from appliance.core import outside_calls
from appliance.core.actor import OrgActor
from appliance.core.db import Database
from appliance.organizations.models import Organization

MAX_PROPOSALS = 3
FREE_TEXT_WHY = "The model did not answer in the requested shape; this is its text as written."
INSTRUCTIONS = """You write the system prompt of a WhatsApp assistant for a small business.
Write {count} different system prompts that reach the owner's goal, each complete and ready to use
(who the assistant is, what it answers, its tone, what it must never do, when to hand off to a person).
Write them in the language the owner's goal is written in.
Answer only with JSON, no other text: {{"proposals": [{{"systemPrompt": "...", "why": "one sentence"}}]}}"""


@dataclass
class Proposals:
    proposals: list[dict] = field(default_factory=list)  # {system_prompt, why}
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0


def propose(database: Database, *, actor: OrgActor, agent_id: str, goal: str) -> Proposals:
    """409 ai_spend_cap_reached; 400 provider_not_configured; 502 ai_provider_failed."""
    with database.unit_of_work(write=False) as session:
        agent = agents_service.access_agent(session, actor=actor, agent_id=agent_id)
        spend.check_within_caps(session, actor.organization_id)
        client = providers.client_of(session, actor.organization_id, agent.provider)
        organization = session.get(Organization, actor.organization_id)
        facts = answering.business_facts(organization)
        abilities = ", ".join(c["name"] for c in catalog.capabilities() if c["key"] in agent.capabilities) or "none"
        current = agent.system_prompt.strip() or "(none yet)"
        provider, model, max_tokens = agent.provider, agent.model, max(agent.max_tokens, 1500)
    system = "\n\n".join((INSTRUCTIONS.format(count=MAX_PROPOSALS), facts, f"What the assistant can do: {abilities}.",
                          f"Its system prompt today:\n{current}"))
    try:
        reply = outside_calls.call(actor.organization_id, client.chat, ChatRequest(
            model=model, system=system, messages=(Message("user", goal),), temperature=0.7, max_tokens=max_tokens))
    except ProviderError as exc:
        raise answering.provider_failed(exc) from None
    result = Proposals(read_proposals(reply.text), reply.tokens_in, reply.tokens_out,
                       catalog.cost_usd(provider, model, reply.tokens_in, reply.tokens_out))
    with database.unit_of_work(write=True) as session:
        spend.record(session, actor.organization_id, tokens_in=result.tokens_in, tokens_out=result.tokens_out,
                     cost_usd=result.cost_usd)
    if not result.proposals:
        raise answering.provider_failed(ProviderError(BAD_ANSWER, f"{provider} answered nothing usable; try again or "
                                                      "another model.", provider=provider))
    return result


def read_proposals(text: str) -> list[dict]:
    """The proposals in a model's answer: its JSON when there is any, else its text as one."""
    text = (text or "").strip()
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        try:
            found = json.loads(text[start:end + 1]).get("proposals")
        except (ValueError, AttributeError):
            found = None
        if isinstance(found, list):
            proposals = [{"system_prompt": str(p["systemPrompt"]).strip()[:20_000], "why": str(p.get("why") or "")[:1000]}
                         for p in found if isinstance(p, dict) and str(p.get("systemPrompt") or "").strip()]
            if proposals:
                return proposals[:MAX_PROPOSALS]
    return [{"system_prompt": text[:20_000], "why": FREE_TEXT_WHY}] if text else []
