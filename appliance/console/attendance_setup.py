"""Attendance's set-up in the console: the rules and shift reminders, the holidays and leaves
calendar, and an agent's page (work mode and own week, sessions with corrections). Forms are read
into the API's schemas, so a page is held to the same rules as the route it stands for."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from flask import request

from appliance.attendance import calendar_days, rules, sessions, shifts
from appliance.attendance import api as attendance_api
from appliance.attendance.schemas import (AttendanceSettingsPatchSchema, AttendanceWorkModeBodySchema,
                                          HolidayBodySchema, HolidaySeedArgsSchema, LeaveBodySchema)
from appliance.console import forms
from appliance.console.attendance import page
from appliance.console.common import back, console_pages, org_actor
from appliance.core.errors import AppError, Invalid
from appliance.core.schema import camelcase
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.shift_reminders import service as reminders_service
from appliance.shift_reminders import api as shift_reminders_api
from appliance.shift_reminders.models import CHANNELS, EVENTS
from appliance.shift_reminders.schemas import ShiftReminderPutSchema

_BOOLEANS = ("enabled", "require_jornada_for_inbox", "require_active_to_attend", "auto_close_enabled",
             "close_at_shift_end", "allow_overtime", "include_open_sessions")
_NUMBERS = ("inactivity_minutes", "late_grace_min", "early_leave_grace_min", "absence_min_worked_min")
_CHOICES = ("worked_counting", "day_attribution", "payroll_period")


# The rules ---------------------------------------------------------------------------------------

def _settings_page(actor, error: AppError | None = None):
    session = db_session()
    return page("console/attendance_settings.html", actor, "settings", error=error, status=400 if error else 200,
                modes=rules.list_work_modes(session, actor=actor), reminders=reminders_service.settings_of(
                    session, actor.organization_id), channels=CHANNELS, reminder_events=EVENTS,
                values=request.form if error else None)


@console_pages.get("/console/<uuid:org_id>/attendance/settings")
@performs(attendance_api.Settings.get)
@signed_in_page
def attendance_settings(org_id):
    return _settings_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/attendance/settings")
@performs(attendance_api.Settings.patch)
@signed_in_page
def attendance_settings_save(org_id):
    actor = org_actor(org_id)
    body = {camelcase(name): bool(request.form.get(name)) for name in _BOOLEANS}
    body |= {camelcase(name): forms.text(name, 6) for name in _NUMBERS if forms.text(name, 6)}
    body |= {camelcase(name): forms.text(name, 20) for name in _CHOICES if forms.text(name, 20)}
    try:
        rules.do_update_settings(db_session(), actor=actor, **check_form(AttendanceSettingsPatchSchema(), body))
    except AppError as error:
        return _settings_page(actor, error)
    return back("console_pages.attendance_settings", "saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/attendance/reminders")
@performs(shift_reminders_api.Reminders.put)
@signed_in_page
def attendance_reminders_save(org_id):
    actor = org_actor(org_id)
    body = {"enabled": bool(request.form.get("reminders_enabled")),
            "channels": {name: name in forms.checked("channels") for name in CHANNELS},
            "events": {name: name in forms.checked("events") for name in EVENTS},
            "shiftStartLeadMin": forms.text("start_lead", 4) or "10", "shiftEndLeadMin": forms.text("end_lead", 4) or "10"}
    try:
        reminders_service.do_update(db_session(), actor=actor, **check_form(ShiftReminderPutSchema(), body))
    except AppError as error:
        return _settings_page(actor, error)
    return back("console_pages.attendance_settings", "saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/attendance/reminders/test")
@performs(shift_reminders_api.Test.post)
@signed_in_page
def attendance_reminders_test(org_id):
    actor = org_actor(org_id)
    try:
        reminders_service.do_send_test(db_session(), actor=actor)
    except AppError as error:
        return _settings_page(actor, error)
    return back("console_pages.attendance_settings", "test_sent", org_id=actor.organization_id)


# Holidays and leaves -------------------------------------------------------------------------------

def _calendar_page(actor, error: AppError | None = None):
    session = db_session()
    today = rules.today(rules.organization(session, actor.organization_id).timezone)
    year = request.args.get("year", "")
    year = int(year) if year.isdigit() and 1970 <= int(year) <= 2100 else today.year
    team = rules.members(session, actor.organization_id)
    leaves = calendar_days.list_leaves(session, actor=actor, first=today - timedelta(days=60),
                                       last=today + timedelta(days=365))
    return page("console/attendance_calendar.html", actor, "calendar", error=error, status=400 if error else 200,
                year=year, today=today, holidays=calendar_days.list_holidays(session, actor=actor, year=year),
                leaves=leaves, team=team, values=request.form if error else None,
                leave_days={leave.id: (date.fromisoformat(leave.end_date) - date.fromisoformat(leave.start_date)).days + 1
                            for leave in leaves})


@console_pages.get("/console/<uuid:org_id>/attendance/calendar")
@performs(attendance_api.Holidays.post)  # the page where holidays and leaves are managed
@signed_in_page
def attendance_calendar(org_id):
    return _calendar_page(org_actor(org_id))


def _calendar_action(org_id, act, done: str):
    actor = org_actor(org_id)
    try:
        act(actor)
    except AppError as error:
        db_session().rollback()
        return _calendar_page(actor, error)
    return back("console_pages.attendance_calendar", done, org_id=actor.organization_id, year=request.form.get("year"))


@console_pages.post("/console/<uuid:org_id>/attendance/holidays")
@performs(attendance_api.Holidays.post)
@signed_in_page
def attendance_holiday_add(org_id):
    item = {"date": forms.text("date", 10), "name": forms.text("name", 120), "recurring": bool(request.form.get("recurring"))}
    return _calendar_action(org_id, lambda actor: calendar_days.do_put_holidays(
        db_session(), actor=actor, **check_form(HolidayBodySchema(), {"items": [item]})), "holiday_added")


@console_pages.post("/console/<uuid:org_id>/attendance/holidays/seed")
@performs(attendance_api.HolidaySeed.post)
@signed_in_page
def attendance_holiday_seed(org_id):
    # The country whole: "Mexico" is refused with a word, never cut to ME (Montenegro's holidays).
    args = {"year": forms.text("year", 4), "country": forms.text("country", 100).upper()}
    return _calendar_action(org_id, lambda actor: calendar_days.do_seed(
        db_session(), actor=actor, **check_form(HolidaySeedArgsSchema(), args)), "seeded")


@console_pages.post("/console/<uuid:org_id>/attendance/holidays/<uuid:holiday_id>/delete")
@performs(attendance_api.HolidayById.delete)
@signed_in_page
def attendance_holiday_delete(org_id, holiday_id):
    return _calendar_action(org_id, lambda actor: calendar_days.do_delete_holiday(
        db_session(), actor=actor, holiday_id=str(holiday_id)), "deleted")


@console_pages.post("/console/<uuid:org_id>/attendance/leaves")
@performs(attendance_api.Leaves.post)
@signed_in_page
def attendance_leave_add(org_id):
    body = {"agentUserId": forms.text("agent_user_id", 36), "type": forms.text("type", 12),
            "startDate": forms.text("start_date", 10), "endDate": forms.text("end_date", 10) or forms.text("start_date", 10),
            "note": forms.optional("note", 500)}
    return _calendar_action(org_id, lambda actor: calendar_days.do_create_leave(
        db_session(), actor=actor, **check_form(LeaveBodySchema(), body)), "leave_added")


@console_pages.post("/console/<uuid:org_id>/attendance/leaves/<uuid:leave_id>/delete")
@performs(attendance_api.LeaveById.delete)
@signed_in_page
def attendance_leave_delete(org_id, leave_id):
    return _calendar_action(org_id, lambda actor: calendar_days.do_delete_leave(
        db_session(), actor=actor, leave_id=str(leave_id)), "deleted")


# One agent ------------------------------------------------------------------------------------------

def _agent_page(actor, agent_id: str, error: AppError | None = None):
    session = db_session()
    agent = rules.access_agent(session, actor=actor, agent_id=agent_id)
    mode = next(m for m in rules.list_work_modes(session, actor=actor) if m["agent_user_id"] == agent.user_id)
    return page("console/attendance_agent.html", actor, "settings", error=error, status=400 if error else 200,
                agent=agent, mode=mode, weekdays=forms.WEEKDAYS, values=request.form if error else None,
                history=sessions.agent_history(session, actor=actor, agent_id=agent.user_id))


@console_pages.get("/console/<uuid:org_id>/attendance/agents/<uuid:agent_id>")
@performs(attendance_api.AgentSessions.get)
@signed_in_page
def attendance_agent(org_id, agent_id):
    return _agent_page(org_actor(org_id), str(agent_id))


@console_pages.post("/console/<uuid:org_id>/attendance/agents/<uuid:agent_id>/mode")
@performs(attendance_api.WorkModeById.patch)
@signed_in_page
def attendance_agent_mode(org_id, agent_id):
    actor = org_actor(org_id)
    mode = forms.text("work_mode", 10)
    body = {"workMode": mode, "schedule": forms.business_hours() if mode == "FIXED" and request.form.get("own") else None}
    try:
        rules.do_set_work_mode(db_session(), actor=actor, agent_id=str(agent_id),
                               **check_form(AttendanceWorkModeBodySchema(), body))
    except AppError as error:
        return _agent_page(actor, str(agent_id), error)
    return back("console_pages.attendance_agent", "saved", org_id=actor.organization_id, agent_id=agent_id)


@console_pages.post("/console/<uuid:org_id>/attendance/sessions/<uuid:session_id>/end")
@performs(attendance_api.SessionById.patch)
@signed_in_page
def attendance_session_end(org_id, session_id):
    """An admin's correction: the end as the organization's clock reads it (datetime-local)."""
    actor = org_actor(org_id)
    row = sessions.access_session(db_session(), actor=actor, session_id=str(session_id))
    timezone = rules.organization(db_session(), actor.organization_id).timezone
    try:
        try:
            local = datetime.fromisoformat(forms.text("ended_at", 16)).replace(tzinfo=shifts.zone(timezone))
        except ValueError:
            raise Invalid("Give the date and time the shift ended.", code="validation_failed",
                          errors={"endedAt": ["Not a valid date and time."]}) from None
        sessions.do_correct_end(db_session(), actor=actor, session_id=row.id, ended_at=shifts.ms(local))
    except AppError as error:
        db_session().rollback()
        return _agent_page(actor, row.user_id, error)
    return back("console_pages.attendance_agent", "corrected", org_id=actor.organization_id, agent_id=row.user_id)


@console_pages.post("/console/<uuid:org_id>/attendance/sessions/<uuid:session_id>/delete")
@performs(attendance_api.SessionById.delete)
@signed_in_page
def attendance_session_delete(org_id, session_id):
    actor = org_actor(org_id)
    row = sessions.do_delete(db_session(), actor=actor, session_id=str(session_id))
    return back("console_pages.attendance_agent", "deleted", org_id=actor.organization_id, agent_id=row.user_id)
