"""Billing groups: a parent organization pays for its children and may cap their AI spend.

One level only: a parent has no parent, a child has no children. Linking needs an owner of both;
unlinking (an owner of the child) moves the child to the free plan and drops its caps.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Forbidden, NotFound
from appliance.memberships import service as memberships_service
from appliance.organizations import entitlements
from appliance.organizations.models import Organization

FREE_PLAN = "free"


@dataclass(frozen=True)
class BillingGroup:
    organization: Organization
    parent: Organization | None
    children: list[Organization]


def _owner_only(actor: OrgActor, what: str) -> None:
    if actor.role_key != "owner":
        raise Forbidden(f"Only an owner can {what}.", code="owner_required")


def get_group(session: Session, *, actor: OrgActor) -> BillingGroup:
    organization = session.get(Organization, actor.organization_id)
    parent = session.get(Organization, organization.billing_parent_id) if organization.billing_parent_id else None
    children = list(session.exec(select(Organization).where(Organization.billing_parent_id == organization.id)
                                 .order_by(Organization.name)).all())
    return BillingGroup(organization, parent, children)


def check_link(session: Session, *, actor: OrgActor, parent_org_id: str) -> BillingGroup:
    _owner_only(actor, "attach an organization to a billing group")
    if parent_org_id == actor.organization_id:
        raise Conflict("An organization cannot be its own billing parent.", code="invalid_billing_parent")
    owned = memberships_service.list_organization_ids_of(session, actor.user_id, role_key="owner")
    parent = session.get(Organization, parent_org_id)
    if parent is None or parent_org_id not in owned:
        raise Forbidden("You must be an owner of the parent organization too.", code="not_parent_owner")
    organization = session.get(Organization, actor.organization_id)
    if parent.billing_parent_id is not None:
        raise Conflict("The parent is itself in another billing group.", code="invalid_billing_parent")
    if session.exec(select(Organization.id).where(Organization.billing_parent_id == organization.id)).first():
        raise Conflict("This organization pays for others; it cannot become a child.", code="invalid_billing_parent")
    children = session.exec(select(func.count()).select_from(Organization)
                            .where(Organization.billing_parent_id == parent.id)).one()
    entitlements.check_room(session, parent.id, entitlements.ORGANIZATION, in_use=children)
    organization.billing_parent_id, organization.updated_at = parent.id, clock.now()
    session.add(organization)
    session.flush()
    return get_group(session, actor=actor)


def check_unlink(session: Session, *, actor: OrgActor) -> BillingGroup:
    _owner_only(actor, "leave a billing group")
    organization = session.get(Organization, actor.organization_id)
    if organization.billing_parent_id is None:
        raise Conflict("This organization is not in a billing group.", code="not_in_billing_group")
    organization.billing_parent_id = None
    organization.plan_slug = FREE_PLAN
    organization.ai_daily_usd_cap = organization.ai_monthly_usd_cap = None
    organization.updated_at = clock.now()
    session.add(organization)
    session.flush()
    return get_group(session, actor=actor)


def check_set_ai_limits(session: Session, *, actor: OrgActor, target_org_id: str,
                        daily_usd: float | None, monthly_usd: float | None) -> Organization:
    _owner_only(actor, "set AI limits for the billing group")
    child = session.get(Organization, target_org_id)
    if child is None or child.billing_parent_id != actor.organization_id:
        raise NotFound("No child organization with this id in your billing group.", code="not_a_child")
    child.ai_daily_usd_cap, child.ai_monthly_usd_cap = daily_usd, monthly_usd
    child.updated_at = clock.now()
    session.add(child)
    session.flush()
    return child
