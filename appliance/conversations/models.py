from datetime import datetime

from sqlalchemy import JSON, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class Conversation(SQLModel, table=True):
    """One per (business phone number, contact); an inbound message on a closed one reopens it.
    `last_inbound_at` opens the 24-hour customer-service window; `awaiting_reply_since` is the
    customer's oldest message no person has answered yet (the SLA clock of the workload panel).

    The inbox lists pinned conversations first, then by last activity: the indexes below serve
    that order for every tab (all, one status, one assignee) without a sort."""

    __tablename__ = "conversations"
    __table_args__ = (UniqueConstraint("phone_number_pk", "contact_id", name="uq_conversations_number_contact"),
                      Index("ix_conversations_org_inbox", "organization_id", "pinned", "last_message_at", "id"),
                      Index("ix_conversations_org_status_inbox", "organization_id", "status", "pinned",
                            "last_message_at", "id"),
                      Index("ix_conversations_org_assignee_inbox", "organization_id", "assignee_user_id", "status",
                            "pinned", "last_message_at", "id"),
                      # Unread counts: grouped by assignee and status in the index's order, covering.
                      Index("ix_conversations_org_unread", "organization_id", "unread", "assignee_user_id", "status",
                            "phone_number_pk"),
                      Index("ix_conversations_snoozed", "snoozed_until", **partial("status = 'snoozed'")),
                      Index("ix_conversations_waiting", "organization_id", "awaiting_reply_since",
                            **partial("awaiting_reply_since IS NOT NULL")))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE", index=True)
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE", index=True)
    status: str = Field(default="open", max_length=20)  # open | closed | snoozed
    # whatsapp, or webchat: a visitor of the business's website (appliance/webchat), in the inbox of
    # the widget's number; no 24-hour window, no templates, answered through the visitor's socket.
    channel: str = Field(default="whatsapp", max_length=10)
    assignee_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    unread: bool = Field(default=False)
    pinned: bool = Field(default=False)
    category: str | None = Field(default=None, max_length=100)
    resolution: str | None = Field(default=None, max_length=100)
    snoozed_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # A person was asked for: automation stays silent until someone returns it to the bot.
    handoff_pending: bool = Field(default=False)
    handoff_reason: str | None = Field(default=None, max_length=200)
    handoff_detail: str | None = Field(default=None, max_length=1000)
    handoff_requested_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    bot_agent_id: str | None = Field(default=None, max_length=36)  # None: the router picks the AI agent
    awaiting_reply_since: datetime | None = Field(default=None, sa_type=UTCDateTime)
    wait_notified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # this wait's e-mail went out (cleared by the answer)
    last_message_at: datetime = Field(sa_type=UTCDateTime)
    preview: str | None = Field(default=None, max_length=200)  # the last message, as the list shows it
    last_inbound_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class ConversationTag(SQLModel, table=True):
    """A tag on a conversation (the tags themselves: appliance/tags)."""

    __tablename__ = "conversation_tags"

    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE", primary_key=True)
    tag_id: str = Field(foreign_key="tags.id", ondelete="CASCADE", primary_key=True, index=True)
    created_at: datetime = Field(sa_type=UTCDateTime)


class ConversationNote(SQLModel, table=True):
    """An internal note: seen by the team, never sent to the customer."""

    __tablename__ = "conversation_notes"
    __table_args__ = (Index("ix_conversation_notes_conversation", "conversation_id", "created_at", "id"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE")
    author_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    body: str = Field(max_length=4000)
    created_at: datetime = Field(sa_type=UTCDateTime)


class InboxSettings(SQLModel, table=True):
    """The organization's inbox settings, one row each; absent keys take the defaults of
    `conversations.inbox_settings`."""

    __tablename__ = "inbox_settings"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    messaging: dict = Field(default_factory=dict, sa_type=JSON)  # read receipts, typing indicator, tabs
    workload: dict = Field(default_factory=dict, sa_type=JSON)  # SLA and staleness thresholds
    notifications: dict = Field(default_factory=dict, sa_type=JSON)  # e-mail when a conversation waits
    updated_at: datetime = Field(sa_type=UTCDateTime)


class InboxActivity(SQLModel, table=True):
    """Hourly counters of the inbox, per organization and person (`user_id` '' for what no person
    did: customers' messages, conversations coming in). Reports read a few hundred of these rows
    instead of scanning messages; writers add to them with one upsert."""

    __tablename__ = "inbox_activity"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    hour: datetime = Field(sa_type=UTCDateTime, primary_key=True)  # UTC, on the hour
    user_id: str = Field(default="", primary_key=True, max_length=36)
    inbound_messages: int = 0
    incoming: int = 0  # conversations that came in: new, or reopened by the customer
    closed: int = 0
    replies: int = 0  # a person's first answer to a waiting customer
    late_replies: int = 0  # ...given after the SLA
    response_seconds: int = 0  # the waits those replies ended, summed
