"""conversation.unanswered, timed per webhook: each minute, the conversations whose customer has
waited the webhook's threshold (`unansweredThresholdMinutes`) without a person's reply. The clock is
the conversation's `awaiting_reply_since`, which only a person's reply stops: bot replies,
auto-replies, templates and integrations' messages do not. Once per waiting spell and webhook
(`webhook_unanswered_marks`); spells that crossed the threshold before the webhook existed are not
announced (a new webhook would otherwise start with last month's backlog)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, select

from appliance.conversations.models import Conversation
from appliance.core import clock, events
from appliance.core.rows import insert_many
from appliance.core.ids import new_id
from appliance.outbound_webhooks import deliveries
from appliance.outbound_webhooks.models import OutboundWebhook, UnansweredMark

BATCH = 500  # conversations per webhook and minute; the rest come the next minute


def check(session: Session, now: datetime) -> int:
    """Write the due conversation.unanswered deliveries; answers how many (the caller wakes the
    sender once they are committed: tasks.py)."""
    rows = []
    for webhook in session.exec(select(OutboundWebhook).where(OutboundWebhook.active.is_(True))).all():
        if events.CONVERSATION_UNANSWERED not in webhook.events:
            continue
        threshold = timedelta(minutes=webhook.unanswered_threshold_minutes)
        query = (select(Conversation.id, Conversation.phone_number_pk, Conversation.contact_id, Conversation.status,
                        Conversation.assignee_user_id, Conversation.awaiting_reply_since)
                 .where(Conversation.organization_id == webhook.organization_id,
                        Conversation.awaiting_reply_since <= now - threshold,
                        Conversation.awaiting_reply_since >= webhook.created_at - threshold)
                 .where(Conversation.id.not_in(select(UnansweredMark.conversation_id).where(
                     UnansweredMark.webhook_id == webhook.id,
                     UnansweredMark.waiting_since == Conversation.awaiting_reply_since)))
                 .order_by(Conversation.awaiting_reply_since).limit(BATCH))
        if webhook.phone_number_ids:
            query = query.where(Conversation.phone_number_pk.in_(webhook.phone_number_ids))
        due = session.exec(query).all()
        if not due:
            continue
        insert_many(session, UnansweredMark.__table__, [
            {"webhook_id": webhook.id, "conversation_id": c[0], "waiting_since": c[5], "created_at": now} for c in due])
        locale = deliveries.organization_locale(session, webhook.organization_id)
        for conversation_id, number, contact, status, assignee, since in due:
            data = {"conversationId": conversation_id, "phoneNumberId": number, "contactId": contact, "status": status,
                    "assigneeUserId": assignee, "waitingSince": clock.iso(since),
                    "minutes": int((now - since).total_seconds() // 60)}
            rows += deliveries.delivery_rows([webhook], event_id=new_id(), event_type=events.CONVERSATION_UNANSWERED,
                                             created_at=now, data=data, locale=locale, now=now)
    deliveries.insert(session, rows)
    return len(rows)
