from datetime import datetime

from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: str = Field(default_factory=new_id, primary_key=True)
    email: str = Field(unique=True, max_length=254)  # stored lower-cased
    name: str = Field(max_length=100)
    password_hash: str
    locale: str = Field(default="en", max_length=10)
    timezone: str = Field(default="UTC", max_length=64)
    email_verified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # The person who ran the first-run setup: sets what belongs to the installation, not to one
    # organization (the mail server). Anyone may sign up and own an organization; not this.
    installation_admin: bool = Field(default=False)
    # TOTP seed sealed with the keyring; `totp_pending_secret` holds a seed between setup and enable.
    totp_secret: str | None = None
    totp_pending_secret: str | None = None
    # Last accepted TOTP time step: a code is accepted only for a later step (no replay).
    totp_last_step: int | None = None
    two_factor_enabled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    password_changed_at: datetime = Field(sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    @property
    def two_factor_enabled(self) -> bool:
        return self.two_factor_enabled_at is not None
