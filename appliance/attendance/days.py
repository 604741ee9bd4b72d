"""The team's days, computed when asked from the sessions' worked spans, the agents' plans,
holidays, leaves and overtime: nothing is stored per day, so a changed work mode, schedule or
counting rule applies to history at once ("history is recomputed").

A day is a date in the organization's time zone. `dayAttribution` decides where a session across
midnight counts: all on the day it started (start-day) or cut at midnight (split-by-day).
`workedCounting` decides what counts: every worked minute (wall-clock) or only minutes inside the
shift, plus the rest on days with overtime granted (within-shift). No day before an agent joined
the organization, or before attendance was turned on, is expected of them (so none is an absence):
every view, the report and its CSV judge days here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from sqlmodel import Session, select

from appliance.attendance import shifts, timeline
from appliance.attendance.models import AttendanceSession, Holiday, Leave
from appliance.attendance.rules import Plan, first_counted_days, granted

MINUTE = timeline.MINUTE
LOOKBACK_MS = 7 * 24 * 3600 * 1000  # sessions last at most 7 days (sessions.MAX_LENGTH_MS)


@dataclass
class Worked:
    """What one agent did on one day."""

    spans: list = field(default_factory=list)  # [start, end) pieces of work attributed to the day
    wall: int = 0  # their length, ms
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
    first_days: dict  # user id -> the first date iso expected of them (rules.first_counted_days)


def worked_by_day(session: Session, organization_id: str, user_ids, index: shifts.DayIndex, *,
                  attribution: str, include_open: bool, now_ms: int) -> dict[tuple[str, int], Worked]:
    """(user id, day position) -> Worked, for the sessions touching the index's days."""
    # Ended sessions bring only their worked spans (small); the few in progress, their timeline.
    ended_rows = session.exec(
        select(AttendanceSession.user_id, AttendanceSession.started_ms, AttendanceSession.ended_ms,
               AttendanceSession.worked_spans)
        .where(AttendanceSession.organization_id == organization_id,
               AttendanceSession.started_ms >= index.start_ms - LOOKBACK_MS,
               AttendanceSession.started_ms < index.end_ms, AttendanceSession.ended_ms > index.start_ms)).all()
    # (No condition on started_ms: the partial index of sessions in progress answers at once, where
    # the range would send the planner through every session of the organization.)
    open_rows = [] if not include_open else [
        (user_id, started, None, timeline.worked_spans(spells, now_ms)) for user_id, started, spells in session.exec(
            select(AttendanceSession.user_id, AttendanceSession.started_ms, AttendanceSession.timeline)
            .where(AttendanceSession.organization_id == organization_id, AttendanceSession.ended_ms.is_(None)))
        if started < index.end_ms]
    wanted = set(user_ids)
    found: dict[tuple[str, int], Worked] = {}
    for user_id, started, ended, spans in ended_rows + open_rows:
        if user_id not in wanted:
            continue
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
    day.wall += span[1] - span[0]
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


def judge_agent(user_id: str, index: shifts.DayIndex, isos: list[str], worked: dict, context: Context,
                shift_cache: dict) -> list[dict]:
    """One agent's days by the rules: expected, worked, late, early leave, absence, extra, overtime.
    (The report judges 50 agents over a year, 18,000 days: what does not change from day to day
    is read once, outside the loop.)"""
    settings, plan = context.settings, context.plans[user_id]
    fixed = plan.work_mode == "FIXED"
    wall_clock = settings.worked_counting == "wall-clock" or not fixed
    late_grace, early_grace = settings.late_grace_min * MINUTE, settings.early_leave_grace_min * MINUTE
    absence_floor = settings.absence_min_worked_min * MINUTE
    holidays, leaves, overtime_days, now = context.holidays, context.leaves, context.overtime, context.now_ms
    first_day = context.first_days[user_id]
    allow_overtime = settings.allow_overtime
    schedule_shifts = None
    if plan.schedule:
        schedule_shifts = shift_cache.get(id(plan.schedule))
        if schedule_shifts is None:
            schedule_shifts = shift_cache[id(plan.schedule)] = [
                shifts.shift_intervals(plan.schedule, context.timezone, day) for day in index.days]
    found = []
    for position, iso in enumerate(isos):
        day = worked.get((user_id, position))
        holiday = holidays.get(iso)
        leave = leaves.get((user_id, iso)) if leaves else None
        # Work inside the shift counts whenever it was done; only what is owed (expected minutes,
        # lateness, an absence) waits for the first counted day.
        shift = schedule_shifts[position] if schedule_shifts and not holiday and not leave else ()
        owed = shift if iso >= first_day else ()
        wall = day.wall if day else 0
        in_shift = shifts.overlap(day.spans, shift) if shift and day else 0
        extra = wall - in_shift if fixed else 0
        granted_today = (user_id, iso) in overtime_days
        overtime = extra if allow_overtime and granted_today else 0
        late_minutes, early = 0, False
        if owed and day:
            late_by = day.first_start - shift[0][0]
            if late_by > late_grace:
                late_minutes = late_by // MINUTE
            early = not day.open and day.last_end < shift[-1][1] - early_grace
        found.append({
            "date": iso, "expected_min": sum(end - start for start, end in owed) // MINUTE if owed else 0,
            "worked_min": (wall if wall_clock else in_shift + overtime) // MINUTE, "wall_min": wall // MINUTE,
            "in_shift_min": in_shift // MINUTE, "extra_min": extra // MINUTE, "overtime_min": overtime // MINUTE,
            "present": bool(day and (wall > 0 or day.open)), "in_progress": bool(day and day.open),
            "late": late_minutes > 0, "late_minutes": late_minutes, "early_leave": early,
            "absent": bool(owed) and now >= owed[-1][1] and wall < absence_floor,
            "on_leave": leave, "holiday": holiday, "overtime": granted_today,
            "first_start_at": day.first_start if day else None,
            "last_end_at": day.last_end if day and not day.open else None, "shift": owed})
    return found


def context_for(session: Session, organization, settings, plans: dict, first: date, last: date, now_ms: int) -> Context:
    return Context(timezone=organization.timezone, settings=settings, plans=plans,
                   holidays=holidays_between(session, organization.id, first, last),
                   leaves=leaves_between(session, organization.id, first, last),
                   overtime=granted(session, organization.id, first.isoformat(), last.isoformat()), now_ms=now_ms,
                   first_days=first_counted_days(session, organization, settings, plans))


def judged(session: Session, organization, settings, plans: dict, first: date, last: date, now_ms: int):
    """{user id: [day, ...]} for every agent of `plans` and every date from first to last."""
    index = shifts.DayIndex(first, last, organization.timezone)
    context = context_for(session, organization, settings, plans, first, last, now_ms)
    worked = worked_by_day(session, organization.id, plans, index, attribution=settings.day_attribution,
                           include_open=settings.include_open_sessions, now_ms=now_ms)
    isos = [day.isoformat() for day in index.days]
    cache: dict = {}
    return {user_id: judge_agent(user_id, index, isos, worked, context, cache) for user_id in plans}


SUMS = {"worked_min": "worked_min", "expected_min": "expected_min", "late_count": "late", "absent_days": "absent",
        "overtime_min": "overtime_min", "leave_days": "on_leave", "extra_min": "extra_min",
        "early_leave_count": "early_leave", "present_days": "present", "holiday_days": "holiday"}


def sum_days(days: list[dict]) -> dict:
    """A period's totals: minutes added up, days counted."""
    totals = dict.fromkeys(SUMS, 0)
    for day in days:
        for total, key in SUMS.items():
            value = day[key]
            if value:
                totals[total] += value if value.__class__ is int else 1
    return totals


def previous_range(first: date, last: date) -> tuple[date, date]:
    length = (last - first).days + 1
    return first - timedelta(days=length), first - timedelta(days=1)
