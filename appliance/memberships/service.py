"""Memberships, and the one check every organization route goes through: `access_organization`."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import Actor, OrgActor
from appliance.core.errors import Forbidden, NotFound
from appliance.memberships.models import Membership
from appliance.roles.models import Role
from appliance.users.models import User


def access_organization(session: Session, *, actor: Actor, organization_id: str,
                        permission: str | None) -> OrgActor:
    """The actor's standing in the organization, or 403 when not a member, suspended, or lacking
    `permission`. Other organizations answer the same 403 whether they exist or not."""
    row = session.exec(
        select(Membership, Role)
        .join(Role, Role.id == Membership.role_id)
        .where(Membership.organization_id == organization_id, Membership.user_id == actor.user_id)
    ).first()
    if row is None:
        raise Forbidden("You are not a member of this organization.", code="not_a_member")
    membership, role = row
    if membership.suspended_at is not None:
        raise Forbidden("Your access to this organization is suspended.", code="membership_suspended")
    if permission is not None and permission not in role.permissions:
        raise Forbidden(f"This needs the permission {permission}.", code="permission_missing",
                        permission=permission)
    return OrgActor(user_id=actor.user_id, session_id=actor.session_id,
                    impersonated_by=actor.impersonated_by, kind=actor.kind,
                    organization_id=organization_id, membership_id=membership.id, role_key=role.key,
                    permissions=frozenset(role.permissions), waba_ids=tuple(membership.waba_ids))


@dataclass(frozen=True)
class MemberView:
    id: str
    user_id: str
    email: str
    name: str
    role: Role
    waba_ids: list
    suspended: bool
    preferences: dict
    created_at: object


def _view(membership: Membership, user: User, role: Role) -> MemberView:
    return MemberView(membership.id, user.id, user.email, user.name, role, list(membership.waba_ids),
                      membership.suspended_at is not None, dict(membership.preferences), membership.created_at)


def list_members(session: Session, *, actor: OrgActor) -> list[MemberView]:
    rows = session.exec(
        select(Membership, User, Role)
        .join(User, User.id == Membership.user_id).join(Role, Role.id == Membership.role_id)
        .where(Membership.organization_id == actor.organization_id)
        .order_by(Membership.created_at)
    ).all()
    return [_view(*row) for row in rows]


def get_my_membership(session: Session, *, actor: OrgActor) -> MemberView:
    membership = session.get(Membership, actor.membership_id)
    if membership is None:
        raise NotFound("Membership not found.")
    return _view(membership, session.get(User, membership.user_id), session.get(Role, membership.role_id))


def do_add_member(session: Session, *, organization_id: str, user_id: str, role_id: str) -> Membership:
    now = clock.now()
    membership = Membership(organization_id=organization_id, user_id=user_id, role_id=role_id,
                            created_at=now, updated_at=now)
    session.add(membership)
    session.flush()
    return membership


def count_members_with_role(session: Session, role_id: str) -> int:
    return len(session.exec(select(Membership.id).where(Membership.role_id == role_id)).all())


def list_organization_ids_of(session: Session, user_id: str, *, role_key: str | None = None) -> list[str]:
    query = select(Membership.organization_id).where(Membership.user_id == user_id)
    if role_key is not None:
        query = query.join(Role, Role.id == Membership.role_id).where(Role.key == role_key)
    return list(session.exec(query).all())
