"""The inbox's attendance rules, asked by sending and assignment:
- `requireJornadaForInbox`: an agent without a shift in progress gets 403 `shift_not_started`;
- `requireActiveToAttend`: an agent whose shift is on LUNCH, BREAK, MEETING or TRAINING gets 403
  `agent_not_active`, and nobody can give such an agent a conversation (409 `assignee_not_active`).
Only people are held (API keys, the bot and integrations are not), and only those without
attendance:manage (supervisors, admins and owners run the team, they do not clock in to it)."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.attendance.models import AttendanceSession, AttendanceSettings
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Forbidden
from appliance.memberships.models import Membership
from appliance.roles.models import Role


def _rules(session: Session, organization_id: str) -> AttendanceSettings | None:
    found = session.get(AttendanceSettings, organization_id)
    if found is None or not found.enabled or not (found.require_jornada_for_inbox or found.require_active_to_attend):
        return None
    return found


def _status(session: Session, organization_id: str, user_id: str) -> str | None:
    return session.exec(select(AttendanceSession.status).where(
        AttendanceSession.organization_id == organization_id, AttendanceSession.user_id == user_id,
        AttendanceSession.ended_ms.is_(None))).first()


def check_may_attend(session: Session, actor: OrgActor) -> None:
    """Refuse a person's send or assignment while the rules say they are not at work."""
    if actor.user_id is None or actor.kind not in ("user", "oauth") or actor.can("attendance:manage"):
        return
    rules = _rules(session, actor.organization_id)
    if rules is None:
        return
    status = _status(session, actor.organization_id, actor.user_id)
    if status is None and (rules.require_jornada_for_inbox or rules.require_active_to_attend):
        raise Forbidden("Start your shift first: this organization requires it to work in the inbox.",
                        code="shift_not_started")
    if rules.require_active_to_attend and status != "ONLINE":
        raise Forbidden(f"You are on {status}: go back ONLINE to attend conversations.", code="agent_not_active")


def is_held(session: Session, actor: OrgActor) -> bool:
    """Whether the rules keep the person out of the inbox now (what `check_may_attend` refuses):
    the inbox's header says so before they try."""
    try:
        check_may_attend(session, actor)
    except Forbidden:
        return True
    return False


def check_may_receive(session: Session, actor: OrgActor, assignee_user_id: str) -> None:
    """With requireActiveToAttend, a conversation goes only to an agent who is ONLINE."""
    if assignee_user_id == actor.user_id:
        return  # taking it oneself: check_may_attend said
    rules = _rules(session, actor.organization_id)
    if rules is None or not rules.require_active_to_attend:
        return
    permissions = session.exec(select(Role.permissions).join(Membership, Membership.role_id == Role.id).where(
        Membership.organization_id == actor.organization_id, Membership.user_id == assignee_user_id)).first()
    if "attendance:manage" in (permissions or []):
        return
    if _status(session, actor.organization_id, assignee_user_id) != "ONLINE":
        raise Conflict("This agent is not ONLINE now: the organization gives conversations only to agents at work.",
                       code="assignee_not_active")
