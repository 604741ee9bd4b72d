from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class ContactList(SQLModel, table=True):
    """A named set of contacts (an audience for broadcasts, an import's destination)."""

    __tablename__ = "contact_lists"
    __table_args__ = (UniqueConstraint("organization_id", "name", name="uq_contact_lists_org_name"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=100)
    description: str | None = Field(default=None, max_length=500)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class ContactListMember(SQLModel, table=True):
    __tablename__ = "contact_list_members"

    list_id: str = Field(foreign_key="contact_lists.id", ondelete="CASCADE", primary_key=True)
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE", primary_key=True, index=True)
    added_at: datetime = Field(sa_type=UTCDateTime)
