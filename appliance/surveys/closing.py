"""A conversation closes: the survey it earns is decided at once and recorded (an outbox listener of
conversation.updated, so closing never waits for it). The decision is visible either way:
`scheduled` with the time it leaves, or `unsent` with the reason (the number is not surveyed, the
audience does not match, the contact opted out, or was surveyed within the cooldown). The 24-hour
window is judged when it is due to leave (sender.py)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation
from appliance.core import clock
from appliance.core.rows import insert_many
from appliance.core.dispatcher import Event
from appliance.core.ids import new_id
from appliance.messages.models import Message
from appliance.surveys import sender, tallies, tasks
from appliance.surveys.models import SurveyConfig, SurveyDelivery


# Its module and name are its outbox cursor (listeners.py subscribes it): moving or renaming it
# would decide every past close again (ignored).
def decide_surveys(session: Session, batch: list[Event]) -> None:
    ids = sorted({event.data["conversationId"] for event in batch if event.data.get("conversationId")})
    closed = session.exec(select(Conversation).where(Conversation.id.in_(ids), Conversation.status == "closed",
                                                     Conversation.closed_at.is_not(None))).all()
    configs: dict[str, SurveyConfig | None] = {}
    rows = []
    for conversation in closed:
        if conversation.organization_id not in configs:
            configs[conversation.organization_id] = session.get(SurveyConfig, conversation.organization_id)
        config = configs[conversation.organization_id]
        if config is not None and config.active:
            rows.append(_decision(session, config, conversation))
    decided = set(session.exec(select(SurveyDelivery.conversation_id, SurveyDelivery.closed_at).where(
        SurveyDelivery.conversation_id.in_([row["conversation_id"] for row in rows]))).all()) if rows else set()
    rows = [row for row in rows if (row["conversation_id"], row["closed_at"]) not in decided]  # a repeated event
    if rows:
        insert_many(session, SurveyDelivery.__table__, rows)
        tallies.added(session, rows)
        if any(row["status"] == "scheduled" for row in rows):
            tasks.send_after_commit(session, min(row["due_at"] for row in rows if row["due_at"]))


def _decision(session: Session, config: SurveyConfig, conversation: Conversation) -> dict:
    now, closed_at = clock.now(), conversation.closed_at
    handled_by, agent = _who_answered(session, conversation)
    reason = None
    if config.phone_number_pks and conversation.phone_number_pk not in config.phone_number_pks:
        reason = "disabled_number"
    elif config.audience != "ALL" and handled_by != config.audience:
        reason = "audience"
    elif session.exec(select(Contact.opted_out_at).where(Contact.id == conversation.contact_id)).first() is not None:
        reason = "opted_out"
    elif sender.surveyed_recently(session, conversation.contact_id, config.cooldown_days, now):
        reason = "cooldown"
    return {"id": new_id(), "organization_id": conversation.organization_id, "conversation_id": conversation.id,
            "contact_id": conversation.contact_id, "phone_number_pk": conversation.phone_number_pk,
            "agent_user_id": conversation.assignee_user_id or agent, "handled_by": handled_by,
            "status": "unsent" if reason else "scheduled", "unsent_reason": reason, "closed_at": closed_at,
            "due_at": None if reason else closed_at + timedelta(minutes=config.delay_minutes),
            "sent_at": None, "expires_at": None, "answered_at": None, "finished_at": now if reason else None,
            "questions": config.questions, "ask_comment": config.ask_comment,
            "comment_question": config.comment_question, "thanks_message": config.thanks_message,
            "answer_timeout_hours": config.answer_timeout_hours, "step": 0, "prompt_message_id": None,
            "score": None, "comment": None, "comment_message_id": None, "created_at": now, "updated_at": now}


def _who_answered(session: Session, conversation: Conversation) -> tuple[str | None, str | None]:
    """Who wrote to the customer since the previous close we know of (the whole conversation
    otherwise): HUMAN if a person did, BOT if only the bot did; and the last person who wrote."""
    since = session.exec(select(func.max(SurveyDelivery.closed_at)).where(
        SurveyDelivery.conversation_id == conversation.id, SurveyDelivery.closed_at < conversation.closed_at)).one()
    query = select(Message.id, Message.sent_by_user_id).where(Message.conversation_id == conversation.id,
                                                              Message.direction == "out", Message.sent_by == "user")
    if since is not None:
        query = query.where(Message.created_at > since)
    person = session.exec(query.order_by(Message.created_at.desc()).limit(1)).first()
    if person is not None:
        return "HUMAN", person.sent_by_user_id
    bot = select(Message.id).where(Message.conversation_id == conversation.id, Message.direction == "out",
                                   Message.sent_by == "bot")
    if since is not None:
        bot = bot.where(Message.created_at > since)
    return ("BOT" if session.exec(bot.limit(1)).first() is not None else None), None

