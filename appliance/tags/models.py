from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class Tag(SQLModel, table=True):
    """A label the team puts on conversations ("VIP", "invoice"); names are unique per organization
    regardless of case."""

    __tablename__ = "tags"
    __table_args__ = (UniqueConstraint("organization_id", "name_key", name="uq_tags_org_name"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    name: str = Field(max_length=60)
    name_key: str = Field(max_length=60)  # casefolded name: "VIP" and "vip" are one tag
    color: str = Field(default="#64748b", max_length=7)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
