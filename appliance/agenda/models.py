from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

STATUSES = ("BOOKED", "CANCELLED", "DONE")


class Appointment(SQLModel, table=True):
    """An appointment of the organization's one agenda. `sync_state` says what the connected
    calendar still has to hear (pending) or that it has (None); `provider_event_id` is its event."""
    __tablename__ = "appointments"
    __table_args__ = (Index("ix_appointments_org_start", "organization_id", "start_at", "end_at"),
                      Index("ix_appointments_sync", "organization_id", **partial("sync_state IS NOT NULL")))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    title: str = Field(max_length=200)
    contact_id: str | None = Field(default=None, foreign_key="contacts.id", ondelete="SET NULL")
    conversation_id: str | None = Field(default=None, foreign_key="conversations.id", ondelete="SET NULL")
    assignee_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    start_at: datetime = Field(sa_type=UTCDateTime)
    end_at: datetime = Field(sa_type=UTCDateTime)
    notes: str | None = Field(default=None, max_length=2000)
    status: str = Field(default="BOOKED", max_length=10)
    provider_event_id: str | None = Field(default=None, max_length=200)
    sync_state: str | None = Field(default=None, max_length=10)  # pending | delete (a tombstone) | failed | None (in step)
    sync_error: str | None = Field(default=None, max_length=300)
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class AgendaFeed(SQLModel, table=True):
    """The organization's public ICS feed: only the token's hash is kept; a new token replaces it."""
    __tablename__ = "agenda_feeds"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    token_hash: str = Field(max_length=100, unique=True)
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)


class CalendarConnection(SQLModel, table=True):
    """The organization's Google Calendar: tokens sealed with the keyring, never shown; disconnected
    (by a person or by Google revoking access) keeps the row with the reason and no tokens."""
    __tablename__ = "calendar_connections"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    provider: str = Field(default="GOOGLE", max_length=20)
    connected: bool = False
    account: str | None = Field(default=None, max_length=320)
    access_token_sealed: str | None = Field(default=None, max_length=4000)
    refresh_token_sealed: str | None = Field(default=None, max_length=4000)
    access_expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    push_enabled: bool = True
    block_busy_enabled: bool = True
    last_sync_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, max_length=300)
    connected_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    connected_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
