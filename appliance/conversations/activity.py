"""The inbox's hourly counters (InboxActivity): written where things happen, read by the reports."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from appliance.conversations.models import InboxActivity
from appliance.core.rows import driver_connection, stored

COUNTERS = ("inbound_messages", "incoming", "closed", "replies", "late_replies", "response_seconds")


def hour_of(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def count(session: Session, *, organization_id: str, at: datetime, user_id: str | None = None, **increments: int) -> None:
    """Add to the counters of the hour of `at` (one upsert)."""
    names = [name for name in COUNTERS if increments.get(name)]
    if not names:
        return
    hour = stored(session, InboxActivity.__table__.c.hour, hour_of(at))
    driver_connection(session).execute(
        f"INSERT INTO inbox_activity (organization_id, hour, user_id, {', '.join(COUNTERS)}) "
        f"VALUES (?, ?, ?, {', '.join('?' * len(COUNTERS))}) ON CONFLICT (organization_id, hour, user_id) DO UPDATE SET "
        # (the old value named by its table: PostgreSQL finds a bare name ambiguous beside excluded's)
        + ", ".join(f"{name} = inbox_activity.{name} + excluded.{name}" for name in names),
        (organization_id, hour, user_id or "", *(int(increments.get(name, 0)) for name in COUNTERS)))
