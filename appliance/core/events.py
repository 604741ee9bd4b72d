"""Domain events: the catalog of their names, and how one is recorded (a transactional outbox).

`emit(session, name, **data)` writes an outbox row in the caller's transaction: the event exists
exactly when the change does. After a commit that emitted, the hooks registered with
`after_emitting_commit` run: the outbox's dispatcher (core/dispatcher.py, woken by
core/listeners.py) hands the new rows to the listeners that subscribed to their names, and the
live streams wake (live/listeners.py). On PostgreSQL the transaction also notifies the other
processes sharing the database (core/commit_listener.py), whose live streams wake too.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from sqlalchemy import JSON, Column, Index, Integer
from sqlmodel import Field, Session, SQLModel

from appliance.core import clock, postgres_engine
from appliance.core.db import UTCDateTime, after_commit
from appliance.core.rows import driver_connection, insert_many

# The catalog of event names: every event the appliance emits, and only these (`emit` refuses
# others). Names are public (live updates, webhooks): never rename one.
USER_SIGNED_UP = "user.signed_up"
USER_EMAIL_VERIFIED = "user.email_verified"
USER_PASSWORD_CHANGED = "user.password_changed"
USER_TWO_FACTOR_ENABLED = "user.two_factor_enabled"
USER_TWO_FACTOR_DISABLED = "user.two_factor_disabled"
USER_PASSKEY_ADDED = "user.passkey_added"
USER_PASSKEY_REMOVED = "user.passkey_removed"
ORGANIZATION_CREATED = "organization.created"
WABA_CONNECTED = "waba.connected"
WABA_DISCONNECTED = "waba.disconnected"
WABA_NEEDS_REAUTH = "waba.needs_reauth"
PHONE_NUMBER_COEXISTENCE_SYNC_REQUESTED = "phone_number.coexistence_sync_requested"
TEMPLATE_STATUS = "template.status"
BROADCAST_UPDATED = "broadcast.updated"  # its status, or a reply counted (the campaign's page follows it)
CONTACT_CREATED = "contact.created"
CONTACT_UPDATED = "contact.updated"
CONTACT_DELETED = "contact.deleted"
CONTACT_OPTED_OUT = "contact.opted_out"
CONTACT_LIST_CREATED = "contact_list.created"
CONTACT_LIST_DELETED = "contact_list.deleted"
CONTACT_LIST_IMPORTED = "contact_list.imported"
CONVERSATION_CREATED = "conversation.created"
CONVERSATION_UPDATED = "conversation.updated"
CONVERSATION_ASSIGNMENT_CHANGED = "conversation.assignment_changed"
CONVERSATION_HANDOFF_REQUESTED = "conversation.handoff_requested"
CONVERSATION_UNANSWERED = "conversation.unanswered"
MESSAGE_CREATED = "message.created"
MESSAGE_UPDATED = "message.updated"
BOT_CONFIG_UPDATED = "bot.config_updated"
QUALITY_CHANGED = "quality.changed"
AGENT_STATUS_CHANGED = "agent.status_changed"
SALE_COMPLETED = "sale.completed"  # an order paid: its keys given out (masked here)
LICENSE_KEY_REPLACED = "license.key_replaced"
LICENSE_TRANSFER_CONFIRMED = "license.transfer_confirmed"
LICENSE_PAYMENT_UNMATCHED = "license.payment_unmatched"  # money in that no unpaid order matches
LICENSE_KEYS_ADDED = "license.keys_added"  # a pool refilled: orders waiting for keys are delivered
PAYMENT_RECEIVED = "payment.received"  # the processor settled a transaction billing does not own

CATALOG = frozenset(value for name, value in dict(globals()).items()
                    if name.isupper() and isinstance(value, str) and "." in value)
# What the inbox hears live (GET /organizations/{orgId}/events, and the browser's script, which
# the page hands this list: web/templates/inbox/page.html).
LIVE = (CONVERSATION_CREATED, CONVERSATION_UPDATED, CONVERSATION_ASSIGNMENT_CHANGED,
        CONVERSATION_HANDOFF_REQUESTED, MESSAGE_CREATED, MESSAGE_UPDATED)


class OutboxEvent(SQLModel, table=True):
    __tablename__ = "outbox_events"
    # Ids never reused: cursors stay valid. The dispatcher asks each name's newest id and a
    # listener's next ids by name in id order: the index says (name, id), which SQLite's index on
    # the name alone holds anyway (its rowid) and PostgreSQL's does not (migration 0057).
    __table_args__ = (Index("ix_outbox_events_name", "name", "id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    name: str = Field(max_length=100)
    organization_id: str | None = Field(default=None, index=True)
    data: dict = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = Field(sa_type=UTCDateTime)


def check_names(names) -> None:
    unknown = [name for name in names if name not in CATALOG]
    if unknown:
        raise ValueError(f"events not in the catalog (core/events.py): {sorted(unknown)}")


def emit(session: Session, name: str, *, organization_id: str | None = None, **data: Any) -> None:
    """Record an event in the current transaction; listeners see it after commit. (Through the
    driver, run now: a mapped object per event cost a flush, a Core statement 0.7 ms of building.)"""
    check_names((name,))
    insert_many(session, OutboxEvent.__table__, [
        {"name": name, "organization_id": organization_id, "data": data, "created_at": clock.now()}])
    _wake_after_commit(session)


def emit_many(session: Session, name: str, *, organization_id: str | None, items: list[dict[str, Any]]) -> None:
    """Record one event per item in one statement (a delivery of many messages)."""
    check_names((name,))
    if not items:
        return
    now = clock.now()
    insert_many(session, OutboxEvent.__table__, [
        {"name": name, "organization_id": organization_id, "data": data, "created_at": now} for data in items])
    _wake_after_commit(session)


_emitting_commit_hooks: list[Callable[[], None]] = []


def after_emitting_commit(hook: Callable[[], None]) -> None:
    """Call `hook` after every commit that emitted events (the dispatcher wakes, live streams wake)."""
    _emitting_commit_hooks.append(hook)


def _wake_after_commit(session: Session) -> None:
    if not session.info.get("outbox_wake_scheduled"):
        session.info["outbox_wake_scheduled"] = True
        after_commit(session, _emitted)
        if session.get_bind().dialect.name == postgres_engine.NAME:
            # Other processes hear the commit too (core/commit_listener.py); said once a
            # transaction, delivered only if it commits.
            driver_connection(session).execute(f"NOTIFY {postgres_engine.EVENTS_CHANNEL}")


def _emitted() -> None:
    for hook in _emitting_commit_hooks:
        hook()
