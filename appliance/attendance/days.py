"""The team's days, computed when asked from the sessions' worked spans, the agents' plans,
holidays, leaves and overtime: nothing is stored per day, so a changed work mode, schedule or
counting rule applies to history at once ("history is recomputed").

A day is a date in the organization's time zone. `dayAttribution` decides where a session across
midnight counts: all on the day it started (start-day) or cut at midnight (split-by-day).
`workedCounting` decides what counts: every worked minute (wall-clock) or only minutes inside the
shift, plus the rest on days with overtime granted (within-shift)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from sqlmodel import Session, select

from appliance.attendance import shifts, timeline
from appliance.attendance.models import AttendanceSession, Holiday, Leave
from appliance.attendance.rules import Plan, granted

MINUTE = timeline.MINUTE
LOOKBACK_MS = 7 * 24 * 3600 * 1000  # sessions last at most 7 days (sessions.MAX_LENGTH_MS)


@dataclass
class Worked:
    """What one agent did on one day."""

    spans: list = field(default_factory=list)  # [start, end) pieces of work attributed to the day
    first_start: int | None = None
    last_end: int | None = None
    open: bool = False  # a session in progress counts here
    sessions: int = 0


@dataclass(frozen=True)
class Context:
    """Everything the day rules read besides the sessions."""

    timezone: str
    settings: object  # AttendanceSettings
    plans: dict  # user id -> Plan
    holidays: dict  # date -> name
    leaves: dict  # (user id, date) -> leave type
    overtime: set  # (user id, date iso)
    now_ms: int


def worked_by_day(session: Session, organization_id: str, user_ids, index: shifts.DayIndex, *,
                  attribution: str, include_open: bool, now_ms: int) -> dict[tuple[str, int], Worked]:
    """(user id, day position) -> Worked, for the sessions touching the index's days."""
    query = (select(AttendanceSession.user_id, AttendanceSession.started_ms, AttendanceSession.ended_ms,
                    AttendanceSession.worked_spans, AttendanceSession.timeline)
             .where(AttendanceSession.organization_id == organization_id,
                    AttendanceSession.started_ms >= index.start_ms - LOOKBACK_MS,
                    AttendanceSession.started_ms < index.end_ms))
    wanted = set(user_ids)
    found: dict[tuple[str, int], Worked] = {}
    for user_id, started, ended, spans, spells in session.exec(query):
        if user_id not in wanted or (ended is not None and ended <= index.start_ms):
            continue
        if ended is None:
            if not include_open:
                continue
            spans = timeline.worked_spans(spells, now_ms)
        end = ended if ended is not None else now_ms
        if attribution == "split-by-day":
            for position, start, stop in (piece for span in spans for piece in index.split(*span)):
                _add(found, user_id, position, [start, stop], ended is None)
            for position in {piece[0] for piece in index.split(started, max(end, started + 1))}:
                day = found.setdefault((user_id, position), Worked())
                day.first_start = min(day.first_start or end, max(started, index.bounds[position]))
                day.last_end = max(day.last_end or 0, min(end, index.bounds[position + 1]))
                day.sessions += 1
        else:
            position = index.position(started)
            if 0 <= position < len(index.days):
                for span in spans:
                    _add(found, user_id, position, span, ended is None)
                day = found.setdefault((user_id, position), Worked())
                day.first_start = min(day.first_start or started, started)
                day.last_end = max(day.last_end or 0, end)
                day.sessions += 1
    return found


def _add(found: dict, user_id: str, position: int, span, is_open: bool) -> None:
    day = found.setdefault((user_id, position), Worked())
    day.spans.append(span)
    day.open = day.open or is_open


def holidays_between(session: Session, organization_id: str, first: date, last: date) -> dict[str, str]:
    """date iso -> name, recurring holidays repeated every year."""
    found = {}
    rows = session.exec(select(Holiday.date, Holiday.name, Holiday.recurring)
                        .where(Holiday.organization_id == organization_id)).all()
    years = range(first.year, last.year + 1)
    for day, name, recurring in rows:
        if recurring:
            for year in years:
                try:
                    found.setdefault(date(year, int(day[5:7]), int(day[8:10])).isoformat(), name)
                except ValueError:  # 29 February in a common year
                    continue
        elif first.isoformat() <= day <= last.isoformat():
            found[day] = name
    return found


def leaves_between(session: Session, organization_id: str, first: date, last: date) -> dict[tuple[str, str], str]:
    """(user id, date iso) -> leave type for each day of leave inside the range."""
    found = {}
    rows = session.exec(select(Leave.user_id, Leave.type, Leave.start_date, Leave.end_date).where(
        Leave.organization_id == organization_id, Leave.start_date <= last.isoformat(),
        Leave.end_date >= first.isoformat())).all()
    for user_id, kind, start, end in rows:
        for day in shifts.dates(max(date.fromisoformat(start), first), min(date.fromisoformat(end), last)):
            found[(user_id, day.isoformat())] = kind
    return found


def judge(user_id: str, day: date, worked: Worked | None, context: Context, shift_cache: dict) -> dict:
    """One agent's day by the rules: expected, worked, late, early leave, absence, extra, overtime."""
    settings, iso = context.settings, day.isoformat()
    plan: Plan = context.plans[user_id]
    holiday = context.holidays.get(iso)
    leave = context.leaves.get((user_id, iso))
    shift = []
    if plan.schedule and not holiday and not leave:
        key = (id(plan.schedule), iso)
        if key not in shift_cache:
            shift_cache[key] = shifts.shift_intervals(plan.schedule, context.timezone, day)
        shift = shift_cache[key]
    spans = worked.spans if worked else []
    wall = sum(end - start for start, end in spans)
    in_shift = shifts.overlap(spans, shift) if shift else 0
    extra = wall - in_shift if plan.work_mode == "FIXED" else 0
    overtime = extra if settings.allow_overtime and (user_id, iso) in context.overtime else 0
    counted = wall if settings.worked_counting == "wall-clock" or plan.work_mode == "HOURLY" else in_shift + overtime
    late_minutes = 0
    if shift and worked and worked.first_start is not None:
        late_by = worked.first_start - shift[0][0]
        if late_by > settings.late_grace_min * MINUTE:
            late_minutes = late_by // MINUTE
    early = bool(shift and worked and worked.last_end is not None and not worked.open
                 and worked.last_end < shift[-1][1] - settings.early_leave_grace_min * MINUTE)
    shift_over = bool(shift) and context.now_ms >= shift[-1][1]
    absent = shift_over and wall < settings.absence_min_worked_min * MINUTE
    return {"date": iso, "expected_min": sum(end - start for start, end in shift) // MINUTE,
            "worked_min": counted // MINUTE, "wall_min": wall // MINUTE, "in_shift_min": in_shift // MINUTE,
            "extra_min": extra // MINUTE, "overtime_min": overtime // MINUTE,
            "present": wall > 0 or bool(worked and worked.open), "in_progress": bool(worked and worked.open),
            "late": late_minutes > 0, "late_minutes": late_minutes, "early_leave": early, "absent": absent,
            "on_leave": leave, "holiday": holiday, "overtime": (user_id, iso) in context.overtime,
            "first_start_at": worked.first_start if worked else None,
            "last_end_at": worked.last_end if worked and not worked.open else None,
            "shift": [{"from": start, "to": end} for start, end in shift]}


def context_for(session: Session, organization, settings, plans: dict, first: date, last: date, now_ms: int) -> Context:
    return Context(timezone=organization.timezone, settings=settings, plans=plans,
                   holidays=holidays_between(session, organization.id, first, last),
                   leaves=leaves_between(session, organization.id, first, last),
                   overtime=granted(session, organization.id, first.isoformat(), last.isoformat()), now_ms=now_ms)


def judged(session: Session, organization, settings, plans: dict, first: date, last: date, now_ms: int):
    """{user id: [day, ...]} for every agent of `plans` and every date from first to last."""
    index = shifts.DayIndex(first, last, organization.timezone)
    context = context_for(session, organization, settings, plans, first, last, now_ms)
    worked = worked_by_day(session, organization.id, plans, index, attribution=settings.day_attribution,
                           include_open=settings.include_open_sessions, now_ms=now_ms)
    cache: dict = {}
    return {user_id: [judge(user_id, day, worked.get((user_id, position)), context, cache)
                      for position, day in enumerate(index.days)] for user_id in plans}


def sum_days(days: list[dict]) -> dict:
    return {"worked_min": sum(d["worked_min"] for d in days), "expected_min": sum(d["expected_min"] for d in days),
            "late_count": sum(d["late"] for d in days), "absent_days": sum(d["absent"] for d in days),
            "overtime_min": sum(d["overtime_min"] for d in days), "leave_days": sum(bool(d["on_leave"]) for d in days),
            "extra_min": sum(d["extra_min"] for d in days), "early_leave_count": sum(d["early_leave"] for d in days),
            "present_days": sum(d["present"] for d in days), "holiday_days": sum(bool(d["holiday"]) for d in days)}


def previous_range(first: date, last: date) -> tuple[date, date]:
    length = (last - first).days + 1
    return first - timedelta(days=length), first - timedelta(days=1)
