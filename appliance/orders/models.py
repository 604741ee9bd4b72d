from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id

STATUS_CODES = ("PENDING", "IN_PROCESS", "COMPLETED", "CANCELLED")


class Order(SQLModel, table=True):
    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_org_created", "organization_id", "created_at", "id"),
                      Index("ix_orders_org_status_created", "organization_id", "status_code", "created_at", "id"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    message_id: str = Field(foreign_key="messages.id", ondelete="CASCADE", unique=True)
    conversation_id: str = Field(foreign_key="conversations.id", ondelete="CASCADE")
    contact_id: str = Field(foreign_key="contacts.id", ondelete="CASCADE")
    phone_number_pk: str = Field(foreign_key="phone_numbers.id", ondelete="CASCADE")
    catalog_id: str | None = Field(default=None, max_length=100)
    items: list = Field(default_factory=list, sa_type=JSON)  # [{productRetailerId, quantity, itemPrice, currency}]
    note: str | None = Field(default=None, max_length=1000)  # the customer's text with the cart
    total: str = Field(max_length=30)  # a decimal as text: money is never a float
    currency: str | None = Field(default=None, max_length=3)
    status_code: str = Field(default="PENDING", max_length=12)
    status_note: str | None = Field(default=None, max_length=500)
    customer_notified: bool | None = None  # the last status change: told the customer? None: not asked
    not_notified_reason: str | None = Field(default=None, max_length=40)
    status_changed_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
