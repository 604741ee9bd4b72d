"""The customer answers: a tap on a survey's button or list row (its id names the survey, the
question and the option), or the option typed instead of tapped ("excelente", case, accents and
punctuation aside), then, when the survey asks for one, the next text is the comment.

An answer is the survey's, never the bot's (`claims`, asked by the bot before it wakes) and does
not bring the conversation back to the inbox: the customer's message reopened it as any message
does, so once the survey has it, a conversation reopened only by survey answers is closed again as
it was. A tap on a question already answered, of an expired survey or of another conversation is
ignored (and still not the bot's)."""

from __future__ import annotations

import re

from sqlalchemy import or_
from sqlmodel import Session, select

from appliance.conversations import recording
from appliance.core import clock
from appliance.core.text import fold
from appliance.core.rows import insert_many
from appliance.core.dispatcher import Event
from appliance.core.ids import new_id
from appliance.messages.models import Message
from appliance.surveys import sender, tallies
from appliance.surveys.service import score_of
from appliance.surveys.models import SurveyAnswer, SurveyDelivery

OPEN = ("sent", "answered")


def tapped(message) -> tuple[str, int, int] | None:
    """(delivery id, question, option) of a tap on a survey's button or row, else None."""
    if message.type != "interactive" or not isinstance(message.payload, dict):
        return None
    inner = message.payload.get("interactive") or {}
    reply = inner.get("button_reply") or inner.get("list_reply") or {}
    return sender.parse_reply_id(str(reply.get("id") or ""))


_NOT_WORDS = re.compile(r"[^\w]+")


def _words(text: str) -> str:
    """What is compared of a typed answer: its words, folded ('¡Excelente! 😀' -> 'excelente')."""
    return " ".join(_NOT_WORDS.sub(" ", fold(text)).split())


def typed(delivery: SurveyDelivery, message) -> int | None:
    """The option of the question `delivery` is asking that the customer's text `message` names
    (its whole words, written after the question), else None."""
    if (message.type != "text" or delivery.step >= len(delivery.questions) or delivery.prompt_message_id is None
            or message.id <= delivery.prompt_message_id):
        return None
    words = _words(((message.payload or {}).get("text") or {}).get("body") or "")
    options = [_words(option) for option in delivery.questions[delivery.step]["options"]]
    return options.index(words) if words and words in options else None


def _asking(session: Session, conversation_id: str) -> SurveyDelivery | None:
    """The survey waiting for an answer in the conversation (a question or the comment), if any."""
    return session.exec(select(SurveyDelivery).where(SurveyDelivery.conversation_id == conversation_id,
                                                     SurveyDelivery.status.in_(OPEN),
                                                     SurveyDelivery.finished_at.is_(None))
                       .order_by(SurveyDelivery.closed_at.desc())).first()


def claimed(session: Session, conversation_id: str, messages) -> set[str]:
    """The ids among the customer's `messages` (each with id, type, payload) that answer a survey,
    so the bot leaves them alone: a survey's tap, or the first text after the comment question. The
    same answer whether or not the survey has heard them yet."""
    if not messages or not _surveyed(session, conversation_id):
        return set()
    return _answers_among(session, conversation_id, messages)


def claims(session: Session, *, conversation_id: str, message_id: str) -> bool:
    """Is this one customer's message an answer to a survey?"""
    if not _surveyed(session, conversation_id):
        return False  # the common case: one indexed look, the message not even read
    message = session.get(Message, message_id)
    return message is not None and message_id in _answers_among(session, conversation_id, [message])


def _surveyed(session: Session, conversation_id: str) -> bool:
    """Was a survey ever sent in this conversation? Without one nothing the customer says is an answer."""
    return session.exec(select(SurveyDelivery.id).where(SurveyDelivery.conversation_id == conversation_id,
                                                        SurveyDelivery.sent_at.is_not(None)).limit(1)).first() is not None


def _answers_among(session: Session, conversation_id: str, messages) -> set[str]:
    ids = {m.id for m in messages if tapped(m) is not None}
    texts = [m.id for m in messages if m.type == "text"]
    if texts:  # typed answers: those the survey took already, and those it has still to hear
        ids |= set(session.exec(select(SurveyAnswer.message_id)  # through the conversation's surveys (indexed)
                                .join(SurveyDelivery, SurveyDelivery.id == SurveyAnswer.delivery_id)
                                .where(SurveyDelivery.conversation_id == conversation_id,
                                       SurveyAnswer.message_id.in_(texts))).all())
        asking = _asking(session, conversation_id)
        if asking is not None:
            ids |= {m.id for m in messages if typed(asking, m) is not None}
        for delivery in session.exec(select(SurveyDelivery).where(
                SurveyDelivery.conversation_id == conversation_id,
                or_(SurveyDelivery.comment_message_id.in_(texts),
                    SurveyDelivery.finished_at.is_(None) & SurveyDelivery.status.in_(OPEN)))).all():
            if delivery.comment_message_id or delivery.step >= len(delivery.questions):
                comment = _comment_of(session, delivery)
                if comment in texts:
                    ids.add(comment)
    return ids


def _asking_comment(session: Session, conversation_id: str) -> SurveyDelivery | None:
    for delivery in session.exec(select(SurveyDelivery).where(SurveyDelivery.conversation_id == conversation_id,
                                                              SurveyDelivery.status.in_(OPEN),
                                                              SurveyDelivery.finished_at.is_(None))).all():
        if delivery.step >= len(delivery.questions):
            return delivery
    return None


def _comment_of(session: Session, delivery: SurveyDelivery) -> str | None:
    """The comment's message: the first text the customer wrote after the comment question."""
    if delivery.comment_message_id:
        return delivery.comment_message_id
    return session.exec(select(Message.id).where(
        Message.conversation_id == delivery.conversation_id, Message.direction == "in", Message.type == "text",
        Message.id > delivery.prompt_message_id).order_by(Message.id).limit(1)).first()


# Its module and name are its outbox cursor (listeners.py subscribes it): moving or renaming it
# would hear every past answer again (ignored).
def hear_answers(session: Session, batch: list[Event]) -> None:
    # Only a conversation with a survey open can hold an answer (a tap on an old survey's button is
    # turned away anyway): one indexed look for the batch, and most customers' messages are read
    # no further (loading every inbound message was a tenth of the server's time under load).
    conversations = {event.data.get("conversationId") for event in batch} - {None}
    waiting = set(session.exec(select(SurveyDelivery.conversation_id).where(
        SurveyDelivery.conversation_id.in_(conversations), SurveyDelivery.status.in_(OPEN),
        SurveyDelivery.finished_at.is_(None))).all()) if conversations else set()
    ids = [event.data["messageId"] for event in batch
           if event.data.get("messageId") and event.data.get("conversationId") in waiting]
    if not ids:
        return
    messages = session.exec(select(Message).where(Message.id.in_(ids), Message.type.in_(("interactive", "text")))
                            .order_by(Message.id)).all()
    for message in messages:
        if message.type == "interactive":
            found = tapped(message)
            if found is not None:
                _record_tap(session, message, *found)
        elif message.conversation_id in waiting:
            asking = _asking(session, message.conversation_id)
            option = typed(asking, message) if asking is not None else None
            if option is not None:
                _record_tap(session, message, asking.id, asking.step, option)
            else:
                _record_comment(session, message)


def _record_tap(session: Session, message: Message, delivery_id: str, question: int, option: int) -> None:
    delivery = session.get(SurveyDelivery, delivery_id)
    if (delivery is None or delivery.conversation_id != message.conversation_id or delivery.status not in OPEN
            or delivery.finished_at is not None or delivery.step != question or question >= len(delivery.questions)
            or option >= len(delivery.questions[question]["options"])):
        return  # stale or foreign: not an answer to what is being asked
    now = clock.now()
    asked = delivery.questions[question]
    score = score_of(option, len(asked["options"]))
    insert_many(session, SurveyAnswer.__table__, [{
        "id": new_id(), "organization_id": delivery.organization_id, "delivery_id": delivery.id,
        "message_id": message.id, "question_index": question, "question": asked["text"][:1024], "option_index": option,
        "option": asked["options"][option][:24], "score": score, "answered_at": now}])
    tallies.answered(session, delivery, question=question, option=option, score=score,
                     texts=(asked["text"][:1024], asked["options"][option][:24]))
    if question == 0:
        tallies.move(session, delivery, "answered")
        delivery.score, delivery.answered_at = score, now
    if question + 1 < len(delivery.questions) or delivery.ask_comment:
        _next(session, delivery, question + 1, now)
    else:
        sender.thank(session, delivery, now)
    _keep_closed(session, delivery)


def _next(session: Session, delivery: SurveyDelivery, step: int, now) -> None:
    try:
        with session.begin_nested():
            sender.ask(session, delivery, step, now)
    except Exception as error:  # the window closed meanwhile, the number went: the answers so far count
        sender.log.info("survey %s: could not ask step %d (%r)", delivery.id, step, error)
        delivery.finished_at = delivery.updated_at = now
        session.add(delivery)


def _record_comment(session: Session, message: Message) -> None:
    delivery = _asking_comment(session, message.conversation_id)
    if delivery is None or _comment_of(session, delivery) != message.id:
        return
    now = clock.now()
    delivery.comment = ((message.payload or {}).get("text") or {}).get("body", "")[:4096]
    delivery.comment_message_id = message.id
    sender.thank(session, delivery, now)
    _keep_closed(session, delivery)


def _keep_closed(session: Session, delivery: SurveyDelivery) -> None:
    """Close the conversation again if only this survey's answers reopened it."""
    session.add(delivery)
    session.flush()
    answers = set(session.exec(select(SurveyAnswer.message_id).where(SurveyAnswer.delivery_id == delivery.id)).all())
    if delivery.comment_message_id:
        answers.add(delivery.comment_message_id)
    since_close = set(session.exec(select(Message.id).where(
        Message.conversation_id == delivery.conversation_id, Message.direction == "in",
        Message.created_at > delivery.closed_at)).all())
    if since_close and since_close <= answers:
        recording.do_keep_closed(session, conversation_id=delivery.conversation_id, closed_at=delivery.closed_at)
