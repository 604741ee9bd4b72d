from datetime import datetime

from sqlalchemy import JSON, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class Message(SQLModel, table=True):
    """A message of a conversation, either way. `wamid` is the network's id: inbound deliveries
    are idempotent by it. `payload` is the type's object as the network shapes it.

    An outbound message is its own queue entry: `send_state` is `queued` until the number's sender
    claims it (`inflight`) and empty once the network answered (sent or failed), so a crash loses
    nothing and the restart knows which sends were in the air."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("uq_messages_wamid", "wamid", unique=True, **partial("wamid IS NOT NULL")),
        Index("ix_messages_conversation_time", "conversation_id", "created_at", "id"),
        Index("uq_messages_org_client_id", "organization_id", "client_id", unique=True,
              **partial("client_id IS NOT NULL")),
        # The send queue: outbound messages not yet answered by the network, per number in order,
        # and per recipient (a recipient's next message waits for the one before).
        Index("ix_messages_send_queue", "phone_number_pk", "id", **partial("send_state IS NOT NULL")),
        Index("ix_messages_send_recipient", "phone_number_pk", "customer_wa_id", "id",
              **partial("send_state IS NOT NULL")),
        # The sends that failed, per organization in time: the console's home counts the last day's.
        Index("ix_messages_failed", "organization_id", "created_at", **partial("status = 'failed'")),
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
    customer_wa_id: str | None = Field(default=None, max_length=40)  # the other side: `to` of outbound, `from` of inbound
    client_id: str | None = Field(default=None, max_length=100)  # the caller's id: a repeat answers the first message
    reply_to_message_id: str | None = Field(default=None, max_length=36)  # our id of the quoted message
    sent_by: str | None = Field(default=None, max_length=10)  # out: bot | user | api (a person's reply or not)
    sent_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    hidden: bool = Field(default=False)  # a tombstone: hidden from the thread, restorable
    edited_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    search_rowid: int | None = Field(default=None)  # its row in the full-text index (fts_messages), if it has text
    send_state: str | None = Field(default=None, max_length=10)  # queued | inflight | None (answered)
    send_attempts: int = Field(default=0)
    next_attempt_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    sent_at: datetime = Field(sa_type=UTCDateTime)  # the network's timestamp (inbound) or our send time
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class MessageReaction(SQLModel, table=True):
    """An agent's (or key's) reaction to a message: one per author per message, replaced by the
    next; sent to the network as a `reaction` message."""

    __tablename__ = "message_reactions"
    __table_args__ = (UniqueConstraint("message_id", "author", name="uq_message_reactions_author"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    message_id: str = Field(foreign_key="messages.id", ondelete="CASCADE")
    author: str = Field(max_length=60)  # user:<id> or key:<id>
    emoji: str = Field(max_length=32)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class UploadedMedia(SQLModel, table=True):
    """A file uploaded to the network to be sent by id; a copy stays under DATA_DIR/media so the
    proxy serves it without asking the network."""

    __tablename__ = "uploaded_media"
    __table_args__ = (UniqueConstraint("phone_number_pk", "media_id", name="uq_uploaded_media_number_media"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    media_id: str = Field(max_length=100)  # the network's
    mime_type: str = Field(max_length=100)
    size: int
    filename: str | None = Field(default=None, max_length=255)
    sha256: str = Field(max_length=64)
    created_at: datetime = Field(sa_type=UTCDateTime)
