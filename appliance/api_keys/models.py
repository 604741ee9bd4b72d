from datetime import datetime

from sqlalchemy import JSON
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class ApiKey(SQLModel, table=True):
    """`mk_live_<prefix>.<secret>`: the prefix finds the key, only an HMAC of the secret is kept."""

    __tablename__ = "api_keys"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=100)
    prefix: str = Field(unique=True, max_length=16)
    secret_hash: str = Field(max_length=64)
    scopes: list = Field(default_factory=list, sa_type=JSON)  # empty: the organization's permissions
    phone_number_pks: list = Field(default_factory=list, sa_type=JSON)  # empty: every number
    expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_by: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
