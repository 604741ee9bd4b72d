"""The AI step of a turn, in two transactions with the provider's wait between them.

In the turn (the runner's write transaction) `request` picks the agent (the conversation's pinned
one, else the agent whose route tags match the conversation's tags when the intent classifier is
on, else the number's default agent, else the model named in the number's own AI settings) and
stores an AI job in the conversation's bot state (`ai_job`: a token, the agent, the moment). After
the commit the job runs on the AI workers, outside any transaction: `run` reads what it needs in a
short unit, asks the provider (ai_agents/answering.py), and writes the outcome in a second short
unit, only if the job still stands (a person who wrote meanwhile, a hand-off, the bot turned off
or a newer turn drop it, and say so). A provider's failure logs AI_ERROR with the reason in words
and sends the fallback message, never a silent customer.

A crash between the two leaves the job in the state: `resume` gives it to the workers again at
start-up and, as a backstop, when it has waited for 2 minutes (the token makes a second run's
answer land nowhere if the first one wrote).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from sqlmodel import Session, select

from appliance.ai_agents import answering, providers as ai_providers, service as agents_service, spend as ai_spend
from appliance.ai_agents.models import BotAgent
from appliance.ai_providers.base import ProviderError
from appliance.bots import replies, snapshots, states
from appliance.bots.guards import silence_reason
from appliance.conversations.models import Conversation, ConversationTag
from appliance.core import clock
from appliance.core.db import Database, after_commit
from appliance.core.errors import Invalid
from appliance.core.ids import new_id
from appliance.knowledge import search as knowledge_search
from appliance.messages import text as message_text
from appliance.messages.models import Message
from appliance.organizations import plans
from appliance.tags.models import Tag

log = logging.getLogger(__name__)
STALE_AFTER = timedelta(minutes=2)  # longer than a provider's timeout and its one retry


def agent_for(session: Session, conversation: Conversation, config: dict) -> BotAgent | None:
    """Which agent answers: pinned, routed by tags (intent classifier on), the number's default, or
    the model of the number's own AI settings (an agent that lives in the configuration)."""
    serving = [a for a in agents_service.list_agents(session, actor=replies.bot_actor(conversation.organization_id),
                                                     phone_number_pk=conversation.phone_number_pk) if a.enabled]
    if conversation.bot_agent_id:
        pinned = next((a for a in serving if a.id == conversation.bot_agent_id), None)
        if pinned is not None:
            return pinned
    if config["intent_classifier_enabled"]:
        tags = {name.casefold() for name in _tag_names(session, conversation)}
        routed = next((a for a in serving if tags & {t.casefold() for t in a.route_tags}), None)
        if routed is not None:
            return routed
    default = next((a for a in serving if a.is_default), None)
    if default is not None:
        return default
    if config["ai_provider"] and config["ai_model"]:
        return BotAgent(id="", organization_id=conversation.organization_id, name="AI", provider=config["ai_provider"],
                        model=config["ai_model"], system_prompt=config["ai_system_prompt"] or "",
                        temperature=config["ai_temperature"], max_tokens=config["ai_max_tokens"],
                        capabilities=["knowledge_search", "handoff"], knowledge_tags=list(config["knowledge_tags"]),
                        created_at=clock.now(), updated_at=clock.now())
    return None


def _tag_names(session: Session, conversation: Conversation) -> list[str]:
    return list(session.exec(select(Tag.name).join(ConversationTag, ConversationTag.tag_id == Tag.id)
                             .where(ConversationTag.conversation_id == conversation.id)).all())


def request(turn) -> bool:
    """In the turn: choose the agent and leave the job for the workers. False when no agent can
    answer (the fallback then does)."""
    session, conversation = turn.session, turn.conversation
    if not plans.has_capability(session, conversation.organization_id, "bot.ai"):
        turn.log("SKIPPED", reason="plan_capability_missing", capability="bot.ai")
        return False
    capped = ai_spend.cap_reached(session, conversation.organization_id)
    if capped is not None:
        turn.log("SKIPPED", reason="ai_spend_cap_reached", cap=capped.cap_reached,
                 spentUsd=round(capped.today_usd if capped.cap_reached == "daily" else capped.month_usd, 4),
                 limitUsd=capped.daily_cap_usd if capped.cap_reached == "daily" else capped.monthly_cap_usd)
        return False
    agent = agent_for(session, conversation, turn.config)
    if agent is None:
        turn.log("SKIPPED", reason="no_agent", messages=len(turn.messages))
        return False
    token = new_id()
    turn.state.ai_job = {"token": token, "agentId": agent.id or None, "askedAt": turn.now.isoformat(), "runs": 0}
    workers.submit_after_commit(session, conversation.id, token)
    return True


def run(database: Database, conversation_id: str, token: str) -> None:
    """The job: read, ask the provider (no transaction open), write the outcome."""
    with database.unit_of_work(write=False) as session:
        state = states.read(session, conversation_id)
        job = (state.ai_job if state is not None else None) or {}
        if job.get("token") != token:
            return  # done, dropped or replaced
        conversation = session.get(Conversation, conversation_id)
        config = snapshots.config_of(session, state.phone_number_pk)
        agent = _job_agent(session, conversation, config, job)
        history = _history(session, conversation_id)
        if agent is not None and agent.id:
            session.expunge(agent)  # read after this unit ends
    outcome = error = None
    if agent is None:
        error = "no_agent", "The agent was deleted or turned off."
    else:
        try:
            outcome = answering.answer(database, actor=replies.bot_actor(conversation.organization_id), agent=agent,
                                       messages=history, top_k=config["knowledge_top_k"],
                                       min_similarity=config["knowledge_min_similarity"],
                                       protected_values=config["protected_values"])
        except ProviderError as exc:
            error = exc.kind, str(exc)
            _note(database, conversation.organization_id, agent.provider, exc)
        except Invalid as exc:  # provider_not_configured
            error = exc.code, str(exc)
        except Exception:
            log.exception("the AI step failed for conversation %s", conversation_id)
            error = "internal_error", "An internal error (logged)."
    _write(database, conversation_id, token, agent, history, outcome, error)


def _job_agent(session: Session, conversation: Conversation, config: dict, job: dict) -> BotAgent | None:
    if job.get("agentId"):
        agent = session.get(BotAgent, job["agentId"])
        return agent if agent is not None and agent.enabled else None
    return agent_for(session, conversation, config)


def _history(session: Session, conversation_id: str) -> list[tuple[str, str]]:
    rows = session.exec(select(Message.direction, Message.type, Message.payload)
                        .where(Message.conversation_id == conversation_id, Message.hidden.is_(False))
                        .order_by(Message.id.desc()).limit(answering.HISTORY)).all()
    history = [("user" if direction == "in" else "assistant", message_text.plain_text(kind, payload) or "")
               for direction, kind, payload in reversed(rows)]
    return [(role, text) for role, text in history if text.strip()]


def _note(database: Database, organization_id: str, provider: str, error: ProviderError) -> None:
    with database.unit_of_work(write=True) as session:
        ai_providers.note_outcome(session, organization_id, provider, error)


def _write(database: Database, conversation_id: str, token: str, agent: BotAgent | None,
           history: list[tuple[str, str]], outcome: answering.Answer | None, error: tuple[str, str] | None) -> None:
    from appliance.bots import turns  # turns imports this module for its pipeline step
    with database.unit_of_work(write=True) as session:
        now = clock.now()
        if outcome is not None:  # the provider was paid whether or not the reply is still wanted
            ai_spend.record(session, agent.organization_id, tokens_in=outcome.tokens_in, tokens_out=outcome.tokens_out,
                            cost_usd=outcome.cost_usd)
        state = states.read(session, conversation_id)
        if state is None or (state.ai_job or {}).get("token") != token:
            return
        state.ai_job = None
        conversation = session.get(Conversation, conversation_id)
        config = snapshots.config_of(session, state.phone_number_pk)
        turn = turns.new_turn(session, state, conversation, config, now)
        reason = silence_reason(config, conversation, turn.contact)
        if reason is not None:
            turn.log("SUPERSEDED", reason=reason, ai=True)
        elif error is not None:
            turn.log("AI_ERROR", reason=error[0], detail=error[1][:500], agentId=agent.id if agent else None)
            turns.fallback(turn)
            turns.finish(turn)
        else:
            _reply(session, turn, agent, history, outcome)
            turns.finish(turn)
        states.write(session, state, now)


def _reply(session: Session, turn, agent: BotAgent, history: list[tuple[str, str]], outcome: answering.Answer) -> None:
    turn.say(outcome.text)
    question = next((text for role, text in reversed(history) if role == "user"), "")
    if question:
        knowledge_search.record_question(session, organization_id=turn.conversation.organization_id, agent_id=agent.id or None,
                                query=question, results=outcome.knowledge)
    turn.log("AI_REPLY", agentId=agent.id or None, agent=agent.name, provider=agent.provider, model=agent.model,
             tokensIn=outcome.tokens_in, tokensOut=outcome.tokens_out, costUsd=round(outcome.cost_usd, 6),
             latencyMs=outcome.latency_ms, handoff=any(a["type"] == "handoff" for a in outcome.actions),
             passages=[{"documentId": p.document_id, "title": p.title,
                                                      "similarity": p.similarity} for p in outcome.knowledge[:5]])
    for action in outcome.actions:
        if action["type"] == "handoff" and "handoff" in agent.capabilities:
            turn.hand_off("ai", detail=action.get("reason", "")[:200])
        elif action["type"] == "create_task" and "create_task" in agent.capabilities:
            turn.create_task(action.get("title") or "Follow up", action.get("detail") or "")
        elif action["type"] == "send_image" and "send_images" in agent.capabilities:
            turn.show_by_label(action.get("label") or "")


def resume(database: Database, *, older_than: timedelta | None) -> int:
    """Give the workers again the jobs a crash left (all at start-up; those older than `older_than`
    otherwise). Answers how many."""
    with database.unit_of_work(write=False) as session:
        rows = session.exec(select(states.TABLE.c.conversation_id, states.TABLE.c.ai_job)
                            .where(states.TABLE.c.ai_job.is_not(None))).all()
    now = clock.now()
    stuck = [(conversation_id, job["token"]) for conversation_id, job in rows
             if job and (older_than is None or datetime.fromisoformat(job["askedAt"]) < now - older_than)]
    for conversation_id, token in stuck:
        workers.submit(conversation_id, token)
    return len(stuck)


class AIWorkers:
    """Threads that wait on providers, so neither the bot's runner nor the queue's workers do. In
    the server they are started (`APPLIANCE_AI_WORKERS`); elsewhere (tests, the CLI) a job runs in
    the thread that committed it, right after the commit."""

    def __init__(self):
        self._pool: ThreadPoolExecutor | None = None
        self._database: Database | None = None
        self._lock = threading.Lock()

    def start(self, database: Database, threads: int) -> None:
        self._database, self._pool = database, ThreadPoolExecutor(max_workers=threads, thread_name_prefix="ai")

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def submit(self, conversation_id: str, token: str) -> None:
        from appliance.core import runtime
        database = self._database or runtime.get().db
        if self._pool is None:
            run(database, conversation_id, token)
        else:
            self._pool.submit(_guarded, database, conversation_id, token)

    def submit_after_commit(self, session: Session, conversation_id: str, token: str) -> None:
        after_commit(session, lambda: self.submit(conversation_id, token))


def _guarded(database: Database, conversation_id: str, token: str) -> None:
    try:
        run(database, conversation_id, token)
    except Exception:  # a worker thread must not die silently: the sweep retries the job
        log.exception("AI job of conversation %s failed", conversation_id)


workers = AIWorkers()
