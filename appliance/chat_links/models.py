from datetime import datetime

from sqlalchemy import JSON, BigInteger, Column, Index, Integer
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class ChatLink(SQLModel, table=True):
    __tablename__ = "chat_links"
    __table_args__ = (Index("ix_chat_links_org_created", "organization_id", "created_at"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    slug: str = Field(max_length=8, unique=True)  # the public address's last part
    name: str = Field(max_length=120)
    campaign_tag: str | None = Field(default=None, max_length=60)
    prefilled_message: str | None = Field(default=None, max_length=1000)
    link_metadata: dict = Field(default_factory=dict, sa_type=JSON)  # `metadata` on the wire
    wa_me_url: str = Field(max_length=3200)  # where the short address sends people (the number's wa.me, the text)
    archived: bool = False
    created_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class LinkClick(SQLModel, table=True):
    """One person following a chat link (link previews and crawlers are not recorded)."""

    __tablename__ = "chat_link_clicks"
    __table_args__ = (Index("ix_chat_link_clicks_link_at", "link_id", "clicked_ms"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    link_id: str = Field(foreign_key="chat_links.id", ondelete="CASCADE")
    clicked_ms: int = Field(sa_column=Column(BigInteger, nullable=False))  # epoch ms
    referrer_host: str | None = Field(default=None, max_length=120)
    agent_family: str = Field(max_length=20)  # android, iphone, windows, mac, linux, other
    visitor: str = Field(max_length=16)  # a keyed hash of the address and the day: unique clicks, no address kept
