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
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, select

from appliance.ai_agents import (answering, intents, providers as ai_providers, service as agents_service,
                                 spend as ai_spend)
from appliance.ai_agents.models import BotAgent
from appliance.ai_providers.base import ProviderError
from appliance.bots import activity, decision, replies, snapshots, states
from appliance.bots.guards import silence_reason
from appliance.contacts.models import Contact
from appliance.conversations import service as conversations_service
from appliance.conversations.models import Conversation, ConversationTag
from appliance.conversations.recording import window_open
from appliance.core import clock, text as bot_text
from appliance.core.db import Database, after_commit
from appliance.core.rows import driver_connection, from_json, read_row
from appliance.core.errors import Invalid
from appliance.core.ids import new_id
from appliance.knowledge import search as knowledge_search
from appliance.messages import text as message_text
from appliance.organizations import plans
from appliance.tags import service as tags_service
from appliance.tags.models import Tag

log = logging.getLogger(__name__)
STALE_AFTER = timedelta(minutes=2)  # longer than a provider's timeout and its one retry
REPLY, FOLLOW_UP = "reply", "follow_up"  # what a job is for: answering the customer, or nudging a silent one
NUDGE = ("The customer has not answered your last message for a while. Write one short, friendly message (one "
         "or two sentences) in the customer's language inviting them to go on, without repeating what you said.")
SILENCE_NOTE = "[No answer from the customer for {minutes} minutes]"


def _serving(session: Session, conversation: Conversation) -> list[BotAgent]:
    return [a for a in agents_service.list_agents(session, actor=replies.bot_actor(conversation.organization_id),
                                                  phone_number_pk=conversation.phone_number_pk) if a.enabled]


@dataclass(frozen=True)
class Route:
    agent: BotAgent | None
    classify: bool  # the classifier is on and nothing pinned or tagged chose: the job sorts the words first


def route(session: Session, conversation: Conversation, config: dict) -> Route:
    """Which agent answers: pinned, routed by the conversation's tags (intent classifier on), the
    number's default, or the model of the number's own AI settings (an agent that lives in the
    configuration). When the last two answer with the classifier on and some serving agent has
    route tags, the job classifies the customer's message first (`_classified`), and its topic
    becomes the conversation's tag."""
    serving = _serving(session, conversation)
    if conversation.bot_agent_id:
        pinned = next((a for a in serving if a.id == conversation.bot_agent_id), None)
        if pinned is not None:
            return Route(pinned, classify=False)
    classifier = config["intent_classifier_enabled"]
    if classifier:
        tags = {name.casefold() for name in _tag_names(session, conversation)}
        routed = next((a for a in serving if tags & {t.casefold() for t in a.route_tags}), None)
        if routed is not None:
            return Route(routed, classify=False)
    classify = classifier and any(a.route_tags for a in serving)
    default = next((a for a in serving if a.is_default), None)
    if default is not None:
        return Route(default, classify)
    if config["ai_provider"] and config["ai_model"]:
        return Route(BotAgent(id="", organization_id=conversation.organization_id, name="AI",
                              provider=config["ai_provider"], model=config["ai_model"],
                              system_prompt=config["ai_system_prompt"] or "", temperature=config["ai_temperature"],
                              max_tokens=config["ai_max_tokens"], capabilities=["knowledge_search", "handoff"],
                              knowledge_tags=list(config["knowledge_tags"]), created_at=clock.now(),
                              updated_at=clock.now()), classify)
    return Route(None, classify=False)


def _tag_names(session: Session, conversation: Conversation) -> list[str]:
    return list(session.exec(select(Tag.name).join(ConversationTag, ConversationTag.tag_id == Tag.id)
                             .where(ConversationTag.conversation_id == conversation.id)).all())


def _refusal(session: Session, conversation: Conversation, config: dict) -> tuple[dict, Route]:
    """Why no AI may answer now ({reason, ...} for the log, or {}), and the route that would."""
    if not plans.has_capability(session, conversation.organization_id, "bot.ai"):
        return {"reason": "plan_capability_missing", "capability": "bot.ai"}, Route(None, False)
    capped = ai_spend.cap_reached(session, conversation.organization_id)
    if capped is not None:
        return {"reason": "ai_spend_cap_reached", "cap": capped.cap_reached, "spentUsd": round(capped.spent_usd, 4),
                "limitUsd": capped.limit_usd}, Route(None, False)
    chosen = route(session, conversation, config)
    return ({"reason": "no_agent"} if chosen.agent is None else {}), chosen


def _leave_job(session: Session, state, conversation: Conversation, chosen: Route, now: datetime,
               purpose: str = REPLY, welcomed: bool = False) -> None:
    earlier = state.ai_job or {}
    if earlier.get("token") and purpose == REPLY:
        # The customer wrote again while an answer was being thought: that answer will find its
        # token gone and say nothing, and this one answers the conversation as it now stands.
        activity.record_in(session, conversation, "SUPERSEDED", reason="newer_question", ai=True,
                           askedAt=earlier.get("askedAt"), stage=earlier.get("purpose") or REPLY)
    token = new_id()
    # A first message's welcome also covers the question asked after it while the model thought.
    welcomed = welcomed or (bool(earlier.get("welcomed")) and (earlier.get("purpose") or REPLY) == REPLY)
    state.ai_job = {"token": token, "agentId": chosen.agent.id or None, "askedAt": now.isoformat(), "runs": 0,
                    "purpose": purpose, "classify": chosen.classify and purpose == REPLY,
                    "welcomed": welcomed}  # the turn's welcome greeted these messages: no fallback if the AI fails
    workers.submit_after_commit(session, conversation.id, token)


def request(turn) -> bool:
    """In the turn: choose the agent and leave the job for the workers. False when no agent can
    answer (the fallback then does)."""
    refused, chosen = _refusal(turn.session, turn.conversation, turn.config)
    if refused:
        turn.log("SKIPPED", **refused, **({"messages": len(turn.messages)} if refused["reason"] == "no_agent" else {}))
        return False
    _leave_job(turn.session, turn.state, turn.conversation, chosen, turn.now, welcomed=turn.welcomed)
    return True


def request_follow_up(session: Session, state, conversation: Conversation, config: dict, now: datetime) -> str | None:
    """followUpMode AI: leave a job for the agent to write the nudge (logged when it is written or
    not); the reason when no AI may write it."""
    refused, chosen = _refusal(session, conversation, config)
    if refused:
        return refused["reason"]
    _leave_job(session, state, conversation, chosen, now, purpose=FOLLOW_UP)
    return None


def run(database: Database, conversation_id: str, token: str) -> None:
    """The job: read, ask the provider (no transaction open), write the outcome."""
    with database.unit_of_work(write=False) as session:
        state = states.read(session, conversation_id)
        job = (state.ai_job if state is not None else None) or {}
        if job.get("token") != token:
            return  # done, dropped or replaced
        conversation = read_row(session, Conversation.__table__, id=conversation_id)
        customer = answering.Customer(conversation.id, conversation.contact_id)
        config = snapshots.config_of(session, state.phone_number_pk)
        agent = _job_agent(session, conversation, config, job)
        history = _history(session, conversation_id)
        topics = {t: a for a in _serving(session, conversation) for t in a.route_tags} if job.get("classify") else {}
        mapped = (a for a in (agent, *topics.values()) if isinstance(a, BotAgent) and a.id)  # not rows, not made up
        for candidate in {id(a): a for a in mapped}.values():
            session.expunge(candidate)  # read after this unit ends
    outcome = error = None
    intent = _classified(database, conversation.organization_id, agent, history, topics) if topics and agent else None
    if intent is not None and intent.topic:
        agent = topics[intent.topic]
    if agent is None:
        error = "no_agent", "The agent was deleted or turned off."
    else:
        try:
            nudge = job.get("purpose") == FOLLOW_UP
            asked = history + [("user", SILENCE_NOTE.format(minutes=config["follow_up_after_min"]))] if nudge else history
            outcome = answering.answer(database, actor=replies.bot_actor(conversation.organization_id), agent=agent,
                                       messages=asked, top_k=config["knowledge_top_k"],
                                       min_similarity=config["knowledge_min_similarity"],
                                       protected_values=config["protected_values"], instruction=NUDGE if nudge else None,
                                       search=not nudge, customer=customer)
        except ProviderError as exc:
            error = exc.kind, str(exc)
            _note(database, conversation.organization_id, agent.provider, exc)
        except Invalid as exc:  # provider_not_configured
            error = exc.code, str(exc)
        except Exception:
            log.exception("the AI step failed for conversation %s", conversation_id)
            error = "internal_error", "An internal error (logged)."
    _write(database, conversation_id, token, agent, history, outcome, error, job.get("purpose") or REPLY, intent,
           welcomed=bool(job.get("welcomed")))


def _classified(database: Database, organization_id: str, by: BotAgent, history: list[tuple[str, str]],
                topics: dict[str, BotAgent]) -> intents.Intent | None:
    """The customer's latest words sorted into a route tag by the default agent's model."""
    asked = " ".join(text for role, text in history[-3:] if role == "user")
    if not asked:
        return None
    try:
        return intents.classify(database, organization_id=organization_id, by=by, question=asked, topics=list(topics))
    except Invalid:  # provider_not_configured: the answer meets it too, and says so
        return None


def _job_agent(session: Session, conversation: Conversation, config: dict, job: dict) -> BotAgent | None:
    if job.get("agentId"):  # a read-only row, through the driver (the ORM's costs ~0.7 ms a reply)
        agent = read_row(session, BotAgent.__table__, id=job["agentId"])
        return agent if agent is not None and agent.enabled else None
    return route(session, conversation, config).agent


# Through the driver, as the turn reads the customer's messages: the ORM's statement costs more.
_HISTORY = ("SELECT direction, type, payload FROM messages WHERE conversation_id = ? AND NOT hidden "
            "ORDER BY id DESC LIMIT ?")


def _history(session: Session, conversation_id: str) -> list[tuple[str, str]]:
    rows = driver_connection(session).execute(_HISTORY, (conversation_id, answering.HISTORY)).fetchall()
    history = [("user" if direction == "in" else "assistant", message_text.plain_text(kind, from_json(payload)) or "")
               for direction, kind, payload in reversed(rows)]
    return [(role, text) for role, text in history if text.strip()]


def _note(database: Database, organization_id: str, provider: str, error: ProviderError) -> None:
    with database.unit_of_work(write=True) as session:
        ai_providers.note_outcome(session, organization_id, provider, error)


def _write(database: Database, conversation_id: str, token: str, agent: BotAgent | None,
           history: list[tuple[str, str]], outcome: answering.Answer | None, error: tuple[str, str] | None,
           purpose: str = REPLY, intent: intents.Intent | None = None, welcomed: bool = False) -> None:
    with database.unit_of_work(write=True) as session:
        now = clock.now()
        for paid in (outcome, intent):  # the provider was paid whether or not the reply is still wanted
            if paid is not None and paid.tokens_in + paid.tokens_out:
                ai_spend.record(session, agent.organization_id, tokens_in=paid.tokens_in, tokens_out=paid.tokens_out,
                                cost_usd=paid.cost_usd)
        state = states.read(session, conversation_id)
        if state is None or (state.ai_job or {}).get("token") != token:
            return
        state.ai_job = None
        conversation = read_row(session, Conversation.__table__, id=conversation_id, remember=False)
        config = snapshots.config_of(session, state.phone_number_pk)
        if purpose == FOLLOW_UP:
            _write_nudge(session, state, conversation, config, agent, outcome, error, now)
            states.write(session, state, now)
            return
        turn = decision.new_turn(session, state, conversation, config, now)
        turn.welcomed = welcomed
        reason = silence_reason(config, conversation, turn.contact)
        if reason is not None:
            turn.log("SUPERSEDED", reason=reason, ai=True)
        elif error is not None:
            turn.log("AI_ERROR", reason=error[0], detail=error[1][:500], agentId=agent.id if agent else None)
            decision.fallback(turn)
            decision.finish(turn)
        else:
            if intent is not None:
                _tag_intent(session, conversation, intent)
            _reply(session, turn, agent, history, outcome, intent)
            decision.finish(turn)
        states.write(session, state, now)


def _write_nudge(session: Session, state, conversation: Conversation, config: dict | None, agent: BotAgent | None,
                 outcome: answering.Answer | None, error: tuple[str, str] | None, now: datetime) -> None:
    """The AI follow-up, if it is still wanted: the customer has not written since (the listener
    resets the stage when they do), nothing silences the bot, the window is open. A provider's
    failure sends the written followUpMessage when there is one."""
    contact = read_row(session, Contact.__table__, id=conversation.contact_id, remember=False)

    def log(kind: str, **detail) -> None:
        activity.record_in(session, conversation, kind, **detail)

    reason = silence_reason(config, conversation, contact)
    if reason is None and state.follow_up_stage != 2:
        reason = "customer_replied"
    if reason is None and not window_open(conversation.last_inbound_at, now):
        reason = "outside_window"
    if reason is not None:
        log("FOLLOWUP_SKIPPED", reason=reason, stage="nudge", ai=True)
        return
    if error is not None:
        written = config["follow_up_message"].strip()
        if not written:
            log("FOLLOWUP_SKIPPED", reason=error[0], detail=error[1][:500], stage="nudge", ai=True)
            return
        text, via = written, {"fallback": True, "reason": error[0]}
    else:
        text, via = outcome.text, {"ai": True, "agentId": agent.id or None, "tokensIn": outcome.tokens_in,
                                   "tokensOut": outcome.tokens_out, "costUsd": round(outcome.cost_usd, 6)}
    text, blocked = bot_text.mask_protected(text, config["protected_values"])
    blocked += outcome.masked if outcome is not None else 0
    if blocked:
        log("PROTECTED_VALUE_BLOCKED", count=blocked, stage="nudge")
    if text.strip() and replies.deliver(session, conversation, contact, replies.Outgoing(text.strip())):
        log("FOLLOWUP_SENT", **via)
    elif not text.strip():
        log("FOLLOWUP_SKIPPED", reason="bad_answer", stage="nudge", ai=True)


def _tag_intent(session: Session, conversation: Conversation, intent: intents.Intent) -> None:
    """The topic the classifier found becomes the conversation's tag: the inbox shows it, and the
    next messages are routed by it without asking again."""
    if intent.topic:
        bot = replies.bot_actor(conversation.organization_id)
        tag = tags_service.find_or_create(session, actor=bot, name=intent.topic)
        conversations_service.do_add_tag(session, actor=bot, conversation_id=conversation.id, tag_id=tag.id)


def _reply(session: Session, turn, agent: BotAgent, history: list[tuple[str, str]], outcome: answering.Answer,
           intent: intents.Intent | None = None) -> None:
    turn.say(outcome.text)
    turn.masked += outcome.masked  # cut by the answer already: `finish` logs them with its own
    question = next((text for role, text in reversed(history) if role == "user"), "")
    if question:
        knowledge_search.record_question(session, organization_id=turn.conversation.organization_id, agent_id=agent.id or None,
                                query=question, results=outcome.knowledge)
    turn.log("AI_REPLY", agentId=agent.id or None, agent=agent.name, provider=agent.provider, model=agent.model,
             tokensIn=outcome.tokens_in, tokensOut=outcome.tokens_out, costUsd=round(outcome.cost_usd, 6),
             latencyMs=outcome.latency_ms, handoff=any(a["type"] == "handoff" for a in outcome.actions),
             **({"booked": [{k: v for k, v in a.items() if k != "type"} for a in outcome.actions
                            if a["type"] == "appointment_booked"]}
                if any(a["type"] == "appointment_booked" for a in outcome.actions) else {}),
             **({"intent": intent.topic, **({"intentError": intent.error} if intent.error else {})} if intent else {}),
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
        self._database = None  # jobs from now on run in the thread that commits them, on the runtime's database

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
