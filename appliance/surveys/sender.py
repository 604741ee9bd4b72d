"""Asking: a scheduled survey leaves when due (the minute task, or at once for a delay of 0), its
first question as reply buttons; later questions go as a list, the comment question and the thanks
as text (answers.py calls `ask` and `thank`). Everything goes out as an ordinary message of the
conversation with `sentBy: survey`, through the number's sender.

Just before it leaves, what may have changed since the close is judged again: the customer came
back (the conversation reopened: cancelled, the next close decides anew), surveys were turned off
(cancelled), the contact opted out, another survey reached them within the cooldown, and the
24-hour window, which must still be open (`window_closed` otherwise). A refusal of the sending
(the number disconnected...) is recorded as the reason with its code. A prompt nobody answers in
`answerTimeoutHours` expires: `expired` before question 1 is answered, otherwise the survey just
ends with the answers it has."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import or_
from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation
from appliance.conversations.recording import window_open
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import AppError
from appliance.core.i18n import _l
from appliance.core.locales import customer_language
from appliance.messages.sending.service import Outgoing, do_send
from appliance.organizations.models import Organization
from appliance.surveys import tallies
from appliance.surveys.models import SurveyConfig, SurveyDelivery

log = logging.getLogger("appliance.surveys")

BATCH = 50  # surveys per write transaction
LIST_BUTTON = _l("Choose")  # a list's button, in the customers' language
REPLY_PREFIX = "svy"  # a reply's id: svy:<delivery id>:<question index>:<option index>


def survey_actor(organization_id: str) -> OrgActor:
    """Who surveys are sent as: no person, no key (their messages say `sentBy: survey`)."""
    return OrgActor(user_id=None, kind="survey", organization_id=organization_id, membership_id=None, role_key=None,
                    permissions=frozenset())


def reply_id(delivery_id: str, question: int, option: int) -> str:
    return f"{REPLY_PREFIX}:{delivery_id}:{question}:{option}"


def parse_reply_id(value: str) -> tuple[str, int, int] | None:
    parts = (value or "").split(":")
    if len(parts) != 4 or parts[0] != REPLY_PREFIX or not parts[2].isdigit() or not parts[3].isdigit():
        return None
    return parts[1], int(parts[2]), int(parts[3])


def send_due(database, now: datetime | None = None) -> int:
    """Send what is due and expire what timed out; answers how many surveys were looked at."""
    moment = now or clock.now()
    due = (SurveyDelivery.status == "scheduled") & (SurveyDelivery.due_at <= moment)
    timed_out = SurveyDelivery.finished_at.is_(None) & (SurveyDelivery.expires_at <= moment)
    with database.unit_of_work(write=False) as session:
        if session.exec(select(SurveyDelivery.id).where(or_(due, timed_out)).limit(1)).first() is None:
            return 0  # most minutes: nothing, and no write lock taken for it
    total = 0
    while True:
        with database.unit_of_work(write=True) as session:
            expired = session.exec(select(SurveyDelivery).where(timed_out).limit(BATCH)).all()
            for delivery in expired:
                _time_out(session, delivery, moment)
            batch = session.exec(select(SurveyDelivery).where(due).order_by(SurveyDelivery.due_at).limit(BATCH)).all()
            for delivery in batch:
                try:
                    with session.begin_nested():
                        _send_first(session, delivery, moment)
                except Exception:
                    log.exception("the survey %s could not be sent", delivery.id)
                    _mark_unsent(session, delivery, "send_failed", moment)
        total += len(expired) + len(batch)
        if len(expired) < BATCH and len(batch) < BATCH:
            return total


def _time_out(session: Session, delivery: SurveyDelivery, now: datetime) -> None:
    if delivery.status == "sent":
        tallies.move(session, delivery, "expired")
    delivery.finished_at = delivery.updated_at = now
    session.add(delivery)


def _mark_unsent(session: Session, delivery: SurveyDelivery, reason: str, now: datetime, *,
                 status: str = "unsent") -> None:
    tallies.move(session, delivery, status, reason[:40])
    delivery.finished_at = delivery.updated_at = now
    session.add(delivery)


def surveyed_recently(session: Session, contact_id: str, cooldown_days: int, now: datetime) -> bool:
    """Did a survey reach this contact (any number) within the cooldown?"""
    if cooldown_days <= 0:
        return False
    return session.exec(select(SurveyDelivery.id).where(
        SurveyDelivery.contact_id == contact_id, SurveyDelivery.sent_at >= now - timedelta(days=cooldown_days))
        .limit(1)).first() is not None


def _send_first(session: Session, delivery: SurveyDelivery, now: datetime) -> None:
    conversation = session.get(Conversation, delivery.conversation_id)
    config = session.get(SurveyConfig, delivery.organization_id)
    if conversation.status != "closed" or conversation.closed_at != delivery.closed_at:
        return _mark_unsent(session, delivery, "reopened", now, status="cancelled")
    if config is None or not config.active:
        return _mark_unsent(session, delivery, "inactive", now, status="cancelled")
    if session.exec(select(Contact.opted_out_at).where(Contact.id == delivery.contact_id)).first() is not None:
        return _mark_unsent(session, delivery, "opted_out", now)
    if surveyed_recently(session, delivery.contact_id, config.cooldown_days, now):
        return _mark_unsent(session, delivery, "cooldown", now)
    if not window_open(conversation.last_inbound_at, now):
        return _mark_unsent(session, delivery, "window_closed", now)
    try:
        with session.begin_nested():
            ask(session, delivery, 0, now)
    except AppError as error:
        return _mark_unsent(session, delivery, "window_closed" if error.code == "outside_service_window" else error.code,
                            now)
    tallies.move(session, delivery, "sent")
    delivery.sent_at = now
    session.add(delivery)


def ask(session: Session, delivery: SurveyDelivery, step: int, now: datetime) -> None:
    """Send the prompt of `step` (a question, or the comment question after the last) and wait
    for its answer until the timeout."""
    questions = delivery.questions
    if step < len(questions):
        question = questions[step]
        rows = [{"id": reply_id(delivery.id, step, i), "title": option} for i, option in enumerate(question["options"])]
        if step == 0:
            payload = {"type": "button", "body": {"text": question["text"]},
                       "action": {"buttons": [{"type": "reply", "reply": row} for row in rows]}}
        else:
            payload = {"type": "list", "body": {"text": question["text"]},
                       "action": {"button": LIST_BUTTON.resolve(_language(session, delivery)), "sections": [{"rows": rows}]}}
        message = _send(session, delivery, "interactive", payload)
    else:
        message = _send(session, delivery, "text", {"body": delivery.comment_question})
    delivery.step, delivery.prompt_message_id = step, message.id
    delivery.expires_at = now + timedelta(hours=delivery.answer_timeout_hours)
    delivery.updated_at = now
    session.add(delivery)


def thank(session: Session, delivery: SurveyDelivery, now: datetime) -> None:
    """The survey is over: the thanks (if any is set), nothing more expected."""
    if delivery.thanks_message:
        try:
            with session.begin_nested():
                _send(session, delivery, "text", {"body": delivery.thanks_message})
        except AppError as error:  # the answers count all the same
            log.info("survey %s: the thanks could not be sent (%s)", delivery.id, error.code)
    delivery.finished_at = delivery.updated_at = now
    delivery.expires_at = None
    session.add(delivery)


def _send(session: Session, delivery: SurveyDelivery, kind: str, payload: dict):
    contact = session.get(Contact, delivery.contact_id)
    message, _ = do_send(session, actor=survey_actor(delivery.organization_id),
                         outgoing=Outgoing(phone_number_pk=delivery.phone_number_pk, to=contact.wa_id, type=kind,
                                           payload=payload))
    return message


def _language(session: Session, delivery: SurveyDelivery) -> str:
    country = session.exec(select(Organization.country).where(Organization.id == delivery.organization_id)).first()
    return customer_language(country)
