"""Memberships, and the one check every organization route goes through: `access_organization`."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from appliance.core import clock, tenancy
from appliance.core.actor import Actor, OrgActor
from appliance.core.rows import read_row
from appliance.core.errors import Conflict, Forbidden, Invalid, NotFound
from appliance.memberships.models import Membership
from appliance.permissions import service as permissions_service
from appliance.roles.models import Role
from appliance.users.models import User


def access_organization(session: Session, *, actor: Actor, organization_id: str,
                        permission: str | None) -> OrgActor:
    """The actor's standing in the organization, or 403 when not a member, suspended, or lacking
    `permission`. Other organizations answer the same 403 whether they exist or not."""
    # Every organization request passes here: driver reads, not the ORM (see core.rows.read_row).
    membership = read_row(session, Membership.__table__, organization_id=organization_id, user_id=actor.user_id,
                          with_parent=(Role.__table__, "role_id"))
    if membership is None:
        raise Forbidden("You are not a member of this organization.", code="not_a_member")
    role = read_row(session, Role.__table__, id=membership.role_id)  # read with the membership
    if membership.suspended_at is not None:
        raise Forbidden("Your access to this organization is suspended.", code="membership_suspended")
    if permission is not None and permission not in role.permissions:
        raise Forbidden(f"This needs the permission {permission}.", code="permission_missing",
                        permission=permission)
    return OrgActor(user_id=actor.user_id, session_id=actor.session_id,
                    impersonated_by=actor.impersonated_by, kind=actor.kind,
                    organization_id=organization_id, membership_id=membership.id, role_key=role.key,
                    permissions=frozenset(role.permissions), waba_pks=tuple(membership.waba_pks))


@dataclass(frozen=True)
class MemberView:
    id: str
    user_id: str
    email: str
    name: str
    role: Role
    waba_pks: list
    suspended: bool
    preferences: dict
    created_at: object


def _view(membership: Membership, user: User, role: Role) -> MemberView:
    return MemberView(membership.id, user.id, user.email, user.name, role, list(membership.waba_pks),
                      membership.suspended_at is not None, dict(membership.preferences), membership.created_at)


def member_view(session: Session, membership: Membership) -> MemberView:
    return _view(membership, session.get(User, membership.user_id), session.get(Role, membership.role_id))


def list_members(session: Session, *, actor: OrgActor) -> list[MemberView]:
    rows = session.exec(
        select(Membership, User, Role)
        .join(User, User.id == Membership.user_id).join(Role, Role.id == Membership.role_id)
        .where(Membership.organization_id == actor.organization_id)
        .order_by(Membership.created_at)
    ).all()
    return [_view(*row) for row in rows]


def get_my_membership(session: Session, *, actor: OrgActor) -> MemberView:
    if actor.membership_id is None:
        raise Forbidden("An API key is not a member; it has no membership.", code="api_key_not_allowed")
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


def list_organization_ids_of(session: Session, user_id: str, *, role_key: str | None = None,
                             active_only: bool = False) -> list[str]:
    query = select(Membership.organization_id).where(Membership.user_id == user_id)
    if active_only:
        query = query.where(Membership.suspended_at.is_(None))
    if role_key is not None:
        query = query.join(Role, Role.id == Membership.role_id).where(Role.key == role_key)
    return list(session.exec(query).all())


# Managing members. Owners are protected: only an owner may grant, change or remove the owner role,
# and the last active owner can be neither demoted, removed nor suspended.

def access_membership(session: Session, *, actor: OrgActor, membership_id: str) -> Membership:
    return tenancy.access_in_org(session, Membership, membership_id, actor, what="member",
                                 code="membership_not_found")


def check_role_assignable(session: Session, *, actor: OrgActor, role_id: str) -> Role:
    """The role, if the actor may hand it out here (setting a role, inviting): it belongs to this
    organization, the owner role only by an owner, and never beyond the actor's own permissions."""
    role = tenancy.access_in_org(session, Role, role_id, actor, what="role", code="role_not_found",
                                 errors={"roleId": ["Unknown role."]})
    if role.key == "owner" and actor.role_key != "owner":
        raise Forbidden("Only an owner can give the owner role.", code="owner_required")
    permissions_service.check_grantable(actor, role.permissions)
    return role


def check_assignable(session: Session, *, actor: OrgActor, user_id: str, field: str) -> None:
    """A record's assignee (a task's, an appointment's) named in a body: a member of this
    organization (else 400 `unknown_ids`, as for every id of a body), and not suspended (400
    `assignee_not_member`: the work would sit with someone who cannot sign in)."""
    tenancy.check_ids_in_org(session, "memberships", [user_id], actor, field=field, column="user_id")
    with session.no_autoflush:
        suspended = session.exec(select(Membership.suspended_at).where(
            Membership.organization_id == actor.organization_id, Membership.user_id == user_id)).first()
    if suspended is not None:
        raise Invalid("Assign to an active member of this organization.", code="assignee_not_member",
                      errors={field: ["Not an active member."]})


def _active_owner_ids(session: Session, organization_id: str) -> list[str]:
    return list(session.exec(
        select(Membership.id).join(Role, Role.id == Membership.role_id)
        .where(Membership.organization_id == organization_id, Role.key == "owner",
               Membership.suspended_at.is_(None))).all())


def _guard_owner_change(session: Session, actor: OrgActor, membership: Membership, *, losing_owner: bool) -> None:
    current = session.get(Role, membership.role_id)
    if current.key == "owner" and actor.role_key != "owner":
        raise Forbidden("Only an owner can change another owner.", code="owner_required")
    if losing_owner and current.key == "owner" and _active_owner_ids(session, membership.organization_id) == [membership.id]:
        raise Conflict("This is the last owner; make someone else owner first.", code="last_owner")


def check_set_role(session: Session, *, actor: OrgActor, membership_id: str, role_id: str) -> MemberView:
    membership = access_membership(session, actor=actor, membership_id=membership_id)
    role = check_role_assignable(session, actor=actor, role_id=role_id)
    _guard_owner_change(session, actor, membership, losing_owner=role.key != "owner")
    membership.role_id, membership.updated_at = role.id, clock.now()
    session.add(membership)
    session.flush()
    return _view(membership, session.get(User, membership.user_id), role)


def check_remove_member(session: Session, *, actor: OrgActor, membership_id: str) -> None:
    membership = access_membership(session, actor=actor, membership_id=membership_id)
    _guard_owner_change(session, actor, membership, losing_owner=True)
    session.delete(membership)
    session.flush()


def check_set_waba_scope(session: Session, *, actor: OrgActor, membership_id: str, waba_pks: list[str]) -> MemberView:
    membership = access_membership(session, actor=actor, membership_id=membership_id)
    _guard_owner_change(session, actor, membership, losing_owner=False)
    waba_pks = tenancy.check_ids_in_org(session, "wabas", waba_pks, actor, field="wabaIds")
    membership.waba_pks, membership.updated_at = waba_pks, clock.now()
    session.add(membership)
    session.flush()
    return _view(membership, session.get(User, membership.user_id), session.get(Role, membership.role_id))


def check_set_suspension(session: Session, *, actor: Actor, membership_id: str, suspended: bool) -> MemberView:
    """Suspend or reactivate; a suspended member keeps the membership and loses access at once
    (every request re-reads it). The route has no organization in its path, so the check is here."""
    unknown = NotFound("No member with this id.", code="membership_not_found")
    membership = session.get(Membership, membership_id)
    if membership is None:
        raise unknown
    try:
        org_actor = access_organization(session, actor=actor, organization_id=membership.organization_id,
                                        permission="members:write")
    except Forbidden as refused:
        if refused.code == "not_a_member":  # another organization's member: as unknown as a random id
            raise unknown from None
        raise
    if membership.id == org_actor.membership_id:
        raise Conflict("You cannot suspend yourself.", code="cannot_suspend_self")
    _guard_owner_change(session, org_actor, membership, losing_owner=suspended)
    membership.suspended_at = clock.now() if suspended else None
    membership.updated_at = clock.now()
    session.add(membership)
    session.flush()
    return _view(membership, session.get(User, membership.user_id), session.get(Role, membership.role_id))


MAX_PREFERENCES_KEYS = 50


def check_update_preferences(session: Session, *, actor: Actor, organization_id: str, preferences: dict) -> MemberView:
    """Merge interface preferences into my membership; a null value removes that key."""
    org_actor = access_organization(session, actor=actor, organization_id=organization_id,
                                    permission="organizations:read")
    membership = session.get(Membership, org_actor.membership_id)
    merged = {**membership.preferences, **preferences}
    merged = {k: v for k, v in merged.items() if v is not None}
    if len(merged) > MAX_PREFERENCES_KEYS:
        raise Invalid(f"At most {MAX_PREFERENCES_KEYS} preferences.", errors={"preferences": ["Too many keys."]})
    membership.preferences, membership.updated_at = merged, clock.now()
    session.add(membership)
    session.flush()
    return _view(membership, session.get(User, membership.user_id), session.get(Role, membership.role_id))
