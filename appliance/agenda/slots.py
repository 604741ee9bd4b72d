"""Free slots of a day: the organization's opening hours (in its zone) minus booked appointments
minus the connected calendar's busy times, cut into `durationMin` pieces starting every
`min(durationMin, 30)` minutes from each opening, none in the past."""

from __future__ import annotations

from datetime import date, timedelta

from sqlmodel import Session, select

from appliance.agenda import busy
from appliance.agenda.models import Appointment
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.organizations import hours
from appliance.organizations.models import Organization

STEP_MAX = timedelta(minutes=30)


def free_slots(session: Session, *, actor: OrgActor, day: date, duration_min: int) -> dict:
    organization = session.get(Organization, actor.organization_id)
    duration = timedelta(minutes=duration_min)
    step = min(duration, STEP_MAX)
    spans = hours.open_spans(organization.business_hours_schedule, organization.timezone or "UTC", day)
    taken: list = []
    checked = True
    if spans:
        low, high = spans[0][0], spans[-1][1]
        taken = [(a.start_at, a.end_at) for a in session.exec(select(Appointment).where(
            Appointment.organization_id == actor.organization_id, Appointment.status == "BOOKED",
            Appointment.sync_state.is_(None) | (Appointment.sync_state != "delete"),
            Appointment.start_at < high, Appointment.end_at > low)).all()]
        found = busy.busy_spans(actor.organization_id, low, high)
        checked = found is not None
        taken += found or []
    now, slots = clock.now(), []
    for opening, closing in spans:
        start = opening
        while start + duration <= closing:
            end = start + duration
            if start >= now and not any(low < end and high > start for low, high in taken):
                slots.append({"start": start, "end": end})
            start += step
    return {"date": day, "duration_min": duration_min, "timezone": organization.timezone or "UTC",
            "busy_checked": checked, "hours_set": hours.is_set(organization.business_hours_schedule), "slots": slots}
