from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class QuickReply(SQLModel, table=True):
    __tablename__ = "quick_replies"
    __table_args__ = (UniqueConstraint("organization_id", "shortcut_key", name="uq_quick_replies_org_shortcut"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    shortcut: str = Field(max_length=40)
    shortcut_key: str = Field(max_length=40)  # casefolded: /Horario and /horario are one shortcut
    text: str
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
