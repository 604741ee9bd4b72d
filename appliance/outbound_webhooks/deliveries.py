"""Deliveries written: one row per webhook and event, its body made once in the webhook's format
and the organization's language; the fan-out (fanout.py), the unanswered check (unanswered.py)
and the tests write them here, and the sender (sender.py) sends them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, select

from appliance.core.ids import new_id
from appliance.core.rows import bind_processor, driver_connection
from appliance.outbound_webhooks import envelopes
from appliance.outbound_webhooks.models import PENDING, WebhookDelivery


def organization_locale(session: Session, organization_id: str) -> str:
    """The organization's language: its creator's (TEAMCHAT sentences, the owner's mail)."""
    from appliance.organizations.models import Organization
    from appliance.users.models import User
    row = session.exec(select(User.locale).join(Organization, Organization.created_by == User.id)
                       .where(Organization.id == organization_id)).first()
    return (row or "en")[:2]


def delivery_rows(webhooks: Sequence, *, event_id: str, event_type: str, created_at: datetime, data: dict, locale: str, now: datetime) -> list[dict]:
    """One PENDING delivery of the event per webhook (rows, or the fan-out's lighter tuples); the
    body is built once per format (five webhooks of one format get the same bytes). The
    conversation is the ordering key."""
    bodies: dict[str, str] = {}
    rows = []
    for webhook in webhooks:
        if webhook.format not in bodies:
            bodies[webhook.format] = envelopes.body(
                webhook.format, event_id=event_id, event_type=event_type, created_at=created_at,
                organization_id=webhook.organization_id, data=data, locale=locale)
        rows.append({"id": new_id(), "webhook_id": webhook.id, "organization_id": webhook.organization_id,
                     "event_id": event_id, "event_type": event_type, "ordering_key": data.get("conversationId"),
                     "status": PENDING, "attempt": 0, "next_attempt_at": now, "created_at": now,
                     "request_body": bodies[webhook.format]})
    return rows


_COLUMNS = ("id", "webhook_id", "organization_id", "event_id", "event_type", "ordering_key", "status", "attempt",
            "next_attempt_at", "created_at", "request_body")
_INSERT = f"INSERT INTO webhook_deliveries ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"


def insert(session: Session, rows: list[dict]) -> None:
    """Insert them through the driver. (A thousand deliveries a second: the rows of one call share
    their times, so each time is turned into its stored form once, where insert_many would convert
    every value of every row.)"""
    if rows:
        to_stored = bind_processor(WebhookDelivery.__table__.c.created_at, session.get_bind().dialect)
        stored: dict[datetime, str] = {}
        for row in rows:
            for column in ("next_attempt_at", "created_at"):
                moment = row[column]
                if moment not in stored:
                    stored[moment] = to_stored(moment)
        driver_connection(session).executemany(_INSERT, [
            tuple(stored[row[c]] if c in ("next_attempt_at", "created_at") else row[c] for c in _COLUMNS) for row in rows])
