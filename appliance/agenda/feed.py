"""The agenda's public ICS feed, for calendar apps that subscribe by address (Google, Apple,
Outlook): a secret token in the URL; only its hash is kept, and a new token replaces the old (the
old address answers 404 at once). Written with the `icalendar` package (RFC 5545: folding,
escaping, time zones are its business), appointments from 30 days back to a year ahead, cancelled
ones as STATUS:CANCELLED so subscribed calendars drop them. The address is its maker's: it stops
working once they may no longer make it (managing.py)."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from appliance.agenda import managing
from appliance.agenda.models import AgendaFeed, Appointment
from appliance.core import clock, runtime
from appliance.core.actor import OrgActor
from appliance.core.crypto import random_token
from appliance.core.errors import NotFound
from appliance.organizations.models import Organization
from appliance.installation import public_address

PAST, AHEAD = timedelta(days=30), timedelta(days=365)


def feed_url(token: str) -> str:
    return public_address.url(f"/public/agenda/{token}/calendar.ics")


def do_new_token(session: Session, *, actor: OrgActor) -> dict:
    managing.check_person(actor)
    token = random_token(32)
    feed = session.get(AgendaFeed, actor.organization_id) or AgendaFeed(organization_id=actor.organization_id)
    feed.token_hash = runtime.get().keyring.token_hash("agenda-feed:" + token)
    feed.created_by_user_id, feed.created_at = actor.user_id, clock.now()
    session.add(feed)
    session.flush()
    return {"url": feed_url(token), "created_at": feed.created_at}


def feed_of(session: Session, organization_id: str) -> AgendaFeed | None:
    return session.get(AgendaFeed, organization_id)


def calendar_of(session: Session, token: str) -> bytes:
    """The feed of the organization whose token this is; 404 for any other (never saying why)."""
    found = session.exec(select(AgendaFeed).where(
        AgendaFeed.token_hash == runtime.get().keyring.token_hash("agenda-feed:" + (token or "")[:100]))).first()
    if found is None or not managing.still_manages(session, found.organization_id, found.created_by_user_id):
        raise NotFound("No such calendar.", code="calendar_feed_not_found")
    organization = session.get(Organization, found.organization_id)
    now = clock.now()
    import icalendar  # on the first feed read, not at start (footprint)

    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Appliance//Agenda//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", organization.name)
    calendar.add("x-wr-timezone", organization.timezone or "UTC")
    for appointment in session.exec(select(Appointment).where(
            Appointment.organization_id == found.organization_id, Appointment.end_at > now - PAST,
            Appointment.start_at < now + AHEAD, Appointment.sync_state.is_(None) | (Appointment.sync_state != "delete"))
            .order_by(Appointment.start_at)).all():
        event = icalendar.Event()
        event.add("uid", f"{appointment.id}@appliance")
        event.add("dtstamp", appointment.updated_at)
        event.add("dtstart", appointment.start_at)
        event.add("dtend", appointment.end_at)
        event.add("summary", appointment.title)
        if appointment.notes:
            event.add("description", appointment.notes)
        event.add("status", {"BOOKED": "CONFIRMED", "CANCELLED": "CANCELLED", "DONE": "CONFIRMED"}[appointment.status])
        event.add("last-modified", appointment.updated_at)
        calendar.add_component(event)
    return calendar.to_ical()
