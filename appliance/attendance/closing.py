"""Ending sessions nobody ended: each minute, a session in progress closes
- at its last request after `inactivityMinutes` without one while ONLINE (`autoCloseEnabled`; away
  statuses such as LUNCH or MEETING are declared absences, allowed AWAY_ALLOWANCE_MIN first);
- at the shift's end (`closeAtShiftEnd`) unless overtime is granted for the day;
- in any case 7 days after its start (sessions.MAX_LENGTH_MS).

Requests are noted in memory (`seen`, no write on the request path) and written to the sessions
by the same minute check; a crash loses at most a minute of them, and sessions in progress stay in
progress and are closed by these rules after the restart."""

from __future__ import annotations

import threading

from sqlmodel import Session, select

from appliance.attendance import rules, sessions, shifts
from appliance.attendance.models import AttendanceSession, AttendanceSettings
from appliance.core.rows import update_by_id

AWAY_ALLOWANCE_MIN = 180
_seen: dict[tuple[str, str], int] = {}
_lock = threading.Lock()


def seen(organization_id: str, user_id: str | None) -> None:
    """A person's request in an organization (the inbox, the API): they are at work."""
    if user_id:
        _seen[(organization_id, user_id)] = sessions.now_ms()


def _take_seen() -> dict[tuple[str, str], int]:
    global _seen
    with _lock:
        taken, _seen = _seen, {}
    return taken


def write_activity(session: Session) -> int:
    """Move the noted requests onto the sessions in progress."""
    taken = _take_seen()
    if not taken:
        return 0
    moved = 0
    rows = session.exec(select(AttendanceSession.id, AttendanceSession.organization_id, AttendanceSession.user_id,
                               AttendanceSession.last_activity_ms).where(AttendanceSession.ended_ms.is_(None))).all()
    for session_id, organization_id, user_id, last in rows:
        at = taken.get((organization_id, user_id))
        if at is not None and at > last:
            moved += update_by_id(session, AttendanceSession.__table__, session_id, {"last_activity_ms": at})
    return moved


def close_due(session: Session, now: int) -> list[AttendanceSession]:
    """End the sessions the rules end; answers them."""
    in_progress = session.exec(select(AttendanceSession).where(AttendanceSession.ended_ms.is_(None))).all()
    closed = []
    by_org: dict[str, list[AttendanceSession]] = {}
    for row in in_progress:
        by_org.setdefault(row.organization_id, []).append(row)
    for organization_id, rows in by_org.items():
        settings = session.get(AttendanceSettings, organization_id) or AttendanceSettings()
        organization = rules.organization(session, organization_id)
        plans = rules.plans(session, organization_id, [row.user_id for row in rows]) if settings.close_at_shift_end else {}
        for row in rows:
            found = _due(session, row, settings, organization.timezone, plans.get(row.user_id), now)
            if found is not None:
                at, reason = found
                closed.append(sessions.finish(session, row, max(at, row.started_ms + 1), reason))
    return closed


def _due(session: Session, row: AttendanceSession, settings, timezone: str, plan, now: int):
    if now - row.started_ms >= sessions.MAX_LENGTH_MS:
        return min(row.last_activity_ms, row.started_ms + sessions.MAX_LENGTH_MS), "INACTIVITY"
    if settings.auto_close_enabled:
        allowed = settings.inactivity_minutes + (0 if row.status == "ONLINE" else AWAY_ALLOWANCE_MIN)
        if now - row.last_activity_ms >= allowed * 60_000:
            return row.last_activity_ms, "INACTIVITY"
    if settings.close_at_shift_end and plan is not None and plan.schedule:
        day = shifts.date_of(row.started_ms, timezone)
        shift = shifts.shift_intervals(plan.schedule, timezone, day)
        if shift and row.started_ms < shift[-1][1] <= now and (row.user_id, day.isoformat()) not in rules.granted(
                session, row.organization_id, day.isoformat(), day.isoformat()):
            return shift[-1][1], "SHIFT_END"
    return None
