"""A bot flow running in a conversation. Its position (`flow_step`, the question or buttons waiting
for the customer) and the answers so far live in the bot's state of the conversation; answers are
checked by the step's `validate` (a wrong one gets the step's `errorText` and the question stays),
and saved to the contact's attributes under `saveAs`, where the team sees them.

Steps run until one waits for the customer or the flow ends. Flows are checked when saved
(bots/flows.py), so a running flow cannot loop or point nowhere; a flow changed or disabled
under a waiting customer ends with a FAILED entry and the turn goes on to the rules."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from sqlmodel import Session, select

from appliance.ai_agents.models import BotAgent
from appliance.bots import ai_step, replies, snapshots
from appliance.core.locales import customer_language
from appliance.bots.decision import Turn
from appliance.bots.matching import CompiledRule, compile_rule, first_match, normalize
from appliance.bots.models import BotFlow
from appliance.contacts import service as contacts_service
from appliance.contacts.models import Contact
from appliance.conversations import service as conversations_service
from appliance.core.errors import AppError
from appliance.core.i18n import _l

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]{2,}$")
_NUMBER = re.compile(r"^-?\d+(?:[.,]\d+)?$")
_PHONE = re.compile(r"^\+?\d{7,15}$")
_DATE_FORMATS = ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y", "%d/%m/%y")
# Said to the customer, in their language (core/locales.customer_language), when a flow's step has none.
DEFAULT_ERROR = _l("I did not understand that answer; please try again.")
LIST_BUTTON = _l("See options")


def check_answer(kind: str | None, text: str) -> str | None:
    """The answer as saved, or None when it does not pass the step's check."""
    text = text.strip()
    if not text:
        return None
    if kind == "NUMBER":
        bare = text.replace(" ", "")
        return bare.replace(",", ".") if _NUMBER.match(bare) else None
    if kind == "EMAIL":
        return text.lower() if _EMAIL.match(text) else None
    if kind == "PHONE":
        bare = re.sub(r"[\s\-().]", "", text)
        return bare if _PHONE.match(bare) else None
    if kind == "DATE":
        for pattern in _DATE_FORMATS:
            try:
                return datetime.strptime(text, pattern).date().isoformat()
            except ValueError:
                continue
        return None
    return text[:1000]


def _triggers(session: Session, organization_id: str) -> list[CompiledRule]:
    """The enabled flows' trigger words, compiled (a match names the flow), oldest flow first."""
    return [compile_rule(flow.id, flow.trigger_keywords, "CONTAINS", flow.phone_number_pks)
            for flow in session.exec(select(BotFlow).where(
                BotFlow.organization_id == organization_id, BotFlow.enabled.is_(True)).order_by(BotFlow.created_at))
            if flow.trigger_keywords]


def start_by_keywords(turn: Turn) -> bool:
    """A flow whose trigger words the customer wrote starts (unless one just ended: postFlowGraceMin)."""
    if not turn.text:
        return False
    triggers = snapshots.of_organization(turn.session, BotFlow, turn.conversation.organization_id, _triggers)
    flow_id = first_match(triggers, turn.text, turn.conversation.phone_number_pk)
    if flow_id is None:
        return False
    flow = turn.session.get(BotFlow, flow_id)
    grace = turn.config["post_flow_grace_min"]
    ended = turn.state.flow_ended_at
    if grace and ended is not None and turn.now < ended + timedelta(minutes=grace):
        turn.log("SKIPPED", reason="post_flow_grace", flowId=flow.id, flow=flow.name)
        return False
    _start(turn, flow)
    return True


def start_by_id(turn: Turn, flow_id: str | None) -> None:
    """A rule's START_FLOW."""
    flow = turn.session.get(BotFlow, flow_id) if flow_id else None
    if flow is None or flow.organization_id != turn.conversation.organization_id or not flow.enabled:
        turn.log("FAILED", reason="flow_unavailable", flowId=flow_id)
        return
    _start(turn, flow)


def _start(turn: Turn, flow: BotFlow) -> None:
    turn.state.flow_id, turn.state.flow_step, turn.state.flow_answers = flow.id, None, {}
    turn.log("FLOW_STARTED", flowId=flow.id, flow=flow.name)
    _run(turn, flow, flow.steps[0]["id"])


def answer(turn: Turn) -> bool:
    """The customer's message answers the waiting step; answers whether the flow handled the turn."""
    state = turn.state
    flow = turn.session.get(BotFlow, state.flow_id)
    step = next((s for s in flow.steps if s["id"] == state.flow_step), None) if flow and flow.enabled else None
    if step is None or step["type"] not in ("question", "buttons"):
        turn.log("FAILED", reason="flow_changed", flowId=state.flow_id, step=state.flow_step)
        turn.stop_flow()
        return False
    if step["type"] == "question":
        value = check_answer(step.get("validate"), turn.text)
        if value is None:
            turn.say(step.get("errorText") or DEFAULT_ERROR.resolve(customer_language(turn.organization.country)))
            return True
        _save_answer(turn, step["saveAs"], value)
        _run(turn, flow, step.get("next"))
        return True
    option = _chosen(step, turn)
    if option is None:  # not one of the options: show them again
        turn.say(step["text"], interactive=buttons_message(step, turn.organization.country))
        return True
    state.flow_answers = {**state.flow_answers, step["id"]: option["id"]}
    _run(turn, flow, option["next"])
    return True


def _chosen(step: dict, turn: Turn) -> dict | None:
    options = step["options"]
    last = turn.messages[-1]
    if last.type == "interactive" and isinstance(last.payload, dict):
        inner = last.payload.get("interactive") or {}
        reply = inner.get("button_reply") or inner.get("list_reply") or {}
        for option in options:
            if reply.get("id") == option["id"]:
                return option
    said = normalize(turn.text.splitlines()[-1] if turn.text else "")
    for index, option in enumerate(options, start=1):
        if said in (normalize(option["title"]), str(index)):
            return option
    return None


def _save_answer(turn: Turn, name: str, value: str) -> None:
    turn.state.flow_answers = {**turn.state.flow_answers, name: value}
    contact = turn.session.get(Contact, turn.contact.id)  # as it is now: a flow saves several answers in one turn
    contacts_service.do_update(turn.session, actor=replies.bot_actor(contact.organization_id), contact_id=contact.id,
                               attributes={**(contact.attributes or {}), name: value})


def buttons_message(step: dict, country: str | None) -> dict:
    """Up to 3 options as reply buttons, more as a list (WhatsApp's limits: 3 buttons, 10 rows)."""
    options = step["options"]
    body = {"text": step["text"]}
    if len(options) <= 3:
        return {"type": "button", "body": body, "action": {"buttons": [
            {"type": "reply", "reply": {"id": o["id"], "title": o["title"]}} for o in options]}}
    return {"type": "list", "body": body, "action": {
        "button": LIST_BUTTON.resolve(customer_language(country)),
        "sections": [{"rows": [{"id": o["id"], "title": o["title"]} for o in options]}]}}


def _run(turn: Turn, flow: BotFlow, step_id: str | None) -> None:
    steps = {step["id"]: step for step in flow.steps}
    for _ in range(len(steps) + 1):  # saved flows cannot loop without waiting; this bounds a bug
        if step_id is None:
            _complete(turn, flow)
            return
        step = steps[step_id]
        kind = step["type"]
        if kind in ("question", "buttons"):
            turn.say(step["text"], interactive=buttons_message(step, turn.organization.country)
                     if kind == "buttons" else None)
            turn.state.flow_step = step_id
            return
        if kind == "handoff":
            turn.say(step.get("text"))
            turn.hand_off("flow", flowId=flow.id, step=step_id)
            return
        if kind == "transfer_to_ai":
            turn.say(step.get("text"))
            _complete(turn, flow)
            _to_ai(turn, flow, step_id, step.get("agentId"))
            return
        if kind == "end":
            turn.say(step.get("text"))
            _complete(turn, flow)
            return
        if kind == "message":
            turn.say(step["text"])
        elif kind == "set_tag":
            _tag(turn, flow, step)
        step_id = step.get("next")
    turn.log("FAILED", reason="flow_loop", flowId=flow.id)
    turn.stop_flow()


def _to_ai(turn: Turn, flow: BotFlow, step_id: str, agent_id: str | None) -> None:
    """The flow gives the conversation to an AI agent (its step's, pinned to the conversation, or
    the router's), which answers the customer's messages now; when no AI may answer (the agent gone,
    no agent, the plan, the spending limit: logged), a person does."""
    if agent_id:
        agent = turn.session.get(BotAgent, agent_id)
        serves = agent is not None and agent.enabled and agent.organization_id == turn.conversation.organization_id \
            and (not agent.phone_number_pks or turn.conversation.phone_number_pk in agent.phone_number_pks)
        if serves:
            conversations_service.do_set_bot_agent(turn.session, actor=replies.bot_actor(turn.conversation.organization_id),
                                                   conversation_id=turn.conversation.id, agent_id=agent.id)
        else:
            turn.log("FAILED", reason="agent_unavailable", flowId=flow.id, step=step_id, agentId=agent_id)
    if not ai_step.request(turn):
        turn.hand_off("ai_unavailable", flowId=flow.id, step=step_id, agentId=agent_id)


def _tag(turn: Turn, flow: BotFlow, step: dict) -> None:
    try:
        with turn.session.begin_nested():
            conversations_service.do_add_tag(turn.session, actor=replies.bot_actor(turn.conversation.organization_id),
                                             conversation_id=turn.conversation.id, tag_id=step["tagId"])
    except AppError as error:  # the tag was deleted since the flow was saved
        turn.log("FAILED", reason="tag_unavailable", flowId=flow.id, step=step["id"], error=str(error)[:300])


def _complete(turn: Turn, flow: BotFlow) -> None:
    turn.log("FLOW_COMPLETED", flowId=flow.id, flow=flow.name, answers=sorted(turn.state.flow_answers))
    turn.stop_flow()
