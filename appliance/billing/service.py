"""Billing at a glance for one organization (the Billing page's facts, gathered in one place): its
plan and period, a waiting interval change, what it may grow to and what it uses, the wallet it
pays from, the add-ons, cards, auto-pay, recent invoices, Nequi pushes and reported transfers, and
the unpaid invoice that needs the owner."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from appliance.billing import addons, invoices, payment_methods, payment_reports, periods, wallet
from appliance.billing.models import Invoice, Payment, PaymentMethod, PaymentReport
from appliance.core.actor import OrgActor
from appliance.organizations import entitlements, plans
from appliance.organizations.models import Organization


@dataclass(frozen=True)
class Overview:
    billing_on: bool
    organization: Organization
    plan: plans.Plan
    period: periods.Period
    change: periods.IntervalChange
    entitled: dict[str, entitlements.Entitlement]
    used: dict[str, int]
    addons: addons.AddonsView
    wallet: wallet.WalletView
    payer: Organization | None  # the billing group's parent, when it pays
    invoices: list[invoices.InvoiceView]
    unpaid: Invoice | None  # the open invoice whose payment failed
    suspend_on: datetime | None
    pushes: list[Payment]
    reports: list[PaymentReport]
    cards: list[PaymentMethod]
    preferences: payment_methods.Preferences

    @property
    def waiting(self) -> bool:
        """A Nequi push waits for its owner (the page follows it)."""
        return any(push.status == "PENDING" for push in self.pushes)


def overview(session: Session, *, actor: OrgActor) -> Overview:
    organization = session.get(Organization, actor.organization_id)
    wallet_id = wallet.payer_id(session, organization.id)
    recent = invoices.list_invoices(session, actor=actor, take=12).items
    unpaid = next((v.invoice for v in recent if v.invoice.status == invoices.OPEN and v.invoice.last_failure), None)
    pushes = list(session.exec(select(Payment).where(Payment.organization_id == organization.id, Payment.method == "NEQUI")
                               .order_by(Payment.created_at.desc()).limit(5)))
    return Overview(
        billing_on=entitlements.billing_on(), organization=organization,
        plan=plans.plans().get(organization.plan_slug) or plans.plans()[plans.FREE],
        period=periods.current(session, organization.id), change=periods.interval_change(session, organization.id),
        entitled=entitlements.entitlements(session, organization.id), used=entitlements.usage(session, organization.id),
        addons=addons.view(session, actor=actor), wallet=wallet.view(session, organization_id=organization.id),
        payer=session.get(Organization, wallet_id) if wallet_id != organization.id else None,
        invoices=recent, unpaid=unpaid, suspend_on=invoices.overdue_since(unpaid) if unpaid else None,
        pushes=pushes, reports=payment_reports.list_reports(session, actor=actor, take=10).items,
        cards=payment_methods.list_methods(session, actor=actor),
        preferences=payment_methods.preferences(session, actor=actor))
