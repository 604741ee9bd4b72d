"""The wallet: an organization's ledger of credits and debits, in its plan's currency. A billing
group's children have none of their own: their movements go to the parent's wallet, the payer.

Every movement is idempotent per (source, reference): a payment report approved twice, a
proration retried, a processor event replayed find the first entry and add nothing. The balance
is the ledger's sum, never a column that could drift from it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.core import clock
from appliance.organizations import plans
from appliance.organizations.models import Organization
from appliance.billing import money
from appliance.billing.models import WalletEntry

PAYMENT_REPORT, ADDON = "PAYMENT_REPORT", "ADDON"
RECENT = 20  # entries the wallet's answer shows


def payer_id(session: Session, organization_id: str) -> str:
    """Whose wallet pays for this organization: its billing group's parent, else itself."""
    organization = session.get(Organization, organization_id)
    return organization.billing_parent_id or organization.id


def currency_of(session: Session, organization_id: str) -> str:
    organization = session.get(Organization, organization_id)
    return (plans.plans().get(organization.plan_slug) or plans.plans()[plans.FREE]).currency


def balance(session: Session, wallet_id: str) -> int:
    """The wallet's balance in minor units."""
    return session.exec(select(func.coalesce(func.sum(WalletEntry.amount_minor), 0))
                        .where(WalletEntry.organization_id == wallet_id)).one()


def recent(session: Session, wallet_id: str, *, for_organization_id: str | None = None,
           take: int = RECENT) -> list[WalletEntry]:
    """The wallet's newest movements (only those for one organization of its group, if named)."""
    query = select(WalletEntry).where(WalletEntry.organization_id == wallet_id)
    if for_organization_id is not None:
        query = query.where(WalletEntry.for_organization_id == for_organization_id)
    return list(session.exec(query.order_by(WalletEntry.id.desc()).limit(take)))


@dataclass(frozen=True)
class Movement:
    entry: WalletEntry
    created: bool  # False: the same (source, reference) was already in the ledger


def do_move(session: Session, *, wallet_id: str, amount_minor: int, currency: str, source: str, reference: str,
            description: str, for_organization_id: str | None = None, by: str | None = None) -> Movement:
    """Add a credit (positive) or debit (negative) once per (source, reference). Writers take
    turns (the writers' lock), so looking first cannot race another writer."""
    existing = session.exec(select(WalletEntry).where(
        WalletEntry.organization_id == wallet_id, WalletEntry.source == source,
        WalletEntry.reference == reference)).first()
    if existing is not None:
        return Movement(existing, False)
    entry = WalletEntry(organization_id=wallet_id, amount_minor=amount_minor, currency=currency, source=source,
                        reference=reference, description=description[:200],
                        for_organization_id=for_organization_id if for_organization_id != wallet_id else None,
                        created_by=by, created_at=clock.now())
    session.add(entry)
    session.flush()
    return Movement(entry, True)


@dataclass(frozen=True)
class WalletView:
    wallet_organization_id: str
    balance: str
    currency: str
    entries: list[WalletEntry]


def view(session: Session, *, organization_id: str) -> WalletView:
    """The paying wallet's balance and newest movements; a billing group's child sees the balance
    it spends from but only its own movements (not its siblings' transfers and invoices)."""
    wallet_id = payer_id(session, organization_id)
    currency = currency_of(session, wallet_id)
    entries = recent(session, wallet_id, for_organization_id=None if wallet_id == organization_id else organization_id)
    return WalletView(wallet_id, money.text(balance(session, wallet_id), currency), currency, entries)
