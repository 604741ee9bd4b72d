"""Follow-ups: a customer who stops answering the bot gets, after `followUpAfterMin`, the nudge
(`followUpMessage`, or with followUpMode AI one its AI agent writes: bots/ai_step.py); after
`followUpCloseAfterMin` more, the farewell (`followUpCloseMessage`, empty: none) and the
conversation closes (category `bot_followup`). Only inside the 24-hour window; the
customer writing again, a person writing or taking the conversation cancels them. Each outcome is
logged: FOLLOWUP_SENT, FOLLOWUP_SKIPPED with its reason, FOLLOWUP_CLOSED."""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

from sqlmodel import Session

from appliance.bots import activity, ai_step, replies
from appliance.bots.guards import silence_reason
from appliance.contacts.models import Contact
from appliance.conversations import service as conversations_service
from appliance.conversations.models import Conversation
from appliance.conversations.recording import window_open
from appliance.core import text as bot_text


def run(session: Session, state: SimpleNamespace, conversation: Conversation | None, config: dict | None,
        now: datetime) -> None:
    stage = state.follow_up_stage
    state.follow_up_at, state.follow_up_stage = None, 0
    if conversation is None or stage not in (1, 2):
        return

    def log(kind: str, **detail) -> None:
        activity.record_in(session, conversation, kind, **detail)

    contact = session.get(Contact, conversation.contact_id)
    reason = silence_reason(config, conversation, contact)
    if reason is None and not config["follow_up_enabled"]:
        reason = "follow_up_off"
    if reason is None and conversation.status != "open":
        reason = "conversation_" + conversation.status
    if reason is not None:
        log("FOLLOWUP_SKIPPED", reason=reason, stage="nudge" if stage == 1 else "close")
        return
    in_window = window_open(conversation.last_inbound_at, now)
    if stage == 1:
        if not in_window:
            log("FOLLOWUP_SKIPPED", reason="outside_window", stage="nudge")
        elif config["follow_up_mode"] == "AI":
            refused = ai_step.request_follow_up(session, state, conversation, config, now)
            if refused is not None:  # the AI step logs the nudge it writes (or why it did not) itself
                log("FOLLOWUP_SKIPPED", reason=refused, stage="nudge")
        elif not config["follow_up_message"].strip():
            log("FOLLOWUP_SKIPPED", reason="no_message", stage="nudge")
        else:
            text, _ = bot_text.mask_protected(config["follow_up_message"].strip(), config["protected_values"])
            if replies.deliver(session, conversation, contact, replies.Outgoing(text)):
                log("FOLLOWUP_SENT")
        state.follow_up_at, state.follow_up_stage = now + timedelta(minutes=config["follow_up_close_after_min"]), 2
        return
    farewell = config["follow_up_close_message"].strip()
    sent = False
    if farewell and in_window:
        text, _ = bot_text.mask_protected(farewell, config["protected_values"])
        sent = replies.deliver(session, conversation, contact, replies.Outgoing(text))
    conversations_service.do_set_status(session, actor=replies.bot_actor(conversation.organization_id),
                                        conversation_id=conversation.id, status="closed", category="bot_followup")
    log("FOLLOWUP_CLOSED", farewell=sent, **({"farewellSkipped": "outside_window"} if farewell and not in_window else {}))
