from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class BotConfig(SQLModel, table=True):
    """One number's bot as its owner saved it. `enabled` and `mode` are columns (the engine looks
    for enabled bots); every other field is in `settings`, over the defaults of bots/config.py, so
    a field added later needs no migration and a stored row never lacks one."""

    __tablename__ = "bot_configs"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE", unique=True)
    enabled: bool = False
    mode: str = Field(default="OFF", max_length=30)
    settings: dict = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BotRule(SQLModel, table=True):
    """A keyword rule: when a customer's words match, the bot replies and/or acts. Lower
    `priority` is tried first; the first match wins."""

    __tablename__ = "bot_rules"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=100)
    phone_number_pks: list = Field(default_factory=list, sa_type=JSON)  # empty: every number
    keywords: list = Field(default_factory=list, sa_type=JSON)
    match_type: str = Field(default="CONTAINS", max_length=20)
    reply: str = ""
    action: str = Field(default="NONE", max_length=20)
    flow_id: str | None = Field(default=None, max_length=36)
    tag_id: str | None = Field(default=None, foreign_key="tags.id", ondelete="SET NULL")
    priority: int = 100
    enabled: bool = True
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BotActivity(SQLModel, table=True):
    """What a bot decided, one row per decision (replied, handed off, skipped and why, failed):
    nothing the automation does is silent."""

    __tablename__ = "bot_activity"
    __table_args__ = (Index("ix_bot_activity_org_created", "organization_id", "created_at", "id"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    kind: str = Field(max_length=40)
    phone_number_pk: str | None = Field(default=None, foreign_key="phone_numbers.id", ondelete="SET NULL")
    conversation_id: str | None = Field(default=None, foreign_key="conversations.id", ondelete="SET NULL", index=True)
    detail: dict = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)
