from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class BusinessAccount(SQLModel, table=True):
    """A WhatsApp Business Account (WABA) connected to an organization. Its access token and app
    secret are sealed (AES-GCM) and never leave the appliance; the webhook verify token is kept
    only as an HMAC (it is only ever compared)."""

    __tablename__ = "wabas"
    # Connected to one organization at a time; a disconnected account keeps its row (and its
    # conversations' history) and may be connected again.
    __table_args__ = (Index("uq_wabas_connected_waba_id", "waba_id", unique=True,
                            **partial("disconnected_at IS NULL")),)  # 0056

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    waba_id: str = Field(max_length=40, index=True)  # the network's id
    name: str = Field(max_length=100)
    access_token_sealed: str = Field(max_length=4000)
    app_secret_sealed: str = Field(max_length=500)
    verify_token_hash: str | None = Field(default=None, max_length=64, index=True)
    sandbox: bool = Field(default=False)  # the built-in simulator's demo account
    needs_reauth_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # set by a 190 answer only
    disconnected_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_by: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class WebhookSetup(SQLModel, table=True):
    """What Meta needs to deliver an organization's webhooks, and what it last did: the verify token
    (made once, stable until rotated; sealed to be shown again, and its HMAC to find it), when Meta
    verified the callback with it, its last signed delivery and its last refused one."""

    __tablename__ = "webhook_setups"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    verify_token_sealed: str = Field(max_length=500)
    verify_token_hash: str = Field(max_length=64, unique=True)
    verified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_delivery_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_rejected_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    rotated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
