"""Attendance as people read it: an agent's today, the team's status now, one day of the team, the
period presets and the report (with the previous period of the same length to compare). A
person's own shift (start, status, end, history) is sessions.py's; the rules, work modes and
overtime rules.py's; holidays and leaves calendar_days.py's."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from sqlmodel import Session, select

from appliance.attendance import days, rules, sessions, shifts, timeline
from appliance.attendance.models import AttendanceSession
from appliance.core.actor import OrgActor


def _team_context(session: Session, organization_id: str, with_sessions: set[str] = frozenset()):
    """The rules, the agents the views count and what is expected of each."""
    settings = rules.settings_of(session, organization_id)
    team = rules.tracked(session, organization_id, with_sessions)
    return settings, team, rules.plans(session, organization_id, team)


def _worked_in(session: Session, organization_id: str, first: date, last: date, timezone: str) -> set[str]:
    return set(session.exec(select(AttendanceSession.user_id).distinct().where(
        AttendanceSession.organization_id == organization_id,
        AttendanceSession.started_ms >= shifts.midnight_ms(first, timezone) - days.LOOKBACK_MS,
        AttendanceSession.started_ms < shifts.midnight_ms(last + shifts.DAY, timezone))).all())


def today(session: Session, *, actor: OrgActor) -> dict:
    """The agent's day so far: the session in progress, today's sessions, totals, the timeline,
    the day's judgement (late, extra...) and the expected shift."""
    organization = rules.organization(session, actor.organization_id)
    day = rules.today(organization.timezone)
    now = sessions.now_ms()
    start, end = shifts.midnight_ms(day, organization.timezone), shifts.midnight_ms(day + shifts.DAY, organization.timezone)
    rows = session.exec(select(AttendanceSession).where(
        AttendanceSession.organization_id == actor.organization_id, AttendanceSession.user_id == actor.user_id,
        AttendanceSession.started_ms >= start - days.LOOKBACK_MS, AttendanceSession.started_ms < end)
        .order_by(AttendanceSession.started_ms)).all()
    rows = [sessions.live(row, now) for row in rows if row.ended_ms is None or row.ended_ms > start]
    totals = {key: sum(row.totals.get(key, 0) for row in rows) for key in ("workedMin", *timeline.TOTAL_KEYS.values())}
    plans = rules.plans(session, actor.organization_id, [actor.user_id])
    judged = days.judged(session, organization, rules.settings_of(session, actor.organization_id), plans, day, day,
                         now)[actor.user_id][0]
    remaining = max(judged["expected_min"] - judged["in_shift_min"], 0) if judged["expected_min"] else None
    in_progress = next((row for row in rows if row.ended_ms is None), None)
    return {"date": day.isoformat(), "timezone": organization.timezone, "session": in_progress, "sessions": rows,
            "totals": totals, "timeline": [spell for row in rows for spell in row.timeline],
            "metrics": {**judged, "remaining_min": remaining},
            "schedule": {"work_mode": plans[actor.user_id].work_mode, "intervals": judged["shift"],
                         "holiday": judged["holiday"], "on_leave": judged["on_leave"]}}


def team_status(session: Session, *, actor: OrgActor) -> dict:
    """Every tracked agent now: OFFLINE or the status of the session in progress, since when, and
    today's worked minutes."""
    organization = rules.organization(session, actor.organization_id)
    day = rules.today(organization.timezone)
    open_rows = {row.user_id: row for row in session.exec(select(AttendanceSession).where(
        AttendanceSession.organization_id == actor.organization_id, AttendanceSession.ended_ms.is_(None)))}
    settings, team, plans = _team_context(session, actor.organization_id, set(open_rows))
    now = sessions.now_ms()
    judged = days.judged(session, organization, settings, plans, day, day, now)
    agents = []
    for user_id, agent in team.items():
        row = open_rows.get(user_id)
        today_ = judged[user_id][0]
        agents.append({"agent_user_id": user_id, "name": agent.name, "status": row.status if row else "OFFLINE",
                       "since": row.timeline[-1]["from"] if row else today_["last_end_at"],
                       "session_id": row.id if row else None, "worked_min": today_["wall_min"],
                       "late": today_["late"], "absent": today_["absent"], "on_leave": today_["on_leave"],
                       "holiday": today_["holiday"], "overtime": today_["overtime"]})
    counts = {}
    for agent in agents:
        counts[agent["status"]] = counts.get(agent["status"], 0) + 1
    return {"date": day.isoformat(), "agents": agents, "counts": counts}


def day(session: Session, *, actor: OrgActor, on: date) -> dict:
    organization = rules.organization(session, actor.organization_id)
    worked = _worked_in(session, actor.organization_id, on, on, organization.timezone)
    settings, team, plans = _team_context(session, actor.organization_id, worked)
    judged = days.judged(session, organization, settings, plans, on, on, sessions.now_ms())
    agents = [{"agent_user_id": user_id, "name": agent.name, "work_mode": plans[user_id].work_mode,
               **judged[user_id][0]} for user_id, agent in team.items()]
    summary = {"present": sum(a["present"] for a in agents), "late": sum(a["late"] for a in agents),
               "absent": sum(a["absent"] for a in agents), "on_leave": sum(bool(a["on_leave"]) for a in agents),
               "extra_min": sum(a["extra_min"] for a in agents)}
    return {"date": on.isoformat(), "timezone": organization.timezone, "agents": agents, "summary": summary}


def report(session: Session, *, actor: OrgActor, first: date | None = None, last: date | None = None,
           compare: bool = False) -> dict:
    """Hours per agent over a range (default: the last 30 days), in payroll form, with the previous
    range of the same length when `compare`."""
    organization = rules.organization(session, actor.organization_id)
    last = last or rules.today(organization.timezone)
    first = first or last - timedelta(days=sessions.HISTORY_DAYS - 1)
    sessions.check_range(first, last)
    earlier = days.previous_range(first, last)
    worked = _worked_in(session, actor.organization_id, earlier[0] if compare else first, last, organization.timezone)
    settings, team, plans = _team_context(session, actor.organization_id, worked)
    now = sessions.now_ms()
    current = days.judged(session, organization, settings, plans, first, last, now)
    previous = days.judged(session, organization, settings, plans, *earlier, now) if compare else None
    agents = []
    for user_id, agent in team.items():
        entry = {"agent_user_id": user_id, "name": agent.name, "email": agent.email,
                 "work_mode": plans[user_id].work_mode, **days.sum_days(current[user_id])}
        if previous is not None:
            entry["previous"] = days.sum_days(previous[user_id])
        agents.append(entry)
    totals = {key: sum(agent[key] for agent in agents) for key in days.sum_days([]).keys()}
    answer = {"from": first.isoformat(), "to": last.isoformat(), "timezone": organization.timezone,
              "settings": {"worked_counting": settings.worked_counting, "day_attribution": settings.day_attribution,
                           "include_open_sessions": settings.include_open_sessions},
              "agents": agents, "totals": totals, "days": _daily(current, first, last)}
    if previous is not None:
        answer["previous"] = {"from": earlier[0].isoformat(), "to": earlier[1].isoformat(),
                              "totals": {key: sum(a["previous"][key] for a in agents) for key in totals}}
    return answer


def _daily(judged: dict, first: date, last: date) -> list[dict]:
    """The team's worked and expected minutes per date (the report's chart)."""
    found = []
    for position, on in enumerate(shifts.dates(first, last)):
        found.append({"date": on.isoformat(),
                      "worked_min": sum(agent_days[position]["worked_min"] for agent_days in judged.values()),
                      "expected_min": sum(agent_days[position]["expected_min"] for agent_days in judged.values())})
    return found


def agent_days(session: Session, *, actor: OrgActor, agent_id: str, first: date, last: date) -> list[dict]:
    """One agent's days (the report's drill-down)."""
    agent = rules.access_agent(session, actor=actor, agent_id=agent_id)
    sessions.check_range(first, last)
    organization = rules.organization(session, actor.organization_id)
    plans = rules.plans(session, actor.organization_id, [agent.user_id])
    return days.judged(session, organization, rules.settings_of(session, actor.organization_id), plans, first, last,
                       sessions.now_ms())[agent.user_id]


# Period presets ---------------------------------------------------------------------------------

def _fortnight(on: date) -> tuple[date, date]:
    if on.day <= 15:
        return on.replace(day=1), on.replace(day=15)
    return on.replace(day=16), on.replace(day=calendar.monthrange(on.year, on.month)[1])


def _month(on: date) -> tuple[date, date]:
    return on.replace(day=1), on.replace(day=calendar.monthrange(on.year, on.month)[1])


def period_presets(session: Session, *, actor: OrgActor) -> dict:
    """Ranges people pick, in the organization's time zone; `payroll` and `previousPayroll` follow
    the settings' payrollPeriod (semimonthly: 1-15 and 16-end; rolling-15; monthly)."""
    organization = rules.organization(session, actor.organization_id)
    settings = rules.settings_of(session, actor.organization_id)
    on = rules.today(organization.timezone)
    fortnight = _fortnight(on)
    month = _month(on)
    ranges = {
        "fortnight": fortnight,
        "previous-fortnight": _fortnight(fortnight[0] - timedelta(days=1)),
        "last-15-days": (on - timedelta(days=14), on),
        "last-30-days": (on - timedelta(days=29), on),
        "month": month,
        "previous-month": _month(month[0] - timedelta(days=1)),
    }
    payroll = {"semimonthly": "fortnight", "rolling-15": "last-15-days", "monthly": "month"}[settings.payroll_period]
    ranges["payroll"] = ranges[payroll]
    ranges["previous-payroll"] = (ranges["previous-" + payroll] if payroll != "last-15-days"
                                  else days.previous_range(*ranges["last-15-days"]))
    return {"today": on.isoformat(), "timezone": organization.timezone, "payroll_period": settings.payroll_period,
            "presets": [{"key": key, "from": start.isoformat(), "to": end.isoformat()}
                        for key, (start, end) in ranges.items()]}
