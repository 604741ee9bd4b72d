"""Work sessions: start (idempotent), status, end with a note (the day's report frozen), the live
view, history, an admin's correction of the end and deletion. Every change of status emits
agent.status_changed {userId, userName, sessionId, from, to, at}; OFFLINE is before a start and
after an end."""

from __future__ import annotations

from datetime import date, datetime, timezone

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from appliance.attendance import days, rules, shifts, timeline
from appliance.attendance.models import OFFLINE, AttendanceSession
from appliance.core import clock, events, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid
from appliance.users.models import User

MAX_LENGTH_MS = 7 * 24 * 3600 * 1000  # longer is a forgotten session; views look back this far
HISTORY_DAYS = 30


def now_ms() -> int:
    return shifts.ms(clock.now())


def _announce(session: Session, row: AttendanceSession, name: str, before: str, after: str, at: int) -> None:
    events.emit(session, events.AGENT_STATUS_CHANGED, organization_id=row.organization_id, userId=row.user_id,
                userName=name, sessionId=row.id, **{"from": before, "to": after},
                at=clock.iso(datetime.fromtimestamp(at / 1000, timezone.utc)))


def _name(session: Session, organization_id: str, user_id: str) -> str:
    return session.exec(select(User.name).where(User.id == user_id)).first() or user_id


def live(row: AttendanceSession, at: int | None = None) -> AttendanceSession:
    """The session with totals up to now while it is in progress (not saved: set as if loaded, so
    the next query of a read-only request does not try to write them)."""
    if row.ended_ms is None:
        set_committed_value(row, "totals", timeline.totals(row.timeline, at or now_ms()))
    return row


def me(session: Session, *, actor: OrgActor) -> AttendanceSession | None:
    row = rules.in_progress(session, actor.organization_id, actor.user_id)
    return live(row) if row else None


def _require_person(actor: OrgActor) -> None:
    if actor.user_id is None:
        raise Invalid("Attendance is a person's: sign in as the agent.", code="person_required")


def do_start(session: Session, *, actor: OrgActor) -> AttendanceSession:
    """Start a shift; the one in progress is answered as it is (two starts at once make one)."""
    _require_person(actor)
    found = rules.in_progress(session, actor.organization_id, actor.user_id)
    if found is not None:
        return live(found)
    if not rules.settings_of(session, actor.organization_id).enabled:
        raise Conflict("Attendance is off for this organization; an admin turns it on in its settings.",
                       code="attendance_disabled")
    at = now_ms()
    row = AttendanceSession(organization_id=actor.organization_id, user_id=actor.user_id, status="ONLINE",
                            started_ms=at, last_activity_ms=at, timeline=timeline.begin("ONLINE", at),
                            totals=timeline.totals([], at), updated_at=clock.now())
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:  # another start won the race (the partial unique index)
        return live(rules.in_progress(session, actor.organization_id, actor.user_id))
    _announce(session, row, _name(session, actor.organization_id, actor.user_id), OFFLINE, "ONLINE", at)
    return row


def _mine_in_progress(session: Session, actor: OrgActor) -> AttendanceSession:
    _require_person(actor)
    row = rules.in_progress(session, actor.organization_id, actor.user_id)
    if row is None:
        raise Conflict("No shift in progress: start one first.", code="no_session_in_progress")
    return row


def do_set_status(session: Session, *, actor: OrgActor, status: str) -> AttendanceSession:
    row = _mine_in_progress(session, actor)
    if row.status == status:
        return live(row)
    at = now_ms()
    before = row.status
    row.timeline, row.status, row.last_activity_ms, row.updated_at = (
        timeline.change(row.timeline, status, at), status, at, clock.now())
    session.add(row)
    _announce(session, row, _name(session, actor.organization_id, actor.user_id), before, status, at)
    return live(row, at)


def finish(session: Session, row: AttendanceSession, at: int, reason: str) -> AttendanceSession:
    """End a session at `at` (the agent, auto-close, or an admin): totals, worked spans and the
    day's report frozen as they stand."""
    before = row.status if row.ended_ms is None else None
    row.timeline = timeline.close(row.timeline, at)
    row.ended_ms, row.end_reason, row.updated_at = at, reason, clock.now()
    row.worked_spans = timeline.worked_spans(row.timeline, at)
    row.totals = timeline.totals(row.timeline, at)
    session.add(row)
    session.flush()
    row.report = day_report(session, row.organization_id, row.user_id, row.started_ms)
    if before is not None:
        _announce(session, row, _name(session, row.organization_id, row.user_id), before, OFFLINE, at)
    return row


def day_report(session: Session, organization_id: str, user_id: str, instant: int) -> dict:
    """The agent's day (the one holding `instant`) by the rules, as the views show it."""
    organization = rules.organization(session, organization_id)
    day = shifts.date_of(instant, organization.timezone)
    plans = rules.plans(session, organization_id, [user_id])
    return days.judged(session, organization, rules.settings_of(session, organization_id), plans, day, day,
                       now_ms())[user_id][0]


def do_end(session: Session, *, actor: OrgActor, note: str | None = None) -> AttendanceSession:
    row = _mine_in_progress(session, actor)
    row.note = note
    return finish(session, row, now_ms(), "USER")


# History and corrections ------------------------------------------------------------------------

def history(session: Session, organization_id: str, user_id: str, first: date | None, last: date | None,
            timezone: str) -> list[AttendanceSession]:
    """Sessions started between two dates (default: the last 30 days), newest first."""
    last = last or rules.today(timezone)
    first = first or last.fromordinal(last.toordinal() - HISTORY_DAYS + 1)
    check_range(first, last)
    rows = session.exec(select(AttendanceSession).where(
        AttendanceSession.organization_id == organization_id, AttendanceSession.user_id == user_id,
        AttendanceSession.started_ms >= shifts.midnight_ms(first, timezone),
        AttendanceSession.started_ms < shifts.midnight_ms(last + shifts.DAY, timezone))
        .order_by(AttendanceSession.started_ms.desc())).all()
    return [live(row) for row in rows]


def check_range(first: date, last: date, limit_days: int = 366) -> None:
    if last < first:
        raise Invalid("`to` must not be before `from`.", code="invalid_range", errors={"to": ["Before from."]})
    if (last - first).days >= limit_days:
        raise Invalid(f"A range covers at most {limit_days} days.", code="range_too_long",
                      errors={"to": [f"At most {limit_days} days after from."]})


def my_history(session: Session, *, actor: OrgActor, first: date | None = None, last: date | None = None):
    _require_person(actor)
    timezone = rules.organization(session, actor.organization_id).timezone
    return history(session, actor.organization_id, actor.user_id, first, last, timezone)


def agent_history(session: Session, *, actor: OrgActor, agent_id: str, first: date | None = None,
                  last: date | None = None):
    agent = rules.access_agent(session, actor=actor, agent_id=agent_id)
    timezone = rules.organization(session, actor.organization_id).timezone
    return history(session, actor.organization_id, agent.user_id, first, last, timezone)


def access_session(session: Session, *, actor: OrgActor, session_id: str) -> AttendanceSession:
    return tenancy.access_in_org(session, AttendanceSession, session_id, actor, what="session",
                                 code="session_not_found")


def do_correct_end(session: Session, *, actor: OrgActor, session_id: str, ended_at: int) -> AttendanceSession:
    """An admin moves the end (or ends a forgotten session): totals and the day recomputed."""
    row = access_session(session, actor=actor, session_id=session_id)
    if ended_at <= row.started_ms:
        raise Invalid("The end must be after the start.", code="end_before_start",
                      errors={"endedAt": ["Must be after startedAt."]})
    if ended_at > now_ms():
        raise Invalid("The end cannot be in the future.", code="end_in_future", errors={"endedAt": ["In the future."]})
    if ended_at - row.started_ms > MAX_LENGTH_MS:
        raise Invalid("A session lasts at most 7 days.", code="session_too_long",
                      errors={"endedAt": ["At most 7 days after startedAt."]})
    row.edited_by_user_id = actor.user_id
    return finish(session, row, ended_at, row.end_reason or "USER")


def do_delete(session: Session, *, actor: OrgActor, session_id: str) -> AttendanceSession:
    row = access_session(session, actor=actor, session_id=session_id)
    if row.ended_ms is None:
        _announce(session, row, _name(session, row.organization_id, row.user_id), row.status, OFFLINE, now_ms())
    session.delete(row)
    return row
