"""Broadcasts: one template sent to an audience from one number, and a row per recipient.

A recipient's delivery state is its message's (sent, delivered, read, failed: the messages table is
the send queue and the statuses land there), so nothing is kept twice; the recipient keeps what
only it knows: why it was skipped, which message carries it now (retry-failed points it at a new
one), when it was sent and when the customer replied."""

from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class Broadcast(SQLModel, table=True):
    __tablename__ = "broadcasts"
    __table_args__ = (
        Index("ix_broadcasts_org_created", "organization_id", "created_at", "id"),
        Index("ix_broadcasts_due", "status", "scheduled_at"),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    name: str = Field(max_length=120)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE", index=True)
    # The template as chosen (name and language kept: a template deleted at the network leaves the
    # broadcast readable, and paused with the reason if it was still running).
    template_id: str | None = Field(default=None, foreign_key="templates.id", ondelete="SET NULL")
    template_name: str = Field(max_length=512)
    template_language: str = Field(max_length=15)
    variables: dict | list | None = Field(default=None, sa_type=JSON)  # as POST /messages, with {{contact...}}
    audience: dict = Field(default_factory=dict, sa_type=JSON)  # {contactListIds, contactIds} as asked
    status: str = Field(max_length=12)  # SCHEDULED | RUNNING | PAUSED | COMPLETED | CANCELLED
    paused_reason: str | None = Field(default=None, max_length=60)
    paused_detail: str | None = Field(default=None, max_length=500)
    scheduled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    completed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BroadcastRecipient(SQLModel, table=True):
    __tablename__ = "broadcast_recipients"
    __table_args__ = (
        # The runner's next recipients: those of a broadcast without a message yet, in order.
        Index("ix_broadcast_recipients_waiting", "broadcast_id", "id",
              **partial("message_id IS NULL AND skipped_reason IS NULL")),
        Index("ix_broadcast_recipients_broadcast", "broadcast_id", "id"),
        Index("ix_broadcast_recipients_message", "message_id", unique=True, **partial("message_id IS NOT NULL")),
        # Reply attribution: a contact's recent, unreplied broadcasts.
        Index("ix_broadcast_recipients_reply", "contact_id", "sent_at", **partial("replied_at IS NULL")),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    broadcast_id: str = Field(foreign_key="broadcasts.id", ondelete="CASCADE")
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE")
    wa_id: str = Field(max_length=20)
    skipped_reason: str | None = Field(default=None, max_length=20)  # opted_out | duplicate | invalid_number | not_on_whatsapp
    message_id: str | None = Field(default=None, foreign_key="messages.id", ondelete="SET NULL")
    attempts: int = Field(default=0)  # messages made for it (retry-failed adds one)
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    replied_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
