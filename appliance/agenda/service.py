"""The agenda as people and the API reach it: appointments of the organization's one agenda (a small business's calendar: one room, one
chair, one professional; several resources are a later wave). A booked appointment may not overlap
another booked one (409 `appointment_overlaps`), nor, when the connected calendar blocks busy
times, a busy span there (409 `calendar_busy`). Every change that the connected calendar should
hear marks the appointment pending for sync.py; a deleted one stays as a tombstone until its
event is gone. An appointment about a conversation belongs to its number: a key or member kept to
other numbers neither sees it (404) nor books one there (403)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, select

from appliance.agenda import busy, tasks
from appliance.agenda.models import Appointment, CalendarConnection
from appliance.conversations import inbox as conversations_inbox
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.rows import read_row
from appliance.core.errors import Conflict, Invalid, NotFound
from appliance.memberships import service as memberships_service

MAX_LENGTH = timedelta(days=7)
FIELDS = ("title", "contact_id", "conversation_id", "assignee_user_id", "start_at", "end_at", "notes", "status")


def list_appointments(session: Session, *, actor: OrgActor, start: datetime | None = None, end: datetime | None = None,
                      status: str | None = None) -> list[Appointment]:
    query = select(Appointment).where(Appointment.organization_id == actor.organization_id,
                                      Appointment.sync_state.is_(None) | (Appointment.sync_state != "delete"))
    if start is not None:
        query = query.where(Appointment.end_at > start)
    if end is not None:
        query = query.where(Appointment.start_at < end)
    if status is not None:
        query = query.where(Appointment.status == status)
    query = conversations_inbox.about_visible(query, Appointment.conversation_id, actor)
    return list(session.exec(query.order_by(Appointment.start_at, Appointment.id).limit(1000)).all())


def access_appointment(session: Session, *, actor: OrgActor, appointment_id: str) -> Appointment:
    found = session.get(Appointment, appointment_id)
    if found is None or found.organization_id != actor.organization_id or found.sync_state == "delete" or \
            not conversations_inbox.sees_about(session, actor=actor, conversation_id=found.conversation_id):
        raise NotFound("No appointment with this id in this organization.", code="appointment_not_found")
    return found


def _busy(actor: OrgActor, fields: dict) -> list:
    """The connected calendar's busy spans over a booking's time, asked before the caller's first
    statement: a request's write lock is taken by that statement, and is not held while Google answers."""
    if fields.get("status", "BOOKED") != "BOOKED" or fields["end_at"] <= fields["start_at"]:
        return []
    return busy.busy_spans(actor.organization_id, fields["start_at"], fields["end_at"]) or []


def _check_links(session: Session, actor: OrgActor, fields: dict) -> None:
    """The records a body names are the organization's (400 `unknown_ids`), the assignee an active
    member: on every change that names them, whether or not the times move."""
    conversations_inbox.check_links(session, actor=actor, contact_id=fields.get("contact_id"),
                                    conversation_id=fields.get("conversation_id"))
    if fields.get("assignee_user_id"):
        memberships_service.check_assignable(session, actor=actor, user_id=fields["assignee_user_id"],
                                             field="assigneeUserId")


def _check(session: Session, actor: OrgActor, fields: dict, spans: list, *, exclude: Appointment | None = None) -> None:
    start, end = fields["start_at"], fields["end_at"]
    if end <= start:
        raise Invalid("end must be after start.", code="invalid_times", errors={"end": ["After start."]})
    if end - start > MAX_LENGTH:
        raise Invalid("An appointment lasts at most 7 days.", code="invalid_times", errors={"end": ["At most 7 days after start."]})
    if fields.get("status", "BOOKED") != "BOOKED":
        return
    clash = session.exec(select(Appointment.id).where(
        Appointment.organization_id == actor.organization_id, Appointment.status == "BOOKED",
        Appointment.sync_state.is_(None) | (Appointment.sync_state != "delete"),
        Appointment.start_at < end, Appointment.end_at > start, Appointment.id != (exclude.id if exclude else "")
    ).limit(1)).first()
    if clash is not None:
        raise Conflict("Another appointment is booked at that time.", code="appointment_overlaps", appointmentId=clash)
    if exclude is not None and exclude.provider_event_id:  # its own event, where it was, is not a clash
        spans = [span for span in spans if span != (exclude.start_at, exclude.end_at)]
    if any(low < end and high > start for low, high in spans):
        raise Conflict("The connected calendar is busy at that time.", code="calendar_busy")


def do_create(session: Session, *, actor: OrgActor, **fields) -> Appointment:
    fields.setdefault("status", "BOOKED")
    spans = _busy(actor, fields)
    _check_links(session, actor, fields)
    _check(session, actor, fields, spans)
    now = clock.now()
    appointment = Appointment(organization_id=actor.organization_id, created_by_user_id=actor.user_id,
                              created_at=now, updated_at=now, **{k: v for k, v in fields.items() if k in FIELDS})
    session.add(appointment)
    _changed(session, appointment)
    return appointment


def do_update(session: Session, *, actor: OrgActor, appointment_id: str, **changes) -> Appointment:
    # The row as committed (the thread's reader: no transaction begun yet), for the busy spans.
    before = read_row(session, Appointment.__table__, id=appointment_id)
    mine = before is not None and before.organization_id == actor.organization_id
    spans = _busy(actor, {name: changes.get(name, getattr(before, name)) for name in FIELDS}) if mine else []
    appointment = access_appointment(session, actor=actor, appointment_id=appointment_id)
    _check_links(session, actor, changes)
    merged = {name: changes.get(name, getattr(appointment, name)) for name in FIELDS}
    moved = any(merged[name] != getattr(appointment, name) for name in ("start_at", "end_at", "status"))
    if moved:
        _check(session, actor, merged, spans, exclude=appointment)
    elif merged["end_at"] <= merged["start_at"]:
        raise Invalid("end must be after start.", code="invalid_times", errors={"end": ["After start."]})
    for name in FIELDS:
        if name in changes:
            setattr(appointment, name, changes[name])
    appointment.updated_at = clock.now()
    session.add(appointment)
    _changed(session, appointment)
    return appointment


def do_delete(session: Session, *, actor: OrgActor, appointment_id: str) -> None:
    appointment = access_appointment(session, actor=actor, appointment_id=appointment_id)
    if appointment.provider_event_id:
        appointment.sync_state, appointment.updated_at = "delete", clock.now()  # the event goes first (sync.py)
        session.add(appointment)
        session.flush()
        tasks.sync_after_commit(session)
    else:
        session.delete(appointment)
        session.flush()


def _changed(session: Session, appointment: Appointment) -> None:
    """The connected calendar hears of it when pushing is on."""
    connection = session.get(CalendarConnection, appointment.organization_id)
    if connection is not None and connection.connected and connection.push_enabled:
        appointment.sync_state, appointment.sync_error = "pending", None
        session.add(appointment)
        session.flush()
        tasks.sync_after_commit(session)
    else:
        session.flush()
