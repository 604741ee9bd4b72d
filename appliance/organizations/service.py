"""Create, list, read and update organizations. The creator becomes owner; the four system roles
are created with each organization."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from appliance.core import clock, events, regions, runtime
from appliance.core.actor import Actor, OrgActor
from appliance.core.rows import read_row
from appliance.core.errors import Conflict, Forbidden, Invalid, NotFound
from appliance.memberships import service as memberships_service
from appliance.organizations import plans, slugs
from appliance.organizations.models import Organization
from appliance.roles import service as roles_service


@dataclass(frozen=True)
class Quota:
    limit: int
    used: int

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


def list_my_organizations(session: Session, *, actor: Actor, active_only: bool = False) -> list[Organization]:
    """The organizations I belong to; `active_only` leaves out those where my membership is suspended."""
    ids = memberships_service.list_organization_ids_of(session, actor.user_id, active_only=active_only)
    if not ids:
        return []
    return list(session.exec(select(Organization).where(Organization.id.in_(ids))
                             .order_by(Organization.name)).all())


def get_quota(session: Session, *, actor: Actor) -> Quota:
    created = session.exec(select(func.count()).where(Organization.created_by == actor.user_id)).one()
    return Quota(limit=runtime.get().settings.org_quota, used=created)


def slug_taken(session: Session, slug: str) -> bool:
    return session.exec(select(Organization.id).where(Organization.slug == slug)).first() is not None


def check_slug_available(session: Session, *, slug: str) -> bool:
    return slugs.problem(slug) is None and not slug_taken(session, slug)


def suggest_slug(session: Session, *, name: str) -> str:
    base = slugs.from_name(name)
    candidate, n = base, 1
    while slug_taken(session, candidate):
        n += 1
        candidate = f"{base[:44]}-{n}"
    return candidate


def _check_slug(session: Session, slug: str) -> None:
    reason = slugs.problem(slug)
    if reason:
        raise Invalid(reason, code="invalid_slug", errors={"slug": [reason]})
    if slug_taken(session, slug):
        raise Conflict("This slug is taken.", code="slug_taken", errors={"slug": ["Already taken."]})


def check_create_organization(session: Session, *, actor: Actor, name: str, slug: str, billing_email: str,
                              billing_parent_id: str | None = None, **fields) -> Organization:
    quota = get_quota(session, actor=actor)
    if quota.remaining <= 0:
        raise Forbidden(f"You can create at most {quota.limit} organizations.", code="organization_quota_reached")
    _check_slug(session, slug)
    if billing_parent_id is not None:
        owned = memberships_service.list_organization_ids_of(session, actor.user_id, role_key="owner")
        if billing_parent_id not in owned:
            raise Forbidden("Only an owner of the parent organization can attach to its billing group.",
                            code="not_parent_owner")
    fields["plan_slug"] = plans.check_plan_slug(fields.get("plan_slug") or runtime.get().settings.default_plan)
    fields.setdefault("timezone", regions.main_zone(fields.get("country")) or "UTC")  # the country's, unless chosen
    now = clock.now()
    organization = Organization(name=name, slug=slug, billing_email=billing_email,
                                billing_parent_id=billing_parent_id, created_by=actor.user_id,
                                created_at=now, updated_at=now, **fields)
    session.add(organization)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:  # a concurrent create took the slug
        raise Conflict("This slug is taken.", code="slug_taken", errors={"slug": ["Already taken."]}) from None
    roles = roles_service.do_create_system_roles(session, organization_id=organization.id)
    memberships_service.do_add_member(session, organization_id=organization.id, user_id=actor.user_id,
                                      role_id=roles["owner"].id)
    events.emit(session, events.ORGANIZATION_CREATED, organization_id=organization.id,
                organizationId=organization.id, createdBy=actor.user_id)
    return organization


def access_organization_record(session: Session, *, actor: OrgActor):
    """The actor's organization, read-only (a hot path: read through core.rows.read_row)."""
    return read_row(session, Organization.__table__, id=actor.organization_id)


def check_update_organization(session: Session, *, actor: OrgActor, **changes) -> Organization:
    organization = session.get(Organization, actor.organization_id)
    for field, value in changes.items():
        setattr(organization, field, value)
    organization.updated_at = clock.now()
    session.add(organization)
    session.flush()
    return organization


# Suspension: a suspended organization keeps its data; its routes answer 403 except the one that
# says why. Staff suspend with `appliance staff suspend SLUG --reason ...` (billing will too).

@dataclass(frozen=True)
class Suspension:
    suspended: bool
    reason: str | None
    suspended_at: object
    pending_invoices: list


PAYMENT_OVERDUE = "payment_overdue"  # billing's suspension: reading keeps working


def check_active(session: Session, *, organization_id: str, while_suspended: bool, reading: bool = False) -> None:
    """403 organization_suspended for a suspended organization's routes, except those that stay
    open (`while_suspended`: billing, the suspension itself) and, when the suspension is billing's,
    what only reads (`reading`: the inbox, contacts and history stay readable)."""
    if while_suspended:
        return
    organization = read_row(session, Organization.__table__, id=organization_id)
    if organization is not None and organization.suspended_at is not None:
        if reading and organization.suspension_reason == PAYMENT_OVERDUE:
            return
        raise Forbidden("This organization is suspended; see GET /organizations/{id}/suspension.",
                        code="organization_suspended", reason=organization.suspension_reason)


def get_suspension(session: Session, *, actor: OrgActor) -> Suspension:
    organization = access_organization_record(session, actor=actor)
    # The invoices it owes are billing's to name (billing/invoices.suspension).
    return Suspension(organization.suspended_at is not None, organization.suspension_reason,
                      organization.suspended_at, [])


def _by_slug(session: Session, slug: str) -> Organization:
    organization = session.exec(select(Organization).where(Organization.slug == slug)).first()
    if organization is None:
        raise NotFound(f"No organization with the slug {slug}.", code="organization_not_found")
    return organization


def do_set_plan(session: Session, *, slug: str, plan_slug: str) -> Organization:
    """The service team's `appliance staff plan SLUG PLAN`."""
    return do_change_plan(session, _by_slug(session, slug), plan_slug)


def do_change_plan(session: Session, organization: Organization, plan_slug: str) -> Organization:
    """Its capabilities change at once; with billing on, its price from the next period's invoice."""
    organization.plan_slug = plans.check_plan_slug(plan_slug)
    organization.updated_at = clock.now()
    session.add(organization)
    return organization


def do_set_suspension(session: Session, *, slug: str, suspended: bool, reason: str | None = None) -> Organization:
    return do_change_suspension(session, _by_slug(session, slug), suspended, reason)


def do_change_suspension(session: Session, organization: Organization, suspended: bool,
                         reason: str | None = None) -> Organization:
    organization.suspended_at = clock.now() if suspended else None
    organization.suspension_reason = (reason or "Suspended by the service team.") if suspended else None
    organization.updated_at = clock.now()
    session.add(organization)
    return organization
