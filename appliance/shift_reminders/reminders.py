"""Which shift reminders are due, each minute: for every agent on a FIXED schedule of an
organization with attendance and reminders on, on a working day (no holiday, no leave):
- shiftStart: within `shiftStartLeadMin` before the shift's start, without a session in progress;
- shiftEnd: within `shiftEndLeadMin` before the shift's end, with a session in progress;
- missedStart: once the shift began `lateGraceMin` ago without a session that day.
Each is sent once per person, shift and kind (service.send)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from appliance.attendance import days, rules, shifts
from appliance.attendance.models import AttendanceSession, AttendanceSettings
from appliance.shift_reminders import service
from appliance.shift_reminders.models import ShiftReminderSettings
from appliance.users.models import User

MINUTE = 60_000


def check(session: Session, now: int) -> int:
    sent = 0
    for settings in session.exec(select(ShiftReminderSettings).where(ShiftReminderSettings.enabled.is_(True))).all():
        attendance = session.get(AttendanceSettings, settings.organization_id)
        if attendance is None or not attendance.enabled:
            continue
        sent += _check_organization(session, settings, attendance, now)
    return sent


def _check_organization(session: Session, settings: ShiftReminderSettings, attendance, now: int) -> int:
    organization = rules.organization(session, settings.organization_id)
    tz = organization.timezone
    today = shifts.date_of(now, tz)
    team = rules.tracked(session, organization.id)
    plans = rules.plans(session, organization.id, team)
    tomorrow = today + shifts.DAY
    holidays = days.holidays_between(session, organization.id, today, tomorrow)
    leaves = days.leaves_between(session, organization.id, today, tomorrow)
    started_today = {user_id: ended is None for user_id, ended in session.exec(
        select(AttendanceSession.user_id, AttendanceSession.ended_ms).where(
            AttendanceSession.organization_id == organization.id,
            AttendanceSession.started_ms >= shifts.midnight_ms(today, tz) - days.LOOKBACK_MS))
        if ended is None or ended >= shifts.midnight_ms(today, tz)}
    in_progress = {user_id for user_id, is_open in started_today.items() if is_open}
    sent = 0
    for user_id in team:
        plan = plans[user_id]
        if plan.work_mode != "FIXED":
            continue
        for day in (today, tomorrow):  # tomorrow: a shift at midnight is announced before it
            if day.isoformat() in holidays or (user_id, day.isoformat()) in leaves:
                continue
            shift = shifts.shift_intervals(plan.schedule, tz, day)
            if not shift:
                continue
            start, end = shift[0][0], shift[-1][1]
            came = user_id in started_today and day == today
            for kind, at in _due(settings, attendance, start, end, now, user_id in in_progress, came):
                local = datetime.fromtimestamp(at / 1000, shifts.zone(tz)).strftime("%H:%M")
                if service.send(session, settings=settings, organization_id=organization.id,
                                user=session.get(User, user_id), kind=kind, shift_start_ms=start, at=local):
                    sent += 1
    return sent


def _due(settings, attendance, start: int, end: int, now: int, working: bool, came: bool) -> list[tuple[str, int]]:
    wanted = settings.events
    due = []
    if wanted.get("shiftStart") and start - settings.shift_start_lead_min * MINUTE <= now < start and not working:
        due.append(("shiftStart", start))
    if wanted.get("shiftEnd") and end - settings.shift_end_lead_min * MINUTE <= now < end and working:
        due.append(("shiftEnd", end))
    if wanted.get("missedStart") and start + attendance.late_grace_min * MINUTE <= now < end and not came:
        due.append(("missedStart", start))
    return due
