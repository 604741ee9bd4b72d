"""What an AI agent with the `schedule_appointment` capability does with the agenda: read a day's
free times and book one of them for the customer of the conversation. Only a free time may be
booked (the bot never double-books nor books outside business hours); every answer carries a
sentence the model can pass on. Called from an AI worker's thread, never inside a transaction (service.py asks the
calendar's busy times before its write transaction begins)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from appliance.agenda import service as agenda_service, slots
from appliance.contacts.models import Contact
from appliance.core.actor import OrgActor
from appliance.core.errors import AppError
from appliance.organizations.zones import zone_of

DEFAULT_MINUTES = 30


def _duration(value) -> int:
    try:
        minutes = int(value or DEFAULT_MINUTES)
    except (TypeError, ValueError):
        minutes = DEFAULT_MINUTES
    return min(max(minutes, 5), 480)


def free_times(database, *, actor: OrgActor, day: str, duration_min=None) -> dict:
    try:
        wanted = date.fromisoformat(str(day)[:10])
    except ValueError:
        return {"slots": [], "summary": "The date must be YYYY-MM-DD."}
    minutes = _duration(duration_min)
    with database.unit_of_work(write=False) as session:
        zone = zone_of(session, actor.organization_id)
        found = slots.free_slots(session, actor=actor, day=wanted, duration_min=minutes)
    times = [s["start"].astimezone(zone).strftime("%H:%M") for s in found["slots"]]
    summary = (f"Free times on {wanted.isoformat()} for {minutes} minutes: {', '.join(times)}." if times
               else f"No free time on {wanted.isoformat()}.")
    return {"date": wanted.isoformat(), "timezone": found["timezone"], "durationMin": minutes, "slots": times,
            "summary": summary}


def book(database, *, actor: OrgActor, start: str, duration_min=None, title: str | None = None,
         conversation_id: str | None = None, contact_id: str | None = None, dry_run: bool = False) -> dict:
    """Book `start` (the business's local time, YYYY-MM-DDTHH:MM) if it is a free time, titled as
    the model says or by the contact's name; dry_run (the probador) checks without booking."""
    minutes = _duration(duration_min)
    with database.unit_of_work(write=False) as session:
        zone = zone_of(session, actor.organization_id)
    try:
        local = datetime.fromisoformat(str(start)[:16].replace(" ", "T"))
    except ValueError:
        return {"booked": False, "summary": "The start must be YYYY-MM-DDTHH:MM in the business's time zone."}
    begins = local.replace(tzinfo=zone) if local.tzinfo is None else local
    free = free_times(database, actor=actor, day=begins.date().isoformat(), duration_min=minutes)
    if begins.astimezone(zone).strftime("%H:%M") not in free["slots"]:
        return {"booked": False, "free": free["slots"],
                "summary": f"{begins.strftime('%Y-%m-%d %H:%M')} is not free. " + free["summary"]}
    when = begins.strftime("%Y-%m-%d %H:%M")
    if dry_run:
        return {"booked": True, "test": True, "start": when, "summary": f"Booked for {when} (a test: nothing was saved)."}
    ends = begins + timedelta(minutes=minutes)
    if not title and contact_id:
        with database.unit_of_work(write=False) as session:
            contact = session.get(Contact, contact_id)
            title = contact and (contact.name or contact.profile_name)
    title = title or "WhatsApp"
    try:
        with database.unit_of_work(write=True) as session:
            made = agenda_service.do_create(session, actor=actor, title=title[:200], start_at=begins,
                                          end_at=ends, conversation_id=conversation_id, contact_id=contact_id)
            appointment_id = made.id
    except AppError as error:
        return {"booked": False, "summary": f"{when} could not be booked: {error.detail}"}
    return {"booked": True, "appointmentId": appointment_id, "start": when, "durationMin": minutes,
            "summary": f"Booked for {when} ({minutes} minutes)."}
