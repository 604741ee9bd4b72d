from datetime import datetime

from sqlalchemy import BigInteger, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

GOODS, LICENSE = "GOODS", "LICENSE"
KINDS = (GOODS, LICENSE)


class Product(SQLModel, table=True):
    """Something the business sells: goods it ships, or a license whose keys (LicenseKey) are
    delivered over WhatsApp when the order is paid. `retailer_id` is the product's id in Meta's
    catalog and in the customers' carts (an order's productRetailerId)."""
    __tablename__ = "products"
    __table_args__ = (UniqueConstraint("organization_id", "retailer_id", name="uq_products_retailer"),
                      Index("ix_products_organization", "organization_id", "name", "id"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    retailer_id: str = Field(max_length=100)
    name: str = Field(max_length=150)
    description: str = Field(default="", max_length=5000)
    price_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    currency: str = Field(max_length=3)
    image_url: str | None = Field(default=None, max_length=1000)
    url: str | None = Field(default=None, max_length=1000)
    available: bool = True
    kind: str = Field(default=GOODS, max_length=10)
    low_stock_at: int = 5  # a LICENSE's keys left at or below this: the stock is shown as low
    synced_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # pushed to Meta's catalog
    meta_catalog_id: str | None = Field(default=None, max_length=40)  # which one (product messages name it)
    sync_error: str | None = Field(default=None, max_length=300)  # Meta's reason, when the push failed
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class LicenseKey(SQLModel, table=True):
    """One key of a LICENSE product, sealed at rest; `key_hash` (SHA-256 of the key as written,
    trimmed) refuses the same key twice in a product. Assigned to one order at most, once: an
    assignment is a conditional write (only where `order_id` is empty), so two payments never get
    the same key; `assigned_at` stays when the order is gone (a conversation deleted), so a key
    given out is never given again. A replaced key keeps its order and says so (`replaced_at`)."""
    __tablename__ = "license_keys"
    __table_args__ = (UniqueConstraint("product_id", "key_hash", name="uq_license_keys_product_hash"),
                      Index("ix_license_keys_available", "product_id", "id", **partial("assigned_at IS NULL")),
                      Index("ix_license_keys_order", "order_id", **partial("order_id IS NOT NULL")))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    product_id: str = Field(foreign_key="products.id", ondelete="CASCADE")
    key_sealed: str = Field(max_length=2000)
    key_hash: str = Field(max_length=64)
    order_id: str | None = Field(default=None, foreign_key="orders.id", ondelete="SET NULL")
    assigned_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    replaced_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    replaced_reason: str | None = Field(default=None, max_length=300)
    created_at: datetime = Field(sa_type=UTCDateTime)
