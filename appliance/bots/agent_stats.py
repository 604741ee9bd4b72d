"""GET /bot/agents/stats: what each AI agent did in the last days, read from the activity log
(AI_REPLY carries the agent, tokens, cost and whether it handed off; AI_ERROR the agent that
failed). Lives with the bots because the log is theirs; the agents below know nothing of it.

A reply of the number's own AI settings (no agent record) is counted under `agentId: null`.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Integer, case, cast, distinct, func
from sqlmodel import Session, select

from appliance.ai_agents import service as agents_service
from appliance.bots.models import BotActivity
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.phone_numbers import service as phone_numbers_service

EMPTY = {"conversations": 0, "replies": 0, "handoffs": 0, "errors": 0, "tokens_in": 0, "tokens_out": 0, "cost_usd": 0.0}


def agent_stats(session: Session, *, actor: OrgActor, days: int) -> list[dict]:
    """One row per agent the actor reads (those without activity too), busiest first; a key or
    member kept to some numbers counts those numbers' conversations only."""
    since = clock.now() - timedelta(days=days)
    agent_id = BotActivity.detail["agentId"].as_string()
    scope = phone_numbers_service.scope_of(session, actor)

    def scoped(query):
        query = query.where(BotActivity.organization_id == actor.organization_id, BotActivity.created_at >= since)
        return scope.only_numbers(query, BotActivity.phone_number_pk).group_by(agent_id)

    replies = session.exec(scoped(select(
        agent_id, func.count(), func.count(distinct(BotActivity.conversation_id)),
        func.sum(case((BotActivity.detail["handoff"].as_boolean(), 1), else_=0)),
        func.sum(cast(BotActivity.detail["tokensIn"].as_integer(), Integer)),
        func.sum(cast(BotActivity.detail["tokensOut"].as_integer(), Integer)),
        func.sum(BotActivity.detail["costUsd"].as_float())).where(BotActivity.kind == "AI_REPLY"))).all()
    errors = dict(session.exec(scoped(select(agent_id, func.count()).where(BotActivity.kind == "AI_ERROR"))).all())
    counted = {key: {"conversations": conversations, "replies": count, "handoffs": handoffs or 0, "errors": 0,
                     "tokens_in": tokens_in or 0, "tokens_out": tokens_out or 0, "cost_usd": round(cost or 0.0, 6)}
               for key, count, conversations, handoffs, tokens_in, tokens_out, cost in replies}
    for key, count in errors.items():
        counted.setdefault(key, dict(EMPTY))["errors"] = count
    rows = [{"agent_id": agent.id, "name": agent.name, "provider": agent.provider, "model": agent.model,
             **counted.pop(agent.id, EMPTY)} for agent in agents_service.list_agents(session, actor=actor)]
    if None in counted:
        rows.append({"agent_id": None, "name": None, "provider": None, "model": None, **counted.pop(None)})
    return sorted(rows, key=lambda row: (-row["replies"], row["name"] or ""))
