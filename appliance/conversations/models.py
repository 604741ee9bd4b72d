from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Conversation(SQLModel, table=True):
    """One per (business phone number, contact); an inbound message on a closed one reopens it.
    `last_inbound_at` opens the 24-hour customer-service window."""

    __tablename__ = "conversations"
    __table_args__ = (UniqueConstraint("phone_number_pk", "contact_id", name="uq_conversations_number_contact"),
                      Index("ix_conversations_org_recent", "organization_id", "last_message_at", "id"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE", index=True)
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE", index=True)
    status: str = Field(default="open", max_length=20)  # open | closed | snoozed
    assignee_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    unread: bool = Field(default=False)
    pinned: bool = Field(default=False)
    last_message_at: datetime = Field(sa_type=UTCDateTime)
    last_inbound_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
