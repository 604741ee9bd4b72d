"""Shift reminders' tables: the organization's choices, and each reminder sent."""

from datetime import datetime

from sqlalchemy import JSON, BigInteger, Column, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime

CHANNELS = ("email", "push", "inbox")
EVENTS = ("shiftStart", "shiftEnd", "missedStart")


class ShiftReminderSettings(SQLModel, table=True):
    __tablename__ = "shift_reminder_settings"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    enabled: bool = False
    channels: dict = Field(default_factory=lambda: {"email": True, "push": True, "inbox": True}, sa_type=JSON)
    events: dict = Field(default_factory=lambda: {"shiftStart": True, "shiftEnd": True, "missedStart": True}, sa_type=JSON)
    shift_start_lead_min: int = 10
    shift_end_lead_min: int = 10
    updated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class ShiftReminder(SQLModel, table=True):
    """A reminder sent (once per person, day, shift and kind): what the inbox shows and what stops a
    second one."""

    __tablename__ = "shift_reminders"
    __table_args__ = (Index("ix_shift_reminders_user_sent", "user_id", "sent_at"),)

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    shift_start_ms: int = Field(sa_column=Column(BigInteger, primary_key=True))  # which shift of the day
    kind: str = Field(max_length=12, primary_key=True)  # shiftStart | shiftEnd | missedStart | test
    channels: list = Field(default_factory=list, sa_type=JSON)  # where it went
    text: str = Field(max_length=300)
    sent_at: datetime = Field(sa_type=UTCDateTime)
    seen_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
