"""Outbound webhooks: where an organization wants its events, each event's delivery to each of
them, and every attempt of a delivery.

A delivery is one event for one webhook: its body is frozen when the event is fanned out (what the
receiver gets on the eighth attempt is what it would have got on the first, signed anew each
time). `attempt` counts the attempts made; `in_flight_since` is set while one is out, so an attempt
a crash cut short is found at the next start, logged as interrupted and made again."""

from datetime import datetime

from sqlalchemy import JSON, Column, Index, Integer, Text
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

# Delivery states. PENDING: not tried yet; RETRYING: tried, next attempt at next_attempt_at;
# DELIVERED: a 2xx; FAILED: given up (the schedule ran out, or the receiver answered 410).
PENDING, RETRYING, DELIVERED, FAILED = "PENDING", "RETRYING", "DELIVERED", "FAILED"
# A delivery waiting for the sender: undelivered and not in the air. The sender's queries use this
# very text, so SQLite sees they match the partial index below (migration 0045 wrote it out).
WAITING = f"status IN ('{PENDING}', '{RETRYING}') AND in_flight_since IS NULL"


class OutboundWebhook(SQLModel, table=True):
    __tablename__ = "outbound_webhooks"
    __table_args__ = (Index("ix_outbound_webhooks_org", "organization_id", "created_at"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    url: str = Field(max_length=2000)
    events: list = Field(default_factory=list, sa_type=JSON)
    format: str = Field(max_length=10)  # GENERIC | TEAMCHAT
    active: bool = True
    unanswered_threshold_minutes: int = 2
    phone_number_ids: list = Field(default_factory=list, sa_type=JSON)  # empty: every number
    agent_statuses: list = Field(default_factory=list, sa_type=JSON)  # empty: every transition
    secret_sealed: str = Field(max_length=200)
    # Health: consecutive failed attempts, since when, why it was turned off by us (410), and when
    # its creator was told it has been failing for a day.
    failure_count: int = 0
    failing_since: datetime | None = Field(default=None, sa_type=UTCDateTime)
    disabled_reason: str | None = Field(default=None, max_length=200)
    owner_notified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_delivery_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class WebhookDelivery(SQLModel, table=True):
    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_log", "webhook_id", "id"),
        # The sender's work: each webhook's undelivered deliveries not in the air, oldest first (a
        # busy webhook has hundreds in the air, which every pass read past when they were in it:
        # 0.76 ms of a pass's 2.2 ms at 1,000 deliveries a second).
        Index("ix_webhook_deliveries_waiting", "webhook_id", "id", **partial(WAITING)),
        Index("ix_webhook_deliveries_prune", "created_at"),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    webhook_id: str = Field(foreign_key="outbound_webhooks.id", ondelete="CASCADE")
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    event_id: str = Field(max_length=40)  # the envelope's id and the webhook-id header: one per event
    event_type: str = Field(max_length=60)
    # Events of one conversation reach a webhook one at a time, in order; others go side by side.
    ordering_key: str | None = Field(default=None, max_length=40)
    request_body: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(max_length=10)
    attempt: int = 0
    next_attempt_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    in_flight_since: datetime | None = Field(default=None, sa_type=UTCDateTime)
    response_status: int | None = None
    response_body: str | None = Field(default=None, max_length=2048)
    duration_ms: int | None = None
    error: str | None = Field(default=None, max_length=300)
    created_at: datetime = Field(sa_type=UTCDateTime)
    delivered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class WebhookAttempt(SQLModel, table=True):
    __tablename__ = "webhook_attempts"
    __table_args__ = (Index("ix_webhook_attempts_delivery", "delivery_id", "number"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    delivery_id: str = Field(foreign_key="webhook_deliveries.id", ondelete="CASCADE")
    number: int  # 1 for the first attempt
    outcome: str = Field(max_length=12)  # delivered | failed | interrupted
    started_at: datetime = Field(sa_type=UTCDateTime)
    duration_ms: int | None = None
    response_status: int | None = None
    response_body: str | None = Field(default=None, max_length=2048)
    error: str | None = Field(default=None, max_length=300)
    request_headers: dict | None = Field(default=None, sa_type=JSON)  # without the signature


class UnansweredMark(SQLModel, table=True):
    """A conversation's waiting spell already announced to a webhook (conversation.unanswered goes
    once per spell: the spell is the customer's oldest unanswered message, `waiting_since`)."""

    __tablename__ = "webhook_unanswered_marks"

    webhook_id: str = Field(foreign_key="outbound_webhooks.id", ondelete="CASCADE", primary_key=True)
    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE", primary_key=True)
    waiting_since: datetime = Field(sa_type=UTCDateTime, primary_key=True)
    created_at: datetime = Field(sa_type=UTCDateTime, index=True)
