from datetime import datetime

from sqlalchemy import JSON, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class Contact(SQLModel, table=True):
    """A customer of the organization, keyed by their WhatsApp number (`wa_id`) and, where the
    network gives it, their business-scoped user id (`user_id`, e.g. `US.1349...`): from 2026 a
    person with a username may arrive without a phone number."""

    __tablename__ = "contacts"
    __table_args__ = (
        Index("uq_contacts_org_wa_id", "organization_id", "wa_id", unique=True, **partial("wa_id IS NOT NULL")),
        Index("uq_contacts_org_user_id", "organization_id", "user_id", unique=True,
              **partial("user_id IS NOT NULL")),
        Index("ix_contacts_org_created", "organization_id", "created_at", "id"),  # listings, newest first
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    wa_id: str | None = Field(default=None, max_length=20)
    user_id: str | None = Field(default=None, max_length=140)
    name: str | None = Field(default=None, max_length=200)  # set by people; else the profile name shows
    profile_name: str | None = Field(default=None, max_length=200)  # as the network last reported it
    bot_excluded: bool = Field(default=False)  # automation (rules, AI agents) never answers them
    attributes: dict = Field(default_factory=dict, sa_type=JSON)  # the business's own fields (CSV columns...)
    opted_out_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


# Contact lists' tables live beside the contacts: the contact listing filters by membership, and
# contacts import nothing of contact_lists (whose rules, CSV import and routes use these).
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


class OptInRecord(SQLModel, table=True):
    """One consent decision of a contact: IN (agreed to receive messages) or OUT (asked to stop).
    The newest decides; `contacts.opted_out_at` keeps the current answer for the hot paths (the
    bot, broadcasts). Records are history: never changed, deleted with their contact."""
    __tablename__ = "contact_opt_ins"
    __table_args__ = (Index("ix_contact_opt_ins_contact_time", "contact_id", "created_at", "id"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE")
    type: str = Field(max_length=3)  # IN | OUT
    source: str | None = Field(default=None, max_length=100)  # keyword, form, import, api, console...
    channel: str | None = Field(default=None, max_length=50)  # whatsapp, web, sms, in_store...
    payload: dict = Field(default_factory=dict, sa_type=JSON)
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    # Who made it: `user:<id>`, `key:<id>`, `oauth:<id>` (the caller, as Actor.caller_key says) or
    # `keyword` (the customer wrote an opt-out keyword).
    created_by: str = Field(max_length=100)
    created_at: datetime = Field(sa_type=UTCDateTime)
