"""The bot at work on one conversation, when its `due_at` comes (bots/runner.py calls `look_at`).

A turn answers the customer's messages since the last turn, together (debounce): first the
reasons to stay silent (the bot is off, the customer opted out or is excluded, a person has the
conversation, the 24-hour window closed), then the welcome and the out-of-hours notice, then the
pipeline in the decided order: hand-off keywords, the flow in progress, a flow's trigger words,
rules, the AI agent (a step that plugs in here), the fallback. Every decision is a row of the
activity log; the replies go out as the bot, at once or paced like a person typing.

Everything a turn does (its replies queued, `answered_through` advanced, its log) is one
transaction: after a crash a message is either answered or still due, never both. The `Turn`
itself, and how its replies go out, are decision.py's."""

from __future__ import annotations

from types import SimpleNamespace
from datetime import datetime, timedelta

from sqlalchemy import or_
from sqlmodel import Session, select

from appliance.bots import activity, ai_step, flow_runner, follow_ups, replies, snapshots, states
from appliance.bots.decision import Turn, fallback, finish, new_turn, show_typing
from appliance.organizations import hours
from appliance.organizations.models import Organization
from appliance.bots.guards import LASTING_SILENCES, silence_reason
from appliance.bots import rules as bot_rules
from appliance.bots.matching import compile_rule, first_match
from appliance.contacts.models import Contact
from appliance.conversations import service as conversations_service
from appliance.conversations.models import Conversation
from appliance.conversations.recording import SERVICE_WINDOW, window_open
from appliance.core import clock
from appliance.core.rows import driver_connection, from_json
from appliance.messages import text as message_text
from appliance.messages.models import Message
from appliance.team_tasks import service as team_tasks
from appliance.surveys import answers as survey_answers

AI_MODES = ("RULES_PLUS_AI_FALLBACK", "AI_AGENT")


def look_at(session: Session, conversation_id: str, now: datetime | None = None) -> None:
    """Do what came due for the conversation: parts of a paced reply, a deferred hand-off, a turn,
    a follow-up; then set the next `due_at`."""
    now = now or clock.now()
    state = states.read(session, conversation_id)
    if state is None or state.due_at is None or state.due_at > now:
        return  # another look did it already
    conversation = session.get(Conversation, conversation_id)
    config = snapshots.config_of(session, state.phone_number_pk)
    if state.plan and datetime.fromisoformat(state.plan[0]["at"]) <= now:
        send_plan(session, state, conversation, config, now)
    if state.handoff_at is not None and state.handoff_at <= now:
        _deferred_hand_off(session, state, conversation, config, now)
    if state.turn_due_at is not None and state.turn_due_at <= now:
        _take_turn(session, state, conversation, config, now)
    if state.follow_up_at is not None and state.follow_up_at <= now:
        follow_ups.run(session, state, conversation, config, now)
    states.write(session, state, now)


def _take_turn(session: Session, state: SimpleNamespace, conversation: Conversation, config: dict | None,
               now: datetime) -> None:
    messages = _unanswered(session, conversation.id, state.answered_through)
    state.turn_due_at = None
    if not messages:
        return
    state.answered_through = messages[-1].id
    answers = survey_answers.claimed(session, conversation.id, messages)
    messages = [message for message in messages if message.id not in answers]  # the survey's, not the bot's
    if not messages:
        return
    turn = new_turn(session, state, conversation, config, now)
    turn.messages = list(messages)
    turn.text = "\n".join(t for t in (message_text.plain_text(m.type, m.payload) for m in messages) if t)
    reason = silence_reason(config, conversation, turn.contact, suspended=_suspended(session, conversation))
    if reason is not None:
        if reason not in LASTING_SILENCES or state.last_skip != reason:
            turn.log("SKIPPED", reason=reason, messages=len(messages))
        state.last_skip = reason
        return
    state.last_skip = None
    if not window_open(conversation.last_inbound_at, now):
        turn.log("OUTSIDE_WINDOW", messages=len(messages))
        return
    _welcome(turn)
    _out_of_hours(turn)
    for step in PIPELINE:
        if step(turn):
            break
    finish(turn)


# Through the driver: the ORM's statement and rows cost more than the rest of the turn.
_UNANSWERED = ("SELECT id, type, payload FROM messages WHERE conversation_id = ? AND direction = 'in' AND id > ? "
               "ORDER BY id")


def _unanswered(session: Session, conversation_id: str, answered_through: str | None) -> list[SimpleNamespace]:
    """Every customer message not answered yet (id, type, payload), also one whose event the
    listener has not heard yet: it is answered with its burst, and the listener then finds it
    answered."""
    rows = driver_connection(session).execute(_UNANSWERED, (conversation_id, answered_through or "")).fetchall()
    return [SimpleNamespace(id=id_, type=type_, payload=from_json(payload))
            for id_, type_, payload in rows]


def _welcome(turn: Turn) -> None:
    """The first message of a period the customer opened (not an answer to the business): a new
    conversation, or one reopened after a close, whatever the business said before that close (its
    earlier welcome included). A survey's questions are not the business starting a conversation."""
    config, state = turn.config, turn.state
    if state.welcomed or not config["welcome_enabled"] or not config["welcome_message"].strip():
        return
    state.welcomed = True
    first = turn.messages[0]
    since = max(turn.now - SERVICE_WINDOW, state.last_closed_at) if state.last_closed_at else turn.now - SERVICE_WINDOW
    business_wrote = turn.session.exec(select(Message.id).where(
        Message.conversation_id == turn.conversation.id, Message.direction == "out", Message.id < first.id,
        Message.created_at > since, or_(Message.sent_by.is_(None), Message.sent_by != "survey")).limit(1)).first()
    if business_wrote is None:
        turn.say(config["welcome_message"])
        turn.welcomed = True
        turn.log("WELCOME_SENT")


def _schedule(turn: Turn) -> tuple[dict | None, str]:
    schedule = turn.config["out_of_hours_schedule"] or turn.organization.business_hours_schedule
    return schedule, turn.organization.timezone or "UTC"


def _out_of_hours(turn: Turn) -> None:
    """Closed now: the notice, once per closed period; the turn goes on (the bot keeps serving)."""
    if not (turn.config["out_of_hours_enabled"] or turn.config["out_of_hours_task_enabled"]):
        return
    schedule, timezone = _schedule(turn)
    if hours.is_open(schedule, timezone, turn.now):
        return
    turn.closed_until = hours.next_opening(schedule, timezone, turn.now)
    period = turn.closed_until.isoformat() if turn.closed_until else "closed"
    if turn.config["out_of_hours_enabled"] and turn.state.out_of_hours_notice_for != period \
            and turn.config["out_of_hours_message"].strip():
        turn.state.out_of_hours_notice_for = period
        turn.say(turn.config["out_of_hours_message"])
        turn.log("OUT_OF_HOURS_SENT", opensAt=clock.iso(turn.closed_until))


# The pipeline: each step answers whether it handled the turn (the rest are then skipped).

def _handoff_keywords(turn: Turn) -> bool:
    keywords = turn.config["human_handoff_keywords"]
    if not keywords or not turn.text:
        return False
    matcher = compile_rule("handoff", keywords, "CONTAINS", [])
    if first_match([matcher], turn.text, turn.conversation.phone_number_pk) is None:
        return False
    if turn.closed_until is not None and turn.config["out_of_hours_task_enabled"]:
        _defer_hand_off(turn)
        return True
    turn.say(turn.config["handoff_message"])
    turn.hand_off("keyword")
    return True


def _defer_hand_off(turn: Turn) -> None:
    """Asked for a person while the team is closed: a task for the team, the customer told when,
    and the hand-off itself at the opening (plus the grace minutes)."""
    opening = turn.closed_until
    task = team_tasks.do_create(
        turn.session, actor=replies.bot_actor(turn.conversation.organization_id), origin="BOT",
        title=f"Call back {turn.contact.name or turn.contact.wa_id}"[:200],
        detail=f"Asked for a person out of hours: {turn.text}"[:4000],
        conversation_id=turn.conversation.id, contact_id=turn.contact.id, due_at=opening)
    message = turn.config["out_of_hours_task_message"]
    if message.strip():
        _, timezone = _schedule(turn)
        turn.say(message.replace("{apertura}", hours.describe(opening, timezone, turn.organization.country)))
    turn.state.handoff_at = opening + timedelta(minutes=turn.config["out_of_hours_task_grace_min"])
    turn.log("HANDOFF_DEFERRED", taskId=task.id, handoffAt=clock.iso(turn.state.handoff_at))


def _active_flow(turn: Turn) -> bool:
    return flow_runner.answer(turn) if turn.state.flow_id else False


def _flow_triggers(turn: Turn) -> bool:
    return flow_runner.start_by_keywords(turn)


def _rules(turn: Turn) -> bool:
    rule = bot_rules.first_matching(turn.session, turn.conversation.organization_id, turn.text,
                                    turn.conversation.phone_number_pk)
    if rule is None:
        return False
    if rule.image_id:
        turn.show(rule.image_id, rule.reply)
    else:
        turn.say(rule.reply)
    turn.log("RULE_MATCHED", ruleId=rule.id, rule=rule.name, action=rule.action)
    bot = replies.bot_actor(turn.conversation.organization_id)
    if rule.action == "HANDOFF":
        turn.hand_off("rule", ruleId=rule.id)
    elif rule.action == "START_FLOW":
        flow_runner.start_by_id(turn, rule.flow_id)
    elif rule.action == "ADD_TAG" and rule.tag_id:
        conversations_service.do_add_tag(turn.session, actor=bot, conversation_id=turn.conversation.id,
                                         tag_id=rule.tag_id)
    elif rule.action == "CLOSE":
        conversations_service.do_set_status(turn.session, actor=bot, conversation_id=turn.conversation.id,
                                            status="closed", category="bot_rule")
    return True


def _ai_agent(turn: Turn) -> bool:
    """Where the AI agent answers (RULES_PLUS_AI_FALLBACK, AI_AGENT): the job is left for the AI
    workers (bots/ai_step.py), which answer once the provider has, outside this transaction."""
    if turn.config["mode"] not in AI_MODES:
        return False
    return ai_step.request(turn)


PIPELINE = (_handoff_keywords, _active_flow, _flow_triggers, _rules, _ai_agent, fallback)


def send_plan(session: Session, state: SimpleNamespace, conversation: Conversation | None, config: dict | None,
              now: datetime) -> None:
    """The parts of a paced reply whose moment came; dropped, and said so, if a person took the
    conversation or the bot was turned off meanwhile."""
    contact = session.get(Contact, conversation.contact_id) if conversation else None
    reason = (silence_reason(config, conversation, contact, suspended=_suspended(session, conversation))
              if conversation else "conversation_gone")
    if reason is not None:
        if conversation is not None:
            activity.record_in(session, conversation, "SUPERSEDED", reason=reason, parts=len(state.plan))
        state.plan = []
        return
    due = [part for part in state.plan if datetime.fromisoformat(part["at"]) <= now]
    state.plan = state.plan[len(due):]
    for part in due:
        replies.deliver(session, conversation, contact, replies.Outgoing.from_part(part))
    if state.plan:
        show_typing(session, conversation.id)


def _deferred_hand_off(session: Session, state: SimpleNamespace, conversation: Conversation | None,
                       config: dict | None, now: datetime) -> None:
    state.handoff_at = None
    if conversation is None or conversation.handoff_pending or conversation.assignee_user_id:
        return  # someone took it already
    turn = new_turn(session, state, conversation, config, now)
    turn.hand_off("out_of_hours_opening")


def _suspended(session: Session, conversation: Conversation) -> bool:
    organization = session.get(Organization, conversation.organization_id)  # the batch loaded it
    return organization is not None and organization.suspended_at is not None
