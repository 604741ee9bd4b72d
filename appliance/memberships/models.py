from datetime import datetime

from sqlalchemy import JSON, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Membership(SQLModel, table=True):
    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("organization_id", "user_id"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    role_id: str = Field(foreign_key="roles.id", ondelete="RESTRICT", index=True)
    waba_pks: list = Field(default_factory=list, sa_type=JSON)  # empty: all business accounts
    preferences: dict = Field(default_factory=dict, sa_type=JSON)
    suspended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
