"""One decision of the bot on a conversation, a `Turn`: what its steps read, what they decided to
say, and how that goes out (`finish`: capped, disclosed, masked, sent at once or paced). The
pipeline that makes a turn is turns.py's; the AI step (ai_step.py) makes one of its own when the
provider has answered, outside the turn's transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace

from sqlmodel import Session, select

from appliance.bots import activity, replies
from appliance.bots.models import BotImage
from appliance.contacts.models import Contact
from appliance.conversations import service as conversations_service
from appliance.conversations.models import Conversation
from appliance.core import text as bot_text
from appliance.core.db import after_commit
from appliance.core.rows import driver_connection, read_row, stored
from appliance.messages import tasks as message_tasks
from appliance.messages.models import Message
from appliance.messages.sending.compose import CAPTION_MAX
from appliance.organizations.models import Organization
from appliance.team_tasks import service as team_tasks


@dataclass
class Turn:
    """One decision on a conversation: what the steps read, and what they decided to send."""
    session: Session
    now: datetime
    state: SimpleNamespace
    config: dict
    conversation: Conversation
    contact: SimpleNamespace  # the Contact's row, read-only
    organization: SimpleNamespace  # the Organization's row, read-only
    messages: list = field(default_factory=list)  # the customer's messages this turn answers (id, type, payload)
    text: str = ""
    outgoing: list[replies.Outgoing] = field(default_factory=list)
    closed_until: datetime | None = None  # out of hours: the next opening
    welcomed: bool = False  # the welcome answers these messages: it replaces the fallback
    masked: int = 0  # protected values already cut from what is said (the AI's reply masks its own)

    def say(self, text: str | None, interactive: dict | None = None) -> None:
        if text and text.strip():
            self.outgoing.append(replies.Outgoing(text.strip(), interactive))

    def show(self, image_id: str, text: str | None) -> None:
        """An image of the bot's library; `text` its caption (the image's own when none), or said
        after it when longer than a caption may be."""
        text = (text or "").strip()
        image = self.session.get(BotImage, image_id)
        if image is None:
            self.log("FAILED", reason="image_unavailable", imageId=image_id)
            self.say(text)
            return
        fits = len(text) <= CAPTION_MAX
        self.outgoing.append(replies.Outgoing(text if fits and text else image.caption, image_id=image_id))
        if not fits:
            self.say(text)

    def log(self, kind: str, **detail) -> None:
        activity.record_in(self.session, self.conversation, kind, **detail)

    def create_task(self, title: str, detail: str) -> None:
        """A task for the team about this conversation (origin BOT)."""
        task = team_tasks.do_create(
            self.session, actor=replies.bot_actor(self.conversation.organization_id), origin="BOT",
            title=title[:200] or "Follow up", detail=detail[:4000], conversation_id=self.conversation.id,
            contact_id=self.contact.id, due_at=None)
        self.log("TASK_CREATED", taskId=task.id, title=task.title)

    def show_by_label(self, label: str) -> None:
        """An image of the library named by its label (case aside); logged when there is none."""
        found = next((image for image in self.session.exec(select(BotImage).where(
            BotImage.organization_id == self.conversation.organization_id)).all()
            if image.label.casefold() == label.strip().casefold()), None)
        if found is None:
            self.log("FAILED", reason="image_unavailable", label=label[:100])
            return
        self.show(found.id, None)

    def hand_off(self, reason: str, **detail) -> None:
        """A person takes over: automation falls silent, the team is told; the flow stops."""
        # The turn goes on with the conversation as it is now (pending a person): the AI step's
        # turn holds a read-only row, which the hand-off does not change.
        self.conversation = conversations_service.do_request_handoff(
            self.session, actor=replies.bot_actor(self.conversation.organization_id),
            conversation_id=self.conversation.id, reason="bot", detail=reason)
        self.stop_flow()
        self.log("HANDOFF", reason=reason, **detail)

    def stop_flow(self) -> None:
        """The flow in progress ends (completed, handed off, broken); its grace period starts."""
        if self.state.flow_id is not None:
            self.state.flow_id, self.state.flow_step = None, None
            self.state.flow_ended_at = self.now


def new_turn(session: Session, state: SimpleNamespace, conversation: Conversation, config: dict,
              now: datetime) -> Turn:
    """The contact and the organization are read-only rows (read through the driver: every turn and
    every AI reply makes one); what changes them goes through their services."""
    return Turn(session=session, now=now, state=state, config=config, conversation=conversation,
                contact=read_row(session, Contact.__table__, id=conversation.contact_id, remember=False),
                organization=read_row(session, Organization.__table__, id=conversation.organization_id))


def fallback(turn: Turn) -> bool:
    """Nothing else answered. A first message the welcome greeted gets the welcome alone."""
    if turn.welcomed:
        turn.log("FALLBACK_SKIPPED", reason="welcomed")
    elif turn.config["fallback_enabled"] and turn.config["fallback_message"].strip():
        turn.say(turn.config["fallback_message"])
        turn.log("FALLBACK_SENT")
    elif not turn.outgoing:
        turn.log("SKIPPED", reason="no_match", messages=len(turn.messages))
    return True


def finish(turn: Turn) -> None:
    """The replies of a turn: capped, the disclosure first, protected values masked, then sent at
    once or planned part by part; the follow-up clock starts."""
    if not turn.outgoing:
        return
    config, state = turn.config, turn.state
    cap = config["max_replies_per_window"]
    if cap:
        since = turn.now - timedelta(minutes=config["reply_window_minutes"])
        sent = driver_connection(turn.session).execute(  # every reply asks: a count through the driver
            "SELECT count(*) FROM messages WHERE conversation_id = ? AND sent_by = 'bot' AND created_at > ?",
            (turn.conversation.id, stored(turn.session, Message.__table__.c.created_at, since))).fetchone()[0]
        if sent + len(turn.outgoing) > cap:
            turn.outgoing = []
            turn.log("REPLY_CAP_REACHED", sent=sent, cap=cap, windowMinutes=config["reply_window_minutes"])
            if not turn.conversation.handoff_pending:
                turn.hand_off("reply_cap")
            return
    if not state.disclosed and config["disclosure_message"].strip():
        turn.outgoing.insert(0, replies.Outgoing(config["disclosure_message"].strip()))
        state.disclosed = True
    blocked = turn.masked
    masked = []
    for message in turn.outgoing:
        text, count = bot_text.mask_protected(message.text, config["protected_values"])
        blocked += count
        masked.append(replies.Outgoing(text, _masked_interactive(message.interactive, text), message.image_id))
    if blocked:
        turn.log("PROTECTED_VALUE_BLOCKED", count=blocked)
    pace = config["ritmo_de_respuesta"]
    if pace == "INSTANTANEO":
        for message in masked:
            replies.deliver(turn.session, turn.conversation, turn.contact, message)
        last = turn.now
    else:
        at, plan = turn.now, []
        for message in masked:
            for part in ([message] if message.whole else [replies.Outgoing(p) for p in bot_text.split(message.text)]):
                at += timedelta(seconds=replies.typing_seconds(part.text, pace, config["velocidad_tecleo_cps"]))
                plan.append({**part.as_part(), "at": at.isoformat()})
        state.plan = state.plan + plan
        last = at
        show_typing(turn.session, turn.conversation.id)
    if config["follow_up_enabled"] and not turn.conversation.handoff_pending:
        state.follow_up_at, state.follow_up_stage = last + timedelta(minutes=config["follow_up_after_min"]), 1


def _masked_interactive(interactive: dict | None, text: str) -> dict | None:
    if not interactive:
        return None
    return {**interactive, "body": {"text": text}}


def show_typing(session: Session, conversation_id: str) -> None:
    """"typing…" for the customer while a paced reply is on its way (a courtesy, after commit)."""
    after_commit(session, lambda: message_tasks.send_read_mark(conversation_id, True))
