from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

STATUS_CODES = ("PENDING", "IN_PROCESS", "COMPLETED", "CANCELLED")
UNPAID, PAID = "UNPAID", "PAID"
PAID_VIA = ("LINK", "TRANSFER", "MANUAL")  # the processor's payment link, a transfer a person confirmed, a person
# The keys of an order's licenses: none to deliver, waiting for keys (the pool ran dry) or for the
# customer's window, delivered.
NO_DELIVERY, WAITING, DELIVERED = "NONE", "WAITING", "DELIVERED"


class Order(SQLModel, table=True):
    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_org_created", "organization_id", "created_at", "id"),
                      Index("ix_orders_org_status_created", "organization_id", "status_code", "created_at", "id"),
                      Index("ix_orders_payment_link", "payment_link_id", **partial("payment_link_id IS NOT NULL")),
                      Index("ix_orders_waiting_delivery", "organization_id", **partial("delivery_status = 'WAITING'")))

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
    # Its payment (orders/payments.py): unpaid until a payment link's transaction is approved, a
    # person confirms a transfer, or marks it paid; then the sale is completed once.
    payment_status: str = Field(default=UNPAID, max_length=8)
    paid_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    paid_via: str | None = Field(default=None, max_length=10)
    payment_reference: str | None = Field(default=None, max_length=100)  # the processor's transaction
    paid_by_user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    payment_link_id: str | None = Field(default=None, max_length=100)
    payment_link_url: str | None = Field(default=None, max_length=500)
    receipt_message_id: str | None = Field(default=None, max_length=36)  # a transfer's picture the customer sent
    delivery_status: str = Field(default=NO_DELIVERY, max_length=10)
    delivery_note: str | None = Field(default=None, max_length=40)  # why it waits: no_keys, window_closed, ...
    delivered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class SalesSettings(SQLModel, table=True):
    """How an organization delivers its sales: the approved template that carries license keys when
    the customer's 24-hour window has closed (its body takes the keys, after the product's name
    when it has two variables). None: such a delivery waits for the customer to write."""
    __tablename__ = "sales_settings"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    delivery_template_name: str | None = Field(default=None, max_length=512)
    delivery_template_language: str | None = Field(default=None, max_length=15)
    updated_at: datetime = Field(sa_type=UTCDateTime)
