from datetime import datetime

from sqlalchemy import JSON, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Role(SQLModel, table=True):
    __tablename__ = "roles"
    __table_args__ = (UniqueConstraint("organization_id", "key"), UniqueConstraint("organization_id", "name"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    key: str = Field(max_length=60)  # owner, admin, supervisor, agent, or custom-<slug>
    name: str = Field(max_length=60)
    description: str = Field(default="", max_length=300)
    system: bool = False
    permissions: list = Field(default_factory=list, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
