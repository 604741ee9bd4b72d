"""Appointments pushed to the connected calendar as events: created, changed (title, times, notes,
status) and deleted. An appointment changed while pushing is on is marked `pending`; this module
sends the pending ones after the commit (a queue task) and a minute task sweeps what is left
(a crash, Google down), so the calendar hears every change at least once. Google is asked
outside any transaction; each outcome is written in a short one, and an appointment changed
meanwhile stays pending for the next pass. A refusal marks it `failed` with Google's reason (shown
in the agenda); a revoked grant disconnects the calendar (provider.py) and pushing stops. The
queue tasks that run it are tasks.py's."""

from __future__ import annotations

import logging
from datetime import timezone

from sqlmodel import select

from appliance.agenda import busy, provider
from appliance.agenda.models import Appointment, CalendarConnection
from appliance.core import clock
from appliance.google_calendar.client import CalendarError

log = logging.getLogger("appliance.agenda")
BATCH = 50


def event_of(appointment: Appointment) -> dict:
    def moment(at):
        return {"dateTime": at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"), "timeZone": "UTC"}
    return {"summary": appointment.title, "description": appointment.notes or "",
            "start": moment(appointment.start_at), "end": moment(appointment.end_at),
            "status": "cancelled" if appointment.status == "CANCELLED" else "confirmed",
            "extendedProperties": {"private": {"applianceAppointmentId": appointment.id}}}


def push_pending(database) -> int:
    """Send every pending change to its organization's calendar; answers how many were handled."""
    with database.unit_of_work(write=False) as session:
        pending = session.exec(select(Appointment).join(
            CalendarConnection, CalendarConnection.organization_id == Appointment.organization_id).where(
            Appointment.sync_state.in_(("pending", "delete")), CalendarConnection.connected.is_(True))
            .order_by(Appointment.updated_at).limit(BATCH)).all()
        work = [(a.id, a.organization_id, a.updated_at, a.sync_state, a.provider_event_id, event_of(a)) for a in pending]
    handled = 0
    client = provider.google()
    for appointment_id, organization_id, updated_at, state, event_id, event in work:
        if client is None:
            break
        outcome = _push(database, client, organization_id, state, event_id, event)
        if outcome is None:
            continue  # not connected any more (revoked): nothing to write
        _record(database, appointment_id, updated_at, state, outcome)
        busy.forget(organization_id)
        handled += 1
    return handled


def _push(database, client, organization_id: str, state: str, event_id: str | None, event: dict):
    """('ok', event id) or ('failed', reason); None when the organization is not connected."""
    for attempt in range(2):
        token = provider.access_token(database, organization_id, force_refresh=attempt > 0)
        if token is None:
            return None
        try:
            if state == "delete":
                client.delete_event(token, event_id)
                return "ok", None
            if event_id:
                try:
                    client.update_event(token, event_id, event)
                    return "ok", event_id
                except CalendarError as error:
                    if error.kind != "not_found":
                        raise
                    # deleted in Google by someone: made again, the agenda is the source
            return "ok", client.create_event(token, event)
        except CalendarError as error:
            if error.kind == "unauthorized" and attempt == 0:
                continue
            provider.record_failure(database, organization_id, error)
            if error.kind in ("revoked", "unavailable"):
                return None if error.kind == "revoked" else ("retry", error.message)
            return "failed", error.message
    return "retry", "Google kept refusing the access token."


def _record(database, appointment_id: str, updated_at, state: str, outcome: tuple) -> None:
    kind, value = outcome
    with database.unit_of_work(write=True) as session:
        appointment = session.get(Appointment, appointment_id)
        if appointment is None or appointment.updated_at != updated_at:
            return  # changed meanwhile: still pending, the next pass sends the newest
        if kind == "ok" and state == "delete":
            session.delete(appointment)
        else:
            if kind == "retry":
                appointment.sync_error = value[:300]
            elif kind == "failed":
                appointment.sync_state, appointment.sync_error = "failed", value[:300]
            else:
                appointment.provider_event_id, appointment.sync_state, appointment.sync_error = value, None, None
            session.add(appointment)
        if kind == "ok":
            connection = session.get(CalendarConnection, appointment.organization_id)
            if connection is not None:
                connection.last_sync_at, connection.last_error = clock.now(), None
                session.add(connection)
