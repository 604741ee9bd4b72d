from datetime import datetime

from sqlalchemy import JSON, Index, text
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Message(SQLModel, table=True):
    """A message of a conversation, either way. `wamid` is the network's id: inbound deliveries
    are idempotent by it. `payload` is the type's object as the network shapes it."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("uq_messages_wamid", "wamid", unique=True, sqlite_where=text("wamid IS NOT NULL")),
        Index("ix_messages_conversation_time", "conversation_id", "created_at", "id"),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE")
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE")
    direction: str = Field(max_length=3)  # in | out
    wamid: str | None = Field(default=None, max_length=200)
    type: str = Field(max_length=30)
    payload: dict = Field(default_factory=dict, sa_type=JSON)
    status: str = Field(max_length=20)  # in: received; out: pending | sent | delivered | read | failed
    sent_from: str | None = Field(default=None, max_length=20)  # business_app: an echo of a coexistence number
    reply_to_wamid: str | None = Field(default=None, max_length=200)
    error_code: int | None = Field(default=None)
    error_title: str | None = Field(default=None, max_length=200)
    error_details: str | None = Field(default=None, max_length=1000)
    media_id: str | None = Field(default=None, max_length=100)  # the network's media id
    media_status: str | None = Field(default=None, max_length=20)  # pending | stored | failed
    media_mime_type: str | None = Field(default=None, max_length=100)
    media_size: int | None = Field(default=None)
    media_attempts: int = Field(default=0)
    sent_at: datetime = Field(sa_type=UTCDateTime)  # the network's timestamp (inbound) or our send time
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
