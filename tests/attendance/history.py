"""Past sessions written straight into the tables (the API only starts sessions now): what the
views' tests and the benchmark's generator build history from."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import update

from appliance.attendance import timeline
from appliance.attendance.models import AttendanceSession, AttendanceSettings
from appliance.core import clock
from appliance.core.rows import insert_many
from appliance.core.ids import new_id
from appliance.memberships.models import Membership

LONG_AGO = datetime(2020, 1, 1, tzinfo=ZoneInfo("UTC"))


def at(day: date, hhmm: str, timezone: str) -> int:
    return int(datetime.combine(day, time.fromisoformat(hhmm), tzinfo=ZoneInfo(timezone)).timestamp() * 1000)


def session_row(organization_id: str, user_id: str, start_ms: int, spells: list[tuple[str, int]], **extra) -> dict:
    """A finished session from `start_ms` through (status, minutes) spells."""
    spell_rows, moment = [], start_ms
    for status, minutes in spells:
        spell_rows.append({"status": status, "from": moment, "to": moment + minutes * 60_000})
        moment += minutes * 60_000
    return {"id": extra.pop("id", None) or new_id(), "organization_id": organization_id, "user_id": user_id,
            "status": spells[-1][0], "started_ms": start_ms, "ended_ms": moment, "last_activity_ms": moment,
            "end_reason": "USER", "note": None, "timeline": spell_rows,
            "worked_spans": timeline.worked_spans(spell_rows, moment), "totals": timeline.totals(spell_rows, moment),
            "report": None, "edited_by_user_id": None, "updated_at": clock.now(), **extra}


def add(session, rows: list[dict]) -> None:
    insert_many(session, AttendanceSession.__table__, rows)


def last_monday(timezone: str) -> date:
    today = datetime.now(ZoneInfo(timezone)).date()
    return today - timedelta(days=today.weekday() + 7)


def joined_at(session, organization_id: str, moment: datetime = LONG_AGO, user_id: str | None = None) -> None:
    """The organization's members (or one of them) joined at `moment`."""
    chosen = update(Membership).where(Membership.organization_id == organization_id)
    if user_id is not None:
        chosen = chosen.where(Membership.user_id == user_id)
    session.exec(chosen.values(created_at=moment))


def turned_on_at(session, organization_id: str, moment: datetime = LONG_AGO) -> None:
    """Attendance was turned on at `moment`."""
    session.exec(update(AttendanceSettings).where(AttendanceSettings.organization_id == organization_id)
                 .values(enabled_at=moment))


def counted_since(session, organization_id: str, moment: datetime = LONG_AGO) -> None:
    """Everyone joined, and attendance was turned on, at `moment`: a past for history to be judged
    in (no day before both is expected of anyone)."""
    joined_at(session, organization_id, moment)
    turned_on_at(session, organization_id, moment)
