"""Attendance in the console, for people who manage it: the team now (with overtime for today), one
day, and the report over a period (presets, compare, a chart, CSV in payroll form). The rules,
calendar and agents' pages are attendance_setup.py's. Every form posts without JavaScript."""

from __future__ import annotations

from datetime import date

from flask import request

from appliance.attendance import rules, service as attendance_service
from appliance.attendance import api as attendance_api
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_attendance import ATTENDANCE_TEXTS
from appliance.core.errors import AppError, Invalid
from appliance.http.browser import signed_in_page
from appliance.http.files import csv_attachment
from appliance.http.operations import performs
from appliance.http.unit_of_work import db_session

ACTIVE = "console_pages.attendance"


@console_pages.app_template_global("hours_minutes")
def hours_minutes(minutes: int | None) -> str:
    minutes = minutes or 0
    return f"{minutes // 60} h {minutes % 60:02d}"


def page(template: str, actor, tab: str, **context):
    settings = rules.settings_of(db_session(), actor.organization_id)
    return render(template, actor, ACTIVE, texts=ATTENDANCE_TEXTS, tab=tab, settings=settings,
                  done=request.args.get("done"), **context)


@console_pages.get("/console/<uuid:org_id>/attendance")
@performs(attendance_api.TeamStatus.get)
@signed_in_page
def attendance(org_id):
    actor = org_actor(org_id)
    return page("console/attendance_board.html", actor, "board",
                board=attendance_service.team_status(db_session(), actor=actor))


@console_pages.post("/console/<uuid:org_id>/attendance/overtime/<uuid:agent_id>")
@performs(attendance_api.OvertimeGrant.post)
@signed_in_page
def attendance_overtime(org_id, agent_id):
    actor = org_actor(org_id)
    enabled = request.form.get("enabled") == "1"
    try:
        rules.do_set_overtime(db_session(), actor=actor, agent_id=str(agent_id), enabled=enabled)
    except AppError as error:
        return page("console/attendance_board.html", actor, "board", error=error,
                    board=attendance_service.team_status(db_session(), actor=actor))
    return back(ACTIVE, "granted" if enabled else "withdrawn", org_id=actor.organization_id)


def _date_arg(name: str, default: date | None) -> date | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return default
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise Invalid("Use a date that exists (YYYY-MM-DD).", code="validation_failed",
                      errors={name: ["Not a valid date."]}) from None


@console_pages.get("/console/<uuid:org_id>/attendance/day")
@performs(attendance_api.Day.get)
@signed_in_page
def attendance_day(org_id):
    actor = org_actor(org_id)
    today = rules.today(rules.organization(db_session(), actor.organization_id).timezone)
    try:
        on = _date_arg("date", today)
        found = attendance_service.day(db_session(), actor=actor, on=on)
    except AppError as error:
        return page("console/attendance_day.html", actor, "day", error=error, on=today, day=None, status=400)
    return page("console/attendance_day.html", actor, "day", on=on, day=found)


def _report_range(actor) -> tuple[date | None, date | None, str | None]:
    """From the preset picked, else from/to (blank: the report's default, the last 30 days)."""
    chosen = request.args.get("preset")
    if chosen:
        presets = {p["key"]: p for p in attendance_service.period_presets(db_session(), actor=actor)["presets"]}
        if chosen in presets:
            return date.fromisoformat(presets[chosen]["from"]), date.fromisoformat(presets[chosen]["to"]), chosen
    return _date_arg("from", None), _date_arg("to", None), None


@console_pages.get("/console/<uuid:org_id>/attendance/report")
@performs(attendance_api.Report.get)
@signed_in_page
def attendance_report(org_id):
    actor = org_actor(org_id)
    presets = attendance_service.period_presets(db_session(), actor=actor)
    compare = request.args.get("compare") == "1"
    try:
        first, last, chosen = _report_range(actor)
        report = attendance_service.report(db_session(), actor=actor, first=first, last=last, compare=compare)
    except AppError as error:
        return page("console/attendance_report.html", actor, "report", error=error, presets=presets, report=None,
                    chosen=None, compare=compare, status=400)
    return page("console/attendance_report.html", actor, "report", presets=presets, report=report, chosen=chosen,
                compare=compare)


PAYROLL_COLUMNS = ("agent", "email", "work_mode", "from", "to", "expected_hours", "worked_hours", "overtime_hours",
                   "extra_hours", "late_days", "early_leaves", "absent_days", "leave_days", "holiday_days", "present_days")


@console_pages.get("/console/<uuid:org_id>/attendance/report.csv")
@performs(attendance_api.Report.get)
@signed_in_page
def attendance_report_csv(org_id):
    """The report in payroll form: one row per agent, hours as decimals (7.50 = seven and a half)."""
    actor = org_actor(org_id)
    try:
        first, last, _ = _report_range(actor)
        report = attendance_service.report(db_session(), actor=actor, first=first, last=last)
    except AppError as error:
        return page("console/attendance_report.html", actor, "report", error=error, report=None, chosen=None,
                    presets=attendance_service.period_presets(db_session(), actor=actor), compare=False, status=400)
    rows = ([agent["name"], agent["email"], agent["work_mode"], report["from"], report["to"],
             *(f"{agent[key] / 60:.2f}" for key in ("expected_min", "worked_min", "overtime_min", "extra_min")),
             agent["late_count"], agent["early_leave_count"], agent["absent_days"], agent["leave_days"],
             agent["holiday_days"], agent["present_days"]] for agent in report["agents"])
    return csv_attachment(f"attendance-{report['from']}-{report['to']}.csv", PAYROLL_COLUMNS, rows)
