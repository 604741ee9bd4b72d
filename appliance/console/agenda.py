"""The agenda in the console: a day (its appointments, its free slots as links that fill the
booking form) and a week (seven columns), a booking form that works without JavaScript, each
appointment's actions (done, cancel, delete) and what the connected calendar knows of it; and the
calendar page: Google Calendar's connection (connect, switches, disconnect, why it is off) and the
ICS feed's address."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from flask import redirect, request

from appliance.agenda import feed, provider, service as agenda_service, slots
from appliance.agenda import api as agenda_api
from appliance.agenda.models import STATUSES
from appliance.agenda.pages import begin_connect
from appliance.agenda.schemas import AppointmentCreateSchema, AppointmentPatchSchema, CalendarPatchSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_agenda import AGENDA_TEXTS
from appliance.core import clock
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs, permission_of
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.memberships import service as memberships_service
from appliance.organizations.zones import zone_of

_ACTIVE = "console_pages.agenda"
DURATIONS = (15, 30, 45, 60, 90, 120)


def _day_arg(zone) -> date:
    try:
        return date.fromisoformat(request.args.get("date") or "")
    except ValueError:
        return clock.now().astimezone(zone).date()


def _agenda_page(actor, error: AppError | None = None):
    session = db_session()
    zone = zone_of(session, actor.organization_id)
    day = _day_arg(zone)
    view = "week" if request.args.get("view") == "week" else "day"
    first = day - timedelta(days=day.weekday()) if view == "week" else day
    days = [first + timedelta(days=n) for n in range(7 if view == "week" else 1)]
    start = datetime.combine(days[0], time(), zone)
    end = datetime.combine(days[-1] + timedelta(days=1), time(), zone)
    found = agenda_service.list_appointments(session, actor=actor, start=start, end=end)
    by_day = {d: [a for a in found if a.start_at.astimezone(zone).date() == d] for d in days}
    duration = request.args.get("duration", type=int) or 30
    duration = duration if duration in DURATIONS else 30
    free = slots.free_slots(session, actor=actor, day=day, duration_min=duration) if view == "day" else None
    values = request.form if error else {"date": day.isoformat(), "time": request.args.get("time", ""),
                                         "duration": str(duration)}
    return render("console/agenda.html", actor, _ACTIVE, error=error, texts=AGENDA_TEXTS, view=view, day=day,
                  days=days, by_day=by_day, free=free, durations=DURATIONS, duration=duration,
                  statuses=STATUSES, values=values, today=clock.now().astimezone(zone).date(), timedelta=timedelta,
                  members={m.user_id: m for m in memberships_service.list_members(session, actor=actor)},
                  calendar=provider.status(session, actor=actor), done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/agenda")
@performs(agenda_api.Appointments.get)
@signed_in_page
def agenda(org_id):
    return _agenda_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/agenda")
@performs(agenda_api.Appointments.post)
@signed_in_page
def agenda_book(org_id):
    actor = org_actor(org_id)
    session = db_session()
    zone = zone_of(session, actor.organization_id)
    body = {"title": forms.text("title", 300), "notes": forms.optional("notes", 2100)}
    try:
        start = datetime.combine(date.fromisoformat(forms.text("date", 10)), time.fromisoformat(forms.text("time", 5)), zone)
        minutes = int(forms.text("duration", 4))
        body.update(start=start.isoformat(), end=(start + timedelta(minutes=minutes)).isoformat())
    except ValueError:
        body.update(start="", end="")  # the schema says which field is wrong
    try:
        made = agenda_service.do_create(session, actor=actor, **check_form(AppointmentCreateSchema(), body))
    except AppError as error:
        session.rollback()
        return _agenda_page(actor, error)
    return back("console_pages.agenda", "booked", org_id=actor.organization_id,
                date=made.start_at.astimezone(zone).date().isoformat())


@console_pages.post("/console/<uuid:org_id>/agenda/<uuid:appointment_id>")
@performs(agenda_api.AppointmentById.patch)  # done and cancel change it; delete needs the same permission
@signed_in_page
def agenda_change(org_id, appointment_id):
    """Done, cancel or delete one appointment."""
    actor = org_actor(org_id)
    session = db_session()
    agenda_service.access_appointment(session, actor=actor, appointment_id=str(appointment_id))  # 404 before the form
    action = forms.text("action", 10)
    try:
        if action == "delete":
            agenda_service.do_delete(session, actor=actor, appointment_id=str(appointment_id))
        else:
            agenda_service.do_update(session, actor=actor, appointment_id=str(appointment_id),
                                   **check_form(AppointmentPatchSchema(partial=True), {"status": action.upper()}))
    except AppError as error:
        session.rollback()
        return _agenda_page(actor, error)
    return back("console_pages.agenda", {"delete": "deleted", "done": "marked_done"}.get(action, "cancelled"),
                org_id=actor.organization_id, date=request.args.get("date"), view=request.args.get("view"))


def _calendar_page(actor, error: AppError | None = None, feed_url: str | None = None):
    session = db_session()
    return render("console/agenda_calendar.html", actor, _ACTIVE, error=error, texts=AGENDA_TEXTS,
                  can_manage=actor.can(permission_of(agenda_api.CalendarProvider.patch)),
                  calendar=provider.status(session, actor=actor), feed=feed.feed_of(session, actor.organization_id),
                  feed_url=feed_url, done=request.args.get("done"), no_store=feed_url is not None)


@console_pages.get("/console/<uuid:org_id>/agenda/calendar")
@performs(agenda_api.CalendarStatus.get)
@signed_in_page
def agenda_calendar(org_id):
    return _calendar_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/agenda/calendar/connect")
@performs(agenda_api.CalendarConnect.get)
@signed_in_page
def agenda_calendar_connect(org_id):
    actor = org_actor(org_id)
    try:
        return redirect(begin_connect(actor))
    except AppError as error:
        return _calendar_page(actor, error)


@console_pages.post("/console/<uuid:org_id>/agenda/calendar")
@performs(agenda_api.CalendarProvider.patch)
@signed_in_page
def agenda_calendar_switches(org_id):
    actor = org_actor(org_id)
    body = {"pushEnabled": bool(request.form.get("push_enabled")), "blockBusyEnabled": bool(request.form.get("block_busy_enabled"))}
    try:
        provider.do_update(db_session(), actor=actor, **check_form(CalendarPatchSchema(), body))
    except AppError as error:
        db_session().rollback()
        return _calendar_page(actor, error)
    return back("console_pages.agenda_calendar", "saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/agenda/calendar/disconnect")
@performs(agenda_api.CalendarProvider.delete)
@signed_in_page
def agenda_calendar_disconnect(org_id):
    actor = org_actor(org_id)
    provider.do_disconnect(db_session(), actor=actor)
    return back("console_pages.agenda_calendar", "disconnected", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/agenda/feed")
@performs(agenda_api.FeedToken.post)
@signed_in_page
def agenda_feed(org_id):
    """A new feed address, shown once on the page it answers (no-store): only its hash is kept."""
    actor = org_actor(org_id)
    made = feed.do_new_token(db_session(), actor=actor)
    return _calendar_page(actor, feed_url=made["url"])
