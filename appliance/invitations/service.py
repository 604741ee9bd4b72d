"""Invite by email with a role; the invitee accepts while signed in with that email.

Tokens are single use, stored as HMACs, valid INVITATION_DAYS. Inviting the same email again
replaces the pending invitation (the old link stops working).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, select, update

from appliance.core import clock, crypto, runtime, tenancy
from appliance.core.actor import Actor, OrgActor
from appliance.core.errors import Conflict, Forbidden, NotFound
from appliance.invitations.models import Invitation
from appliance.mail import service as mail_service
from appliance.memberships import service as memberships_service
from appliance.memberships.models import Membership
from appliance.organizations import entitlements
from appliance.organizations.models import Organization
from appliance.roles.models import Role
from appliance.users import service as users_service
from appliance.users.models import User
from appliance.installation import public_address

INVITATION_DAYS = 7


@dataclass(frozen=True)
class InvitationView:
    id: str
    email: str
    role: Role
    created_at: object
    expires_at: object


def _pending(session: Session, organization_id: str):
    return (select(Invitation)
            .where(Invitation.organization_id == organization_id, Invitation.accepted_at.is_(None),
                   Invitation.revoked_at.is_(None), Invitation.expires_at > clock.now()))


def _check_seat(session: Session, organization_id: str, *, reinvited: str | None = None,
                accepting: Invitation | None = None) -> None:
    """A seat for one more person (402 entitlement_exceeded): members and pending invitations hold
    seats. Inviting the same person again takes no second seat, nor does accepting a held one."""
    members = session.exec(select(func.count()).select_from(Membership)
                           .where(Membership.organization_id == organization_id)).one()
    pending = _pending(session, organization_id)
    if reinvited is not None:
        pending = pending.where(Invitation.email != reinvited)
    if accepting is not None:
        pending = pending.where(Invitation.id != accepting.id)
    invited = session.exec(select(func.count()).select_from(pending.subquery())).one()
    entitlements.check_room(session, organization_id, entitlements.SEAT, in_use=members + invited)


def list_invitations(session: Session, *, actor: OrgActor) -> list[InvitationView]:
    invitations = session.exec(_pending(session, actor.organization_id).order_by(Invitation.created_at)).all()
    return [InvitationView(i.id, i.email, session.get(Role, i.role_id), i.created_at, i.expires_at)
            for i in invitations]


def check_invite(session: Session, *, actor: OrgActor, email: str, role_id: str) -> InvitationView:
    role = memberships_service.check_role_assignable(session, actor=actor, role_id=role_id)
    existing = users_service.get_user_by_email(session, email)
    if existing and session.exec(select(Membership.id).where(
            Membership.organization_id == actor.organization_id, Membership.user_id == existing.id)).first():
        raise Conflict("This person is already a member.", code="already_member",
                       errors={"email": ["Already a member."]})
    _check_seat(session, actor.organization_id, reinvited=email)
    now = clock.now()
    session.exec(update(Invitation)
                 .where(Invitation.organization_id == actor.organization_id, Invitation.email == email,
                        Invitation.accepted_at.is_(None), Invitation.revoked_at.is_(None))
                 .values(revoked_at=now))
    token = crypto.random_token()
    invitation = Invitation(organization_id=actor.organization_id, email=email, role_id=role.id,
                            token_hash=runtime.get().keyring.token_hash(token), invited_by=actor.user_id,
                            created_at=now, expires_at=now + timedelta(days=INVITATION_DAYS))
    session.add(invitation)
    session.flush()
    organization = session.get(Organization, actor.organization_id)
    inviter = session.get(User, actor.user_id) if actor.user_id else None
    base_url = public_address.base_url()
    mail_service.do_queue_mail(session, to=email, kind="invitation", locale=inviter.locale if inviter else "en",
                               organization=organization.name, inviter=inviter.name if inviter else organization.name,
                               role=role.name, days=INVITATION_DAYS, token=token,
                               link=f"{base_url}/invitations/accept?token={token}")
    return InvitationView(invitation.id, email, role, invitation.created_at, invitation.expires_at)


def do_revoke(session: Session, *, actor: OrgActor, invitation_id: str) -> None:
    invitation = tenancy.access_in_org(
        session, Invitation, invitation_id, actor, what="pending invitation", code="invitation_not_found",
        message="No pending invitation with this id.",
        usable=lambda invitation: invitation.accepted_at is None and invitation.revoked_at is None)
    invitation.revoked_at = clock.now()
    session.add(invitation)


@dataclass(frozen=True)
class InvitationPreview:
    organization_name: str
    email: str
    role_name: str
    system_role_key: str | None  # a system role's name is said in the reader's language
    has_account: bool  # whether the invited address already has an account: the page offers that way first


def _find(session: Session, token: str) -> Invitation:
    invitation = session.exec(select(Invitation).where(
        Invitation.token_hash == runtime.get().keyring.token_hash(token))).first()
    if (invitation is None or invitation.accepted_at is not None or invitation.revoked_at is not None
            or invitation.expires_at <= clock.now()):
        raise NotFound("This invitation is invalid, used, revoked or expired.", code="invitation_not_found")
    return invitation


def preview(session: Session, *, token: str) -> InvitationPreview:
    invitation = _find(session, token)
    role = session.get(Role, invitation.role_id)
    return InvitationPreview(session.get(Organization, invitation.organization_id).name, invitation.email,
                             role.name, role.key if role.system else None,
                             users_service.get_user_by_email(session, invitation.email) is not None)


def check_accept(session: Session, *, actor: Actor, token: str) -> Membership:
    """Join the organization; the signed-in account's email must be the invited one."""
    invitation = _find(session, token)
    user = session.get(User, actor.user_id)
    if user is None or user.email != invitation.email:
        raise Forbidden("This invitation is for another email address.", code="invitation_email_mismatch")
    if session.exec(select(Membership.id).where(Membership.organization_id == invitation.organization_id,
                                                Membership.user_id == user.id)).first():
        raise Conflict("You are already a member.", code="already_member")
    _check_seat(session, invitation.organization_id, accepting=invitation)
    invitation.accepted_at, invitation.accepted_by = clock.now(), user.id
    session.add(invitation)
    users_service.do_mark_email_verified(session, user)  # the link proved the inbox is theirs
    return memberships_service.do_add_member(session, organization_id=invitation.organization_id,
                                             user_id=user.id, role_id=invitation.role_id)
