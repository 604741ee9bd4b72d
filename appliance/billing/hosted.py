"""The organizations an installation hosts, as its administrators see them: each one's plan and
interval, the wallet it pays from and its balance, what it owes (open invoices, the oldest one's
due date, whether a payment failed) and its suspension; and what an administrator may change
there: the plan, and a suspension of their own (one for an unpaid invoice is lifted by paying it,
not by hand: the next billing round would only suspend it again).

A page is read with one query per fact for all its organizations (balances, open invoices,
members), never one per organization."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_
from sqlmodel import Session, select

from appliance.billing import invoices
from appliance.billing.models import Invoice, WalletEntry
from appliance.core import pagination
from appliance.core.errors import Conflict, NotFound
from appliance.memberships.models import Membership
from appliance.organizations import plans
from appliance.organizations import service as organizations_service
from appliance.organizations.models import Organization

STATES = ("all", "owing", "suspended")  # owing: an open invoice whose payment failed


@dataclass(frozen=True)
class HostedOrganization:
    organization: Organization
    plan: plans.Plan
    payer: Organization | None  # its billing group's parent, whose wallet pays
    balance_minor: int  # of the wallet it pays from
    open_invoices: int
    owed_minor: int
    oldest_due_at: datetime | None
    failing: bool  # an open invoice's payment failed
    members: int

    @property
    def currency(self) -> str:
        return self.plan.currency


def _plan(organization: Organization) -> plans.Plan:
    return plans.plans().get(organization.plan_slug) or plans.plans()[plans.FREE]


def list_hosted(session: Session, *, take: int = 50, cursor: str | None = None, q: str | None = None,
                state: str = "all") -> pagination.Page:
    """Every organization, by name, with its billing state; `q` finds a name or slug, `state`
    keeps those owing or suspended."""
    query = select(Organization)
    if q:
        wanted = q.strip().lower()
        query = query.where(or_(func.lower(Organization.name).contains(wanted, autoescape=True),
                                Organization.slug.contains(wanted, autoescape=True)))
    if state == "suspended":
        query = query.where(Organization.suspended_at.is_not(None))
    elif state == "owing":
        query = query.where(select(Invoice.id).where(Invoice.organization_id == Organization.id,
                                                     Invoice.status == invoices.OPEN,
                                                     Invoice.last_failure.is_not(None)).exists())
    page = pagination.paginate(session, query, key=[Organization.name, Organization.id], take=take, cursor=cursor,
                               descending=False)
    page.items = _with_state(session, page.items)
    return page


def _with_state(session: Session, organizations: list[Organization]) -> list[HostedOrganization]:
    if not organizations:
        return []
    ids = [o.id for o in organizations]
    payer_ids = {o.billing_parent_id or o.id for o in organizations}
    balances = dict(session.exec(select(WalletEntry.organization_id, func.sum(WalletEntry.amount_minor))
                                 .where(WalletEntry.organization_id.in_(payer_ids))
                                 .group_by(WalletEntry.organization_id)).all())
    owed = {row[0]: row[1:] for row in session.exec(
        select(Invoice.organization_id, func.count(Invoice.id), func.sum(Invoice.total_minor), func.min(Invoice.due_at),
               func.count(Invoice.last_failure))
        .where(Invoice.organization_id.in_(ids), Invoice.status == invoices.OPEN).group_by(Invoice.organization_id))}
    members = dict(session.exec(select(Membership.organization_id, func.count(Membership.id))
                                .where(Membership.organization_id.in_(ids)).group_by(Membership.organization_id)).all())
    parents = {o.id: o for o in session.exec(select(Organization).where(
        Organization.id.in_({o.billing_parent_id for o in organizations if o.billing_parent_id})))}
    found = []
    for organization in organizations:
        count, total, oldest, failures = owed.get(organization.id, (0, 0, None, 0))
        found.append(HostedOrganization(
            organization=organization, plan=_plan(organization), payer=parents.get(organization.billing_parent_id),
            balance_minor=int(balances.get(organization.billing_parent_id or organization.id) or 0),
            open_invoices=count, owed_minor=int(total or 0), oldest_due_at=oldest, failing=bool(failures),
            members=members.get(organization.id, 0)))
    return found


def access_hosted(session: Session, organization_id: str) -> HostedOrganization:
    organization = session.get(Organization, organization_id)
    if organization is None:
        raise NotFound("No organization with this id.", code="organization_not_found")
    return _with_state(session, [organization])[0]


def do_update(session: Session, *, organization_id: str, plan_slug: str | None = None,
              suspended: bool | None = None, reason: str | None = None) -> HostedOrganization:
    """An administrator's change: the plan (its capabilities at once, its price from the next
    invoice), or a suspension with the reason the organization's people read."""
    organization = access_hosted(session, organization_id).organization
    if plan_slug is not None:
        organizations_service.do_change_plan(session, organization, plan_slug)
    if suspended is not None and suspended != (organization.suspended_at is not None):
        if not suspended and organization.suspension_reason == organizations_service.PAYMENT_OVERDUE:
            raise Conflict("This organization is suspended for an unpaid invoice: paying it (a transfer approved, "
                           "a card, funds added) lifts the suspension at once.", code="suspended_for_payment")
        organizations_service.do_change_suspension(session, organization, suspended,
                                                   reason or "Suspended by the installation's administrator.")
    session.flush()
    return access_hosted(session, organization_id)


@dataclass(frozen=True)
class CatalogPlan:
    plan: plans.Plan
    organizations: int  # on it now


@dataclass(frozen=True)
class Catalog:
    plans: list[CatalogPlan]
    addons: list[plans.Addon]
    storage_block_bytes: int


def catalog(session: Session) -> Catalog:
    """The plans (data/plans.json) with how many organizations are on each, and the add-ons."""
    counts = dict(session.exec(select(Organization.plan_slug, func.count(Organization.id))
                               .group_by(Organization.plan_slug)).all())
    return Catalog([CatalogPlan(plan, counts.get(slug, 0)) for slug, plan in plans.plans().items()],
                   list(plans.addons().values()), plans.storage_block_bytes())
