from datetime import datetime

from sqlalchemy import JSON, Column, ForeignKey, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class ProviderCredential(SQLModel, table=True):
    """How an organization reaches one AI provider: its key (sealed with the keyring, never
    returned) and, for LOCAL or a proxy, the address."""

    __tablename__ = "ai_provider_credentials"

    organization_id: str = Field(sa_column=Column(ForeignKey("organizations.id", ondelete="CASCADE",
                                                             name="fk_ai_provider_credentials_organization_id"),
                                                  primary_key=True))
    provider: str = Field(primary_key=True, max_length=12)
    api_key_sealed: str | None = None
    base_url: str | None = Field(default=None, max_length=500)
    last_error: str | None = None
    last_checked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class BotAgent(SQLModel, table=True):
    """An AI agent: which numbers it serves (none: all), which model speaks for it, what it knows
    (documents and tags; none: the whole library), what it may do (capabilities), and the tags that
    route conversations to it."""

    __tablename__ = "bot_agents"
    __table_args__ = (Index("ix_bot_agents_org", "organization_id", "name"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    name: str = Field(max_length=100)
    phone_number_pks: list = Field(default_factory=list, sa_type=JSON)
    provider: str = Field(max_length=12)
    model: str = Field(max_length=200)
    system_prompt: str = ""
    temperature: float = 0.3
    max_tokens: int = 500
    knowledge_doc_ids: list = Field(default_factory=list, sa_type=JSON)
    knowledge_tags: list = Field(default_factory=list, sa_type=JSON)
    route_tags: list = Field(default_factory=list, sa_type=JSON)
    capabilities: list = Field(default_factory=list, sa_type=JSON)
    is_default: bool = False
    enabled: bool = True
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class AISpendDay(SQLModel, table=True):
    """What an organization's AI calls cost on one of its days (its time zone): the bot's replies,
    the probador and the configurador alike, estimated from tokens and the catalog's prices. A row a
    day keeps the spend caps' check to one short range read (ai_agents/spend.py)."""

    __tablename__ = "ai_spend_days"

    organization_id: str = Field(sa_column=Column(ForeignKey("organizations.id", ondelete="CASCADE",
                                                             name="fk_ai_spend_days_organization_id"),
                                                  primary_key=True))
    day: str = Field(primary_key=True, max_length=10)  # YYYY-MM-DD in the organization's time zone
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
