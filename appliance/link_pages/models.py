from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class LinkPage(SQLModel, table=True):
    __tablename__ = "link_pages"

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    handle: str = Field(max_length=40, unique=True)  # the public address: /link-pages/p/{handle}
    title: str = Field(max_length=120)
    description: str | None = Field(default=None, max_length=500)
    published: bool = False
    views: int = 0
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class LinkPageItem(SQLModel, table=True):
    """A button of the page: an address, or one of the organization's chat links."""

    __tablename__ = "link_page_items"
    __table_args__ = (Index("ix_link_page_items_page_position", "page_id", "position"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    page_id: str = Field(foreign_key="link_pages.id", ondelete="CASCADE")
    position: int
    label: str = Field(max_length=80)
    url: str | None = Field(default=None, max_length=2000)
    chat_link_id: str | None = Field(default=None, foreign_key="chat_links.id", ondelete="SET NULL")
    clicks: int = 0
