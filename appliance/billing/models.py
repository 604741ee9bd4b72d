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
    auto_pay_enabled: bool = False
    auto_pay_method_id: str | None = Field(default=None, max_length=36)
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
    receipt_media_id: str | None = Field(default=None, max_length=36)  # an uploaded media's (the API's)
    receipt_file_type: str | None = Field(default=None, max_length=100)  # a file of its own (the page's)
    receipt_file_name: str | None = Field(default=None, max_length=255)
    status: str = Field(default="PENDING_REVIEW", max_length=16)
    rejection_reason: str | None = Field(default=None, max_length=300)
    reported_by: str = Field(foreign_key="users.id", ondelete="RESTRICT")
    reviewed_by: str | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    reviewed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)


class Invoice(SQLModel, table=True):
    """One organization's bill for one period (billed at its start): the plan and the add-ons in
    effect, numbered in the installation's sequence. Paid from the paying wallet, else by auto-pay
    (`attempts`, the next one at `next_attempt_at`); unpaid 7 days past `due_at`, the organization
    is suspended until it is paid."""
    __tablename__ = "invoices"
    __table_args__ = (
        UniqueConstraint("organization_id", "period_start", name="uq_invoices_organization_period"),
        Index("ix_invoices_organization", "organization_id", "period_start"),
        Index("ix_invoices_open", "next_attempt_at", **partial("status = 'OPEN'")),
    )

    id: str = Field(default_factory=new_id, primary_key=True)
    number: int = Field(unique=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    wallet_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")  # who pays: the group's parent
    status: str = Field(default="OPEN", max_length=8)  # OPEN, PAID, VOID
    period_start: datetime = Field(sa_type=UTCDateTime)
    period_end: datetime = Field(sa_type=UTCDateTime)
    total_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    currency: str = Field(max_length=3)
    due_at: datetime = Field(sa_type=UTCDateTime)
    paid_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    attempts: int = 0
    next_attempt_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_failure: str | None = Field(default=None, max_length=300)
    owner_told_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)


class InvoiceLine(SQLModel, table=True):
    __tablename__ = "invoice_lines"

    id: int | None = Field(default=None, primary_key=True)
    invoice_id: str = Field(foreign_key="invoices.id", ondelete="CASCADE", index=True)
    kind: str = Field(max_length=10)  # PLAN, ADDON, PRORATION, CREDIT
    description: str = Field(max_length=200)
    quantity: int
    unit_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))


class PaymentMethod(SQLModel, table=True):
    """A card kept at the processor (its payment source): only the brand, the last four digits
    and the expiry are ours to show; the source id is sealed."""
    __tablename__ = "payment_methods"
    __table_args__ = (Index("ix_payment_methods_organization", "organization_id", "created_at"),)

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    source_sealed: str = Field(max_length=400)
    brand: str = Field(max_length=20)
    last4: str = Field(max_length=4)
    exp_month: int
    exp_year: int
    email: str = Field(max_length=254)
    is_default: bool = False
    created_by: str | None = Field(default=None, max_length=36)
    created_at: datetime = Field(sa_type=UTCDateTime)


class Payment(SQLModel, table=True):
    """One attempt to take money through the processor: an invoice's auto-pay try (reference
    `inv:{invoice}:try:{n}`), a Nequi push (`nequi:{id}`). The reference is the attempt's
    idempotency key at the processor: after a timeout the attempt is looked up by it, never sent
    again under a new one."""
    __tablename__ = "payments"
    __table_args__ = (Index("ix_payments_open", "created_at", **partial("status = 'PENDING'")),
                      Index("ix_payments_organization", "organization_id", "created_at"))

    id: str = Field(default_factory=new_id, primary_key=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    wallet_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE")
    purpose: str = Field(max_length=10)  # INVOICE, NEQUI
    invoice_id: str | None = Field(default=None, foreign_key="invoices.id", ondelete="SET NULL")
    reference: str = Field(unique=True, max_length=80)
    method: str = Field(max_length=8)  # CARD, NEQUI
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    currency: str = Field(max_length=3)
    status: str = Field(default="PENDING", max_length=10)  # PENDING, APPROVED, DECLINED, VOIDED, ERROR
    transaction_id: str | None = Field(default=None, max_length=80)
    status_message: str | None = Field(default=None, max_length=300)
    phone_number: str | None = Field(default=None, max_length=20)
    created_by: str | None = Field(default=None, max_length=36)
    created_at: datetime = Field(sa_type=UTCDateTime)
    settled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
