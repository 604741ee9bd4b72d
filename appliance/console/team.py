"""The team: members with their roles, business-account scope and suspension; invitations (send,
send again, revoke); custom roles with a permission picker grouped by area."""

from __future__ import annotations

import re
from itertools import groupby

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.core.errors import AppError, NotFound
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.operations import performs, permission_of
from appliance.http.pages import check_form, page_language
from appliance.http.unit_of_work import db_session
from appliance.invitations import service as invitations_service
from appliance.invitations import api as invitations_api
from appliance.invitations.schemas import InvitationCreateSchema
from appliance.mail import servers as mail_servers
from appliance.mail import delivery as mail_delivery
from appliance.mail import service as mail_service
from appliance.memberships import service as memberships_service
from appliance.memberships import api as memberships_api
from appliance.permissions import service as permissions_service
from appliance.roles import service as roles_service
from appliance.roles import api as roles_api
from appliance.roles.schemas import RoleCreateSchema
from appliance.wabas import service as wabas_service
from appliance.wabas import api as wabas_api

_PAGE, _ACTIVE = "console/team.html", "console_pages.team"


def permission_groups() -> list[dict]:
    """The catalog by area (resource), each permission with its description in the reader's language."""
    lang = page_language()
    return [{"area": resource, "permissions": [
        {"key": p.key, "action": p.action, "description": p.description.get(lang) or p.description.get("en", p.key)}
        for p in permissions]} for resource, permissions in groupby(permissions_service.list_permissions(),
                                                                      key=lambda p: p.resource)]


_INVITATION_LINK = re.compile(r"https?://\S+/invitations/accept\?token=[\w-]+")


def _invitation_links(session, invitations) -> dict[str, str]:
    """Without a mail server the invitations are only kept: their links, for the inviter to pass on
    (the newest mail to each address holds the link that works)."""
    if not invitations or mail_servers.is_set(session):
        return {}
    links = {}
    for invitation in invitations:
        for mail in mail_service.list_mails(session, to=invitation.email, limit=5):
            found = _INVITATION_LINK.search(mail_delivery.body_of(mail))
            if found:
                links[invitation.id] = found.group(0)
                break
    return links


def _page(actor, error: AppError | None = None, **extra):
    session = db_session()
    invitations = invitations_service.list_invitations(session, actor=actor) if actor.can(permission_of(invitations_api.Invitations.get)) else []
    context = {"members": memberships_service.list_members(session, actor=actor),
               "roles": roles_service.list_roles(session, actor=actor),
               "invitations": invitations,
               "invitation_links": _invitation_links(session, invitations) if actor.can(permission_of(invitations_api.Invitations.post)) else {},
               "wabas": wabas_service.list_wabas(session, actor=actor) if actor.can(permission_of(wabas_api.BusinessAccounts.get)) else [],
               "groups": permission_groups(), "me": browser_actor().user_id, "done": request.args.get("done"),
               "new_invitation": request.args.get("invitation", "")[:40],
               "values": {"email": request.form.get("email", "")[:254], "role_name": request.form.get("role_name", "")[:60],
                          "role_description": request.form.get("role_description", "")[:300],
                          "permissions": forms.checked("permissions")}, **extra}
    return render(_PAGE, actor, _ACTIVE, error=error, **context)


def _invited(actor, invitation, done: str):
    """Back to the team saying what happened to the mail: sent, or (no mail server) only kept, with
    the new invitation named so the page shows its link to copy beside the note."""
    if mail_servers.is_set(db_session()):
        return back(_ACTIVE, done, org_id=actor.organization_id)
    return back(_ACTIVE, f"{done}_kept", org_id=actor.organization_id, invitation=invitation.id)


@console_pages.get("/console/<uuid:org_id>/team")
@performs(memberships_api.Memberships.get)
@signed_in_page
def team(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/team/invitations")
@performs(invitations_api.Invitations.post)
@signed_in_page
def team_invite(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(InvitationCreateSchema(), {"email": forms.text("email", 300),
                                                       "roleId": forms.text("role_id", 60)})
        invitation = invitations_service.check_invite(db_session(), actor=actor, **fields)
    except AppError as error:
        return _page(actor, error, form="invite")
    return _invited(actor, invitation, "invited")


@console_pages.post("/console/<uuid:org_id>/team/invitations/<uuid:invitation_id>/resend")
@performs(invitations_api.Invitations.post)  # inviting again (the old link is revoked)
@signed_in_page
def team_resend(org_id, invitation_id):
    """A new link by mail (inviting again revokes the old one), for the same address and role."""
    actor = org_actor(org_id)
    pending = next((i for i in invitations_service.list_invitations(db_session(), actor=actor)
                    if i.id == str(invitation_id)), None)
    if pending is None:  # as revoking says: not ours, or no longer pending
        raise NotFound("No pending invitation with this id.", code="invitation_not_found")
    invitation = invitations_service.check_invite(db_session(), actor=actor, email=pending.email,
                                                  role_id=pending.role.id)
    return _invited(actor, invitation, "resent")


@console_pages.post("/console/<uuid:org_id>/team/invitations/<uuid:invitation_id>/revoke")
@performs(invitations_api.InvitationById.delete)
@signed_in_page
def team_revoke(org_id, invitation_id):
    actor = org_actor(org_id)
    invitations_service.do_revoke(db_session(), actor=actor, invitation_id=str(invitation_id))
    return back(_ACTIVE, "revoked", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/team/members/<uuid:membership_id>")
@performs(memberships_api.MembershipById.patch)  # a member's role, business accounts or suspension
@signed_in_page
def team_member(org_id, membership_id):
    """One member's role, business accounts and suspension, from the row's form."""
    actor = org_actor(org_id)
    membership_id = memberships_service.access_membership(db_session(), actor=actor, membership_id=str(membership_id)).id
    try:
        action = request.form.get("action", "")
        if action == "role":
            memberships_service.check_set_role(db_session(), actor=actor, membership_id=membership_id,
                                               role_id=forms.text("role_id", 60))
        elif action == "scope":
            memberships_service.check_set_waba_scope(db_session(), actor=actor, membership_id=membership_id,
                                                     waba_pks=forms.checked("waba_pks"))
        elif action in ("suspend", "unsuspend"):
            memberships_service.check_set_suspension(db_session(), actor=actor, membership_id=membership_id,
                                                     suspended=action == "suspend")
        elif action == "remove":
            memberships_service.check_remove_member(db_session(), actor=actor, membership_id=membership_id)
        else:
            return back(_ACTIVE, None, org_id=actor.organization_id)
    except AppError as error:
        return _page(actor, error, form="members")
    return back(_ACTIVE, f"member_{action}", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/team/roles")
@performs(roles_api.Roles.post)
@signed_in_page
def team_role(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(RoleCreateSchema(), {"name": forms.text("role_name", 100),
                                                 "description": forms.text("role_description", 400),
                                                 "permissions": forms.checked("permissions")})
        roles_service.check_create_role(db_session(), actor=actor, **fields)
    except AppError as error:
        return _page(actor, error, form="role")
    return back(_ACTIVE, "role_created", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/team/roles/<uuid:role_id>/delete")
@performs(roles_api.RoleById.delete)
@signed_in_page
def team_role_delete(org_id, role_id):
    actor = org_actor(org_id)
    try:
        roles_service.check_delete_role(db_session(), actor=actor, role_id=str(role_id))
    except AppError as error:
        return _page(actor, error, form="role")
    return back(_ACTIVE, "role_deleted", org_id=actor.organization_id)
