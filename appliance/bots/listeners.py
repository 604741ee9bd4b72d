"""The bot hears what happens in conversations through the outbox:
- a customer's message on a number whose bot is on makes the conversation's turn due after the
  debounce (a burst pushes it back: one answer for the burst) and cancels a pending follow-up,
  unless it answers a survey (surveys/answers.py);
- a person's message (the inbox, the Business app) supersedes what the bot was about to say;
- a bot message the network refused is logged (FAILED), never silent;
- a conversation closing ends its flow and its follow-ups; the next one is welcomed again;
- a person returning a conversation to the bot is logged, and the bot speaks again.

Every customer message passes here: the messages of a dispatch are heard together, each
conversation's state read and written once, through the driver."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, func, select

from appliance.bots import activity, tasks
from appliance.bots.config import DEFAULTS
from appliance.bots.models import BotConfig
from appliance.bots.states import States
from appliance.conversations.models import Conversation
from appliance.core import clock, dispatcher, events
from appliance.core.rows import read_row
from appliance.core.dispatcher import Event
from appliance.messages.models import Message
from appliance.surveys import answers as survey_answers


# The listeners' names are their outbox cursors: renaming one would hear every past event again.
@dispatcher.subscribe(events.MESSAGE_CREATED, batch=True,
                  when=lambda data: data.get("direction") == "in" or data.get("sentBy") == "user")
def hear_message(session: Session, batch: list[Event]) -> None:
    states = States(session)
    for event in batch:
        data = event.data
        if data.get("direction") == "in":
            _customer_wrote(session, states, data["conversationId"], data["messageId"])
        elif data.get("sentBy") == "user":
            _person_wrote(session, states, data["conversationId"], data["messageId"])
    states.save()


def _customer_wrote(session: Session, states: States, conversation_id: str, message_id: str) -> None:
    conversation = read_row(session, Conversation.__table__, id=conversation_id)
    if conversation is None:
        return
    config = read_row(session, BotConfig.__table__, phone_number_pk=conversation.phone_number_pk)
    if config is None or not config.enabled or config.mode == "OFF":
        return
    if survey_answers.claims(session, conversation_id=conversation_id, message_id=message_id):
        return  # an answer to a survey is the survey's: the bot does not wake for it
    state = states.get(conversation_id)
    if state is not None and state.answered_through and message_id <= state.answered_through:
        return  # answered already, with the burst it came in
    debounce = (config.settings or {}).get("debounce_seconds", DEFAULTS["debounce_seconds"])
    turn_due = clock.now() + timedelta(seconds=debounce)
    if state is None:
        states.create(conversation_id=conversation_id, organization_id=conversation.organization_id,
                      phone_number_pk=conversation.phone_number_pk, turn_due_at=turn_due, last_inbound_id=message_id)
    else:
        states.change(state, last_inbound_id=max(message_id, state.last_inbound_id or ""), turn_due_at=turn_due,
                      follow_up_at=None, follow_up_stage=0)  # the customer answered: no nudge
    tasks.wake_after_commit(session, turn_due)


def _person_wrote(session: Session, states: States, conversation_id: str, message_id: str) -> None:
    """A person answered: the bot's pending reply (a burst it was waiting on, parts not yet sent)
    is dropped and said so; the customer's messages so far count as answered; no follow-up."""
    state = states.get(conversation_id)
    if state is None:
        return
    pending_turn = state.turn_due_at is not None
    if pending_turn or state.plan or state.ai_job:
        activity.record(session, organization_id=state.organization_id, kind="SUPERSEDED",
                        phone_number_pk=state.phone_number_pk, conversation_id=conversation_id, reason="person_replied",
                        messageId=message_id, parts=len(state.plan or ()), burst=pending_turn, ai=bool(state.ai_job))
    states.change(state, turn_due_at=None, plan=[], follow_up_at=None, follow_up_stage=0, ai_job=None,
                  answered_through=max(state.answered_through or "", state.last_inbound_id or "") or None)


@dispatcher.subscribe(events.MESSAGE_UPDATED, batch=True, when=lambda data: data.get("status") == "failed")
def hear_refusal(session: Session, batch: list[Event]) -> None:
    """A bot message the network refused is the bot's failure too: logged with the network's reason.
    (Every status of every message is an event here: heard together, the rest cost nothing.)"""
    for event in batch:
        if event.data.get("status") == "failed":
            _refused(session, event.data["messageId"])


def _refused(session: Session, message_id: str) -> None:
    message = read_row(session, Message.__table__, id=message_id, remember=False)
    if message is None or message.sent_by != "bot":
        return
    activity.record(session, organization_id=message.organization_id, kind="FAILED",
                    phone_number_pk=message.phone_number_pk, conversation_id=message.conversation_id,
                    reason="network_refused", messageId=message.id, errorCode=message.error_code,
                    error=message.error_title)


@dispatcher.subscribe(events.CONVERSATION_UPDATED, when=lambda data: "status" in data.get("changes", ()))
def hear_closing(session: Session, event: Event) -> None:
    """Closed: the flow in progress, a deferred hand-off and the follow-ups end (a follow-up's own
    closing included); a later message opens a new period, welcomed again whatever the business said
    before the close (so a conversation the bot never spoke in gets a state here, to remember it)."""
    conversation = read_row(session, Conversation.__table__, id=event.data["conversationId"], remember=False)
    if conversation is None or conversation.status != "closed":
        return
    states = States(session)
    state = states.get(conversation.id)
    closed_at = conversation.closed_at or clock.now()
    if state is None:  # what the customer said before the close is the closed period's, not the bot's to answer
        said = session.exec(select(func.max(Message.id)).where(Message.conversation_id == conversation.id,
                                                               Message.direction == "in")).first()
        states.create(conversation_id=conversation.id, organization_id=conversation.organization_id,
                      phone_number_pk=conversation.phone_number_pk, last_closed_at=closed_at, answered_through=said,
                      last_inbound_id=said)
    else:
        states.change(state, welcomed=False, last_closed_at=closed_at, flow_id=None, flow_step=None, handoff_at=None,
                      follow_up_at=None, follow_up_stage=0,
                      flow_ended_at=clock.now() if state.flow_id else state.flow_ended_at)
    states.save()


@dispatcher.subscribe(events.CONVERSATION_UPDATED, when=lambda data: bool(data.get("returnedToBot")))
def hear_return(session: Session, event: Event) -> None:
    """A person gave the conversation back to automation: logged, and the bot's silence ends (the
    next reason to stay silent is logged anew)."""
    conversation = read_row(session, Conversation.__table__, id=event.data["conversationId"], remember=False)
    if conversation is None:
        return
    activity.record(session, organization_id=conversation.organization_id, kind="RETURNED_TO_BOT",
                    phone_number_pk=conversation.phone_number_pk, conversation_id=conversation.id,
                    byUserId=event.data.get("byUserId"), previousAssigneeUserId=event.data.get("previousAssigneeUserId"))
    states = States(session)
    state = states.get(conversation.id)
    if state is not None:
        states.change(state, last_skip=None, handoff_at=None)
        states.save()
