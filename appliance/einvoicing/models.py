from datetime import datetime

from sqlalchemy import JSON, Index
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id

PENDING, ISSUED, REJECTED = "PENDING", "ISSUED", "REJECTED"
STATUSES = (PENDING, ISSUED, REJECTED)


class InvoicingAccount(SQLModel, table=True):
    """An organization's account at its e-invoicing provider (Factus: an OAuth client and a user),
    its secrets sealed; the numbering range and the tax rate its invoices use."""
    __tablename__ = "invoicing_accounts"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    provider: str = Field(default="FACTUS", max_length=20)
    url: str = Field(max_length=300)
    client_id: str = Field(max_length=200)
    client_secret_sealed: str = Field(max_length=1000)
    username: str = Field(max_length=254)
    password_sealed: str = Field(max_length=1000)
    numbering_range_id: int | None = None
    tax_rate: str = Field(default="19.00", max_length=6)  # IVA included in the prices, per item
    updated_at: datetime = Field(sa_type=UTCDateTime)


class ElectronicInvoice(SQLModel, table=True):
    """An order's electronic invoice: PENDING while the provider has not answered (tried again
    with a growing delay), ISSUED with its number, CUFE and PDF, or REJECTED with the provider's
    (DIAN's) reason. One per order; a rejected one is asked again with corrected data."""
    __tablename__ = "electronic_invoices"
    __table_args__ = (Index("ix_electronic_invoices_pending", "next_attempt_at", **partial("status = 'PENDING'")),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    order_id: str = Field(foreign_key="orders.id", ondelete="CASCADE", unique=True)
    status: str = Field(default=PENDING, max_length=10)
    customer: dict = Field(default_factory=dict, sa_type=JSON)
    number: str | None = Field(default=None, max_length=40)
    cufe: str | None = Field(default=None, max_length=200)
    qr_url: str | None = Field(default=None, max_length=1000)
    has_pdf: bool = False
    reason: str | None = Field(default=None, max_length=1000)
    attempts: int = 0
    next_attempt_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    issued_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
