"""The organization's attendance rules (settings), agents' work modes and expected schedules,
overtime grants, and who the team is (the members attendance tracks)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, select

from appliance.attendance import shifts
from appliance.attendance.models import AttendanceSession, AttendanceSettings, OvertimeGrant, WorkMode
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid, NotFound
from appliance.memberships.models import Membership
from appliance.organizations.models import Organization
from appliance.roles.models import Role
from appliance.users.models import User

SETTING_FIELDS = ("enabled", "auto_close_enabled", "close_at_shift_end", "require_jornada_for_inbox", "allow_overtime",
                  "require_active_to_attend", "include_open_sessions", "inactivity_minutes", "late_grace_min",
                  "early_leave_grace_min", "absence_min_worked_min", "worked_counting", "day_attribution",
                  "payroll_period", "celebrations")
CELEBRATIONS_MAX_BYTES = 16 * 1024


def settings_of(session: Session, organization_id: str) -> AttendanceSettings:
    """The organization's rules; the decided defaults (not saved) when never set."""
    return session.get(AttendanceSettings, organization_id) or AttendanceSettings(organization_id=organization_id)


def do_update_settings(session: Session, *, actor: OrgActor, **changes) -> AttendanceSettings:
    if len(json.dumps(changes.get("celebrations"))) > CELEBRATIONS_MAX_BYTES:
        raise Invalid("celebrations holds at most 16 KB of JSON.", code="too_large",
                      errors={"celebrations": ["At most 16 KB."]})
    found = settings_of(session, actor.organization_id)
    if changes.get("enabled") and found.enabled_at is None:  # the first time: turning it off and on keeps it
        found.enabled_at = clock.now()
    for name in SETTING_FIELDS:
        if name in changes:
            setattr(found, name, changes[name])
    found.updated_at = clock.now()
    session.add(found)
    session.flush()
    return found


def organization(session: Session, organization_id: str) -> Organization:
    return session.get(Organization, organization_id)


def today(timezone: str) -> date:
    return shifts.date_of(shifts.ms(clock.now()), timezone)


# The team ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Agent:
    user_id: str
    name: str
    email: str
    locale: str
    manages: bool  # has attendance:manage (supervisors and up)


def members(session: Session, organization_id: str) -> dict[str, Agent]:
    """Active members who may use attendance, by user id."""
    rows = session.exec(select(User.id, User.name, User.email, User.locale, Role.permissions)
                        .join(Membership, Membership.user_id == User.id).join(Role, Role.id == Membership.role_id)
                        .where(Membership.organization_id == organization_id, Membership.suspended_at.is_(None))).all()
    return {user_id: Agent(user_id, name, email, locale, "attendance:manage" in (permissions or []))
            for user_id, name, email, locale, permissions in rows if "attendance:read" in (permissions or [])}


def tracked(session: Session, organization_id: str, with_sessions: set[str] = frozenset()) -> dict[str, Agent]:
    """The agents the team views count: members without attendance:manage, and managers who keep
    a schedule (a work mode set) or worked in the period (`with_sessions`); an owner who never
    clocks in is not shown absent every day."""
    everyone = members(session, organization_id)
    moded = set(session.exec(select(WorkMode.user_id).where(WorkMode.organization_id == organization_id)).all())
    return {user_id: agent for user_id, agent in sorted(everyone.items(), key=lambda item: item[1].name.lower())
            if not agent.manages or user_id in moded or user_id in with_sessions}


def first_counted_days(session: Session, organization: Organization, settings: AttendanceSettings,
                       user_ids) -> dict[str, str]:
    """user id -> the first date (ISO, in the organization's zone) on which attendance expects
    anything of the agent: the later of the day they joined the organization and the day the
    rules were turned on. Nothing is expected, so nothing is absent, before it (a person added
    today is not absent for the past month). Never turned on: nothing at all."""
    if settings.enabled_at is None:
        return dict.fromkeys(user_ids, date.max.isoformat())
    turned_on = _local_date(settings.enabled_at, organization.timezone)
    joined = dict(session.exec(select(Membership.user_id, Membership.created_at).where(
        Membership.organization_id == organization.id, Membership.user_id.in_(list(user_ids)))).all())
    return {user_id: max(turned_on, _local_date(joined[user_id], organization.timezone))
            if user_id in joined else turned_on for user_id in user_ids}


def _local_date(moment, timezone: str) -> str:
    return shifts.date_of(shifts.ms(moment), timezone).isoformat()


def access_agent(session: Session, *, actor: OrgActor, agent_id: str, field: str | None = None) -> Agent:
    """A member of the actor's organization (404, or 400 naming `field` for a body's id)."""
    agent = members(session, actor.organization_id).get(agent_id)
    if agent is None:
        message = "No member of this organization with this id uses attendance."
        if field:
            raise Invalid(message, code="agent_not_found", errors={field: ["Unknown agent."]})
        raise NotFound(message, code="agent_not_found")
    return agent


# Work modes and schedules ----------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """What is expected of one agent: the mode and, for FIXED, the weekly schedule."""

    work_mode: str
    schedule: dict | None  # None for HOURLY; the organization's hours unless the agent has their own
    own_schedule: bool


def plans(session: Session, organization_id: str, user_ids) -> dict[str, Plan]:
    org_hours = organization(session, organization_id).business_hours_schedule or {}
    modes = {mode.user_id: mode for mode in session.exec(select(WorkMode).where(WorkMode.organization_id == organization_id))}
    found = {}
    for user_id in user_ids:
        mode = modes.get(user_id)
        if mode is not None and mode.work_mode == "HOURLY":
            found[user_id] = Plan("HOURLY", None, False)
        else:
            own = mode is not None and mode.schedule is not None
            found[user_id] = Plan("FIXED", mode.schedule if own else org_hours, own)
    return found


def list_work_modes(session: Session, *, actor: OrgActor) -> list[dict]:
    team = members(session, actor.organization_id)
    found = plans(session, actor.organization_id, team)
    return [{"agent_user_id": user_id, "name": agent.name, "work_mode": found[user_id].work_mode,
             "schedule": found[user_id].schedule, "own_schedule": found[user_id].own_schedule}
            for user_id, agent in sorted(team.items(), key=lambda item: item[1].name.lower())]


def do_set_work_mode(session: Session, *, actor: OrgActor, agent_id: str, work_mode: str,
                     schedule: dict | None = None, **_) -> dict:
    """FIXED (on the agent's own schedule if given, else the organization's hours) or HOURLY. The
    views compute from the current mode, so history follows at once."""
    agent = access_agent(session, actor=actor, agent_id=agent_id)
    mode = session.get(WorkMode, (actor.organization_id, agent.user_id)) or WorkMode(
        organization_id=actor.organization_id, user_id=agent.user_id)
    mode.work_mode = work_mode
    mode.schedule = schedule if work_mode == "FIXED" else None
    mode.updated_at = clock.now()
    session.add(mode)
    session.flush()
    plan = plans(session, actor.organization_id, [agent.user_id])[agent.user_id]
    return {"agent_user_id": agent.user_id, "name": agent.name, "work_mode": plan.work_mode,
            "schedule": plan.schedule, "own_schedule": plan.own_schedule}


# Overtime ---------------------------------------------------------------------------------------

def granted(session: Session, organization_id: str, first: str, last: str) -> set[tuple[str, str]]:
    """(user id, date) pairs with overtime granted between two dates."""
    return set(session.exec(select(OvertimeGrant.user_id, OvertimeGrant.date).where(
        OvertimeGrant.organization_id == organization_id, OvertimeGrant.date >= first, OvertimeGrant.date <= last)).all())


def list_overtime(session: Session, *, actor: OrgActor) -> list[dict]:
    day = today(organization(session, actor.organization_id).timezone).isoformat()
    team = members(session, actor.organization_id)
    rows = session.exec(select(OvertimeGrant).where(OvertimeGrant.organization_id == actor.organization_id,
                                                    OvertimeGrant.date == day)).all()
    return [{"agent_user_id": row.user_id, "name": team[row.user_id].name if row.user_id in team else None,
             "date": row.date, "granted_by_user_id": row.granted_by_user_id, "created_at": row.created_at}
            for row in rows]


def do_set_overtime(session: Session, *, actor: OrgActor, agent_id: str, enabled: bool) -> dict:
    """Grant (or withdraw) today's overtime for one agent."""
    if enabled and not settings_of(session, actor.organization_id).allow_overtime:
        raise Conflict("Overtime is not allowed in this organization's attendance settings.",
                       code="overtime_not_allowed")
    agent = access_agent(session, actor=actor, agent_id=agent_id)
    day = today(organization(session, actor.organization_id).timezone).isoformat()
    grant = session.get(OvertimeGrant, (actor.organization_id, agent.user_id, day))
    if enabled and grant is None:
        grant = OvertimeGrant(organization_id=actor.organization_id, user_id=agent.user_id, date=day,
                              granted_by_user_id=actor.user_id, created_at=clock.now())
        session.add(grant)
    elif not enabled and grant is not None:
        session.delete(grant)
    return {"agent_user_id": agent.user_id, "date": day, "enabled": enabled}


def in_progress(session: Session, organization_id: str, user_id: str) -> AttendanceSession | None:
    return session.exec(select(AttendanceSession).where(AttendanceSession.organization_id == organization_id,
                                                        AttendanceSession.user_id == user_id,
                                                        AttendanceSession.ended_ms.is_(None))).first()
