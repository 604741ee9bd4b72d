from datetime import datetime

from sqlalchemy import JSON, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class WebchatWidget(SQLModel, table=True):
    """A chat box on one of the business's websites. Its conversations join the inbox of
    `phone_number_pk` (who sees them follows the members' scope, as for that number's WhatsApp
    conversations). `website_token` is public (it is in the page's snippet); the identity secret is
    not: the website signs its signed-in users' identifiers with it (HMAC-SHA256), sealed here."""

    __tablename__ = "webchat_widgets"
    __table_args__ = (Index("uq_webchat_widgets_token", "website_token", unique=True),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    name: str = Field(max_length=100)
    allowed_origins: list = Field(default_factory=list, sa_type=JSON)  # ["https://shop.example", ...]
    greeting: str | None = Field(default=None, max_length=500)
    pre_chat_fields: list = Field(default_factory=list, sa_type=JSON)  # [{"field": "email", "required": true}]
    enforce_identity: bool = Field(default=False)
    offline_email: str | None = Field(default=None, max_length=254)  # else the organization's owners
    website_token: str = Field(max_length=40)
    identity_secret_sealed: str = Field(max_length=200)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class WebchatVisitor(SQLModel, table=True):
    """A person chatting through a widget: their contact (no WhatsApp number; `user_id` is
    `wc:<this id>`), the hash of the token their browser keeps to come back, and, when the website
    vouched for them with the identity secret, its identifier (one visitor per identifier)."""

    __tablename__ = "webchat_visitors"
    __table_args__ = (UniqueConstraint("widget_id", "identifier", name="uq_webchat_visitors_identifier"),
                      Index("uq_webchat_visitors_token", "token_hash", unique=True,
                            **partial("token_hash IS NOT NULL")))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    widget_id: str = Field(foreign_key="webchat_widgets.id", ondelete="CASCADE", index=True)
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE")
    token_hash: str | None = Field(default=None, max_length=64)
    identifier: str | None = Field(default=None, max_length=200)
    email: str | None = Field(default=None, max_length=254)
    last_seen_at: datetime = Field(sa_type=UTCDateTime)
    offline_mailed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # the last offline mail
    created_at: datetime = Field(sa_type=UTCDateTime)
