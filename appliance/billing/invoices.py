"""Invoices: each organization's period billed at its start (its plan and the add-ons in effect,
at the prices of the period's interval), numbered in the installation's one sequence. Closing a
period twice makes one invoice (unique per organization and period start). A free plan's invoice
of zero is made and paid at once, so every period has its record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.billing import money, periods, wallet
from appliance.billing.models import Invoice, InvoiceLine
from appliance.core import clock, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.organizations import entitlements, plans
from appliance.organizations import service as organizations_service
from appliance.organizations.models import Organization
from appliance.organizations.service import Suspension

OPEN, PAID, VOID = "OPEN", "PAID", "VOID"
GRACE_DAYS = 7  # unpaid this long past due: suspended


@dataclass(frozen=True)
class InvoiceView:
    invoice: Invoice
    lines: list[InvoiceLine]


def _next_number(session: Session) -> int:
    return (session.exec(select(func.max(Invoice.number))).one() or 0) + 1


def do_bill_period(session: Session, organization_id: str, now: datetime | None = None) -> Invoice | None:
    """The invoice of the period holding `now` (made if it is not there yet); None when it was."""
    now = now or clock.now()
    period = periods.current(session, organization_id, now)
    if session.exec(select(Invoice.id).where(Invoice.organization_id == organization_id,
                                             Invoice.period_start == period.start)).first():
        return None
    organization = session.get(Organization, organization_id)
    plan = plans.plans().get(organization.plan_slug) or plans.plans()[plans.FREE]
    currency = plan.currency
    lines = [InvoiceLine(kind="PLAN", description=f"{plan.name['en']} plan, {period.interval.lower()}", quantity=1,
                         unit_minor=money.to_minor(plan.prices[period.interval], currency),
                         amount_minor=money.to_minor(plan.prices[period.interval], currency), invoice_id="")]
    for kind, quantity in entitlements.contracted(session, organization_id, period.start).items():
        if quantity:
            unit = money.to_minor(plans.addons()[kind].prices[period.interval], currency)
            lines.append(InvoiceLine(kind="ADDON", description=plans.addons()[kind].name["en"], quantity=quantity,
                                     unit_minor=unit, amount_minor=unit * quantity, invoice_id=""))
    invoice = Invoice(number=_next_number(session), organization_id=organization_id,
                      wallet_id=wallet.payer_id(session, organization_id), period_start=period.start,
                      period_end=period.end, total_minor=sum(line.amount_minor for line in lines), currency=currency,
                      due_at=period.start, next_attempt_at=now, created_at=now)
    session.add(invoice)
    session.flush()
    for line in lines:
        line.invoice_id = invoice.id
    session.add_all(lines)
    session.flush()
    return invoice


def lines_of(session: Session, invoice_id: str) -> list[InvoiceLine]:
    return list(session.exec(select(InvoiceLine).where(InvoiceLine.invoice_id == invoice_id).order_by(InvoiceLine.id)))


def list_invoices(session: Session, *, actor: OrgActor, take: int = 50, cursor: str | None = None) -> pagination.Page:
    query = select(Invoice).where(Invoice.organization_id == actor.organization_id)
    found = pagination.paginate(session, query, key=[Invoice.period_start, Invoice.id], take=take, cursor=cursor)
    found.items = [InvoiceView(invoice, lines_of(session, invoice.id)) for invoice in found.items]
    return found


def access_invoice(session: Session, *, actor: OrgActor, invoice_id: str) -> InvoiceView:
    invoice = tenancy.access_in_org(session, Invoice, invoice_id, actor, what="invoice", code="invoice_not_found")
    return InvoiceView(invoice, lines_of(session, invoice.id))


def pending(session: Session, organization_id: str) -> list[Invoice]:
    """The organization's open invoices, oldest first (what its suspension names)."""
    return list(session.exec(select(Invoice).where(Invoice.organization_id == organization_id, Invoice.status == OPEN)
                             .order_by(Invoice.period_start)))


def overdue_since(invoice: Invoice) -> datetime:
    return invoice.due_at + timedelta(days=GRACE_DAYS)


def suspension(session: Session, *, actor: OrgActor) -> Suspension:
    """The reference's suspension, with the invoices that lift it once paid."""
    found = organizations_service.get_suspension(session, actor=actor)
    return Suspension(found.suspended, found.reason, found.suspended_at,
                      [InvoiceView(invoice, lines_of(session, invoice.id)) for invoice in pending(session, actor.organization_id)])


def failing(session: Session, organization_id: str) -> bool:
    """Whether an open invoice of the organization failed to be paid (the console's banner)."""
    return session.exec(select(Invoice.id).where(Invoice.organization_id == organization_id,
                                                 Invoice.status == OPEN, Invoice.last_failure.is_not(None))).first() is not None

