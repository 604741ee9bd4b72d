"""The server's VAPID key pair, people's browser subscriptions and device tokens, and what each
person wants to be told."""

from datetime import datetime

from sqlalchemy import JSON
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id

TRIGGERS = ("assigned", "customer_message", "handoff", "unanswered")  # what a person may be told


class VapidKey(SQLModel, table=True):
    """One row: made at the first start; the private key sealed with the keyring."""

    __tablename__ = "push_vapid_keys"

    id: int = Field(default=1, primary_key=True)
    public_key: str = Field(max_length=200)  # the application server key browsers subscribe with (base64url)
    private_key_sealed: str = Field(max_length=500)
    created_at: datetime = Field(sa_type=UTCDateTime)


class PushSubscription(SQLModel, table=True):
    """A browser's Web Push subscription (one per browser profile and site)."""

    __tablename__ = "push_subscriptions"

    id: str = Field(default_factory=new_id, primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    endpoint: str = Field(max_length=2000, unique=True)
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)
    user_agent: str | None = Field(default=None, max_length=300)
    created_at: datetime = Field(sa_type=UTCDateTime)
    last_success_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, max_length=300)
    failures: int = 0  # in a row


class PushDevice(SQLModel, table=True):
    """A native app's device token (FCM registration token or APNs device token)."""

    __tablename__ = "push_devices"

    id: str = Field(default_factory=new_id, primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    token: str = Field(max_length=4096, unique=True)
    platform: str = Field(max_length=10)  # IOS | ANDROID
    app_version: str | None = Field(default=None, max_length=40)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
    last_success_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, max_length=300)
    failures: int = 0  # in a row


class PushPreference(SQLModel, table=True):
    """What a person is told (absent: everything)."""

    __tablename__ = "push_preferences"

    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    triggers: list = Field(default_factory=lambda: list(TRIGGERS), sa_type=JSON)
    updated_at: datetime = Field(sa_type=UTCDateTime)
