from datetime import datetime

from sqlalchemy import BigInteger, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime, partial
from appliance.core.ids import new_id


class BillingAccount(SQLModel, table=True):
    """An organization's billing periods: they start at `anchor_at` and follow one another by the
    organization's interval; an interval change waits for the end of the period paid
    (`next_interval` from `next_interval_from`)."""
    __tablename__ = "billing_accounts"

    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", primary_key=True)
    anchor_at: datetime = Field(sa_type=UTCDateTime)
    next_interval: str | None = Field(default=None, max_length=10)
    next_interval_from: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class WalletEntry(SQLModel, table=True):
    """One movement of a wallet (the paying organization's: a billing group's children use the
    parent's). Credits are positive, debits negative, in the currency's minor units. (source,
    reference) is unique per wallet: the same top-up, report or proration is never counted twice."""
    __tablename__ = "wallet_entries"
    __table_args__ = (
        UniqueConstraint("organization_id", "source", "reference", name="uq_wallet_entries_source_reference"),
        Index("ix_wallet_entries_organization", "organization_id", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    currency: str = Field(max_length=3)
    source: str = Field(max_length=20)  # PAYMENT_REPORT, ADDON, ...
    reference: str = Field(max_length=120)
    description: str = Field(max_length=200)
    for_organization_id: str | None = Field(default=None, max_length=36)  # the child it was for, in a group
    created_by: str | None = Field(default=None, max_length=36)
    created_at: datetime = Field(sa_type=UTCDateTime)


class PaymentReport(SQLModel, table=True):
    """A bank transfer an owner says they made, with its receipt: an installation administrator
    approves it (the wallet is credited once) or rejects it with a reason."""
    __tablename__ = "payment_reports"
    __table_args__ = (
        Index("ix_payment_reports_organization", "organization_id", "created_at"),
        Index("ix_payment_reports_pending", "created_at", **partial("status = 'PENDING_REVIEW'")),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    currency: str = Field(max_length=3)
    bank: str = Field(max_length=80)
    reference: str = Field(max_length=80)
    paid_at: datetime = Field(sa_type=UTCDateTime)
    receipt_media_id: str | None = Field(default=None, max_length=36)
    status: str = Field(default="PENDING_REVIEW", max_length=16)
    rejection_reason: str | None = Field(default=None, max_length=300)
    reported_by: str = Field(foreign_key="users.id", ondelete="RESTRICT")
    reviewed_by: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    reviewed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
