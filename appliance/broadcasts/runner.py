"""Sending broadcasts: recipients are handed to their number's sender (messages/sending) a batch
at a time, about a second of the number's tier ahead, so the sender paces them at messagesPerSecond
and an agent's reply on the same number waits at most that second behind a broadcast.

Crash safety comes from the messages table: a recipient's message is created in the same
transaction that points the recipient at it, so after a restart a recipient either has its message
(which the sender sends once, or fails with -3 if it was in the air) or is still waiting and gets
one now. Nobody is sent twice.

Each batch checks what would fail every recipient: the number disconnected, the template deleted
or no longer APPROVED. The broadcast is then PAUSED with the reason instead (listeners.py also
pauses it when the network refuses a message for the template's or the account's sake).

In the server a thread (`broadcast_runner`) feeds the running broadcasts in turn and starts the
scheduled ones at their time (woken for it); without it (tests, the CLI) a commit enqueues the
queue task `run_broadcasts`, and the minute check starts what came due (tasks.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, text
from sqlmodel import Session, select

from appliance.broadcasts import personalize, updates
from appliance.broadcasts.models import Broadcast, BroadcastRecipient
from appliance.core import clock
from appliance.core.background import WakeableThread
from appliance.core.rows import driver_connection, from_json, read_row, stored, update_many
from appliance.core.errors import AppError
from appliance.messages.models import Message
from appliance.messages.sending import service as sending_service
from appliance.messages.sending import template_fill
from appliance.organizations.models import Organization
from appliance.phone_numbers.models import PhoneNumber
from appliance.templates.models import Template

log = logging.getLogger("appliance.broadcasts")

AHEAD_SECONDS = 1.0  # queued ahead of the sender, in seconds of the number's tier
MIN_AHEAD = 20
BATCH = 200  # recipients per write transaction: ~20-40 ms of the write lock


# A suspended organization's scheduled broadcasts wait (they start once it is lifted, if still due).
_ACTIVE = "organization_id NOT IN (SELECT id FROM organizations WHERE suspended_at IS NOT NULL)"


def start_due(database, now: datetime | None = None) -> list[str]:
    """SCHEDULED broadcasts whose time came start running; answers their ids."""
    moment = now or clock.now()
    with database.unit_of_work(write=False) as session:  # the runner asks between batches: through the driver
        if driver_connection(session).execute(
                f"SELECT 1 FROM broadcasts WHERE status = 'SCHEDULED' AND scheduled_at <= ? AND {_ACTIVE} LIMIT 1",
                (stored(session, Broadcast.__table__.c.scheduled_at, moment),)).fetchone() is None:
            return []  # the minute check finds nothing most minutes: no write lock for that
    with database.unit_of_work(write=True) as session:
        due = session.exec(select(Broadcast).where(Broadcast.status == "SCHEDULED", Broadcast.scheduled_at <= moment,
                                                   text(_ACTIVE))).all()
        for broadcast in due:
            broadcast.status, broadcast.started_at, broadcast.updated_at = "RUNNING", moment, moment
            session.add(broadcast)
            updates.status_changed(session, broadcast)
        return [b.id for b in due]


def running(database) -> list[str]:
    with database.unit_of_work(write=False) as session:
        return [row[0] for row in driver_connection(session).execute(
            "SELECT id FROM broadcasts WHERE status = 'RUNNING' ORDER BY started_at, id").fetchall()]


def next_scheduled(database) -> datetime | None:
    with database.unit_of_work(write=False) as session:
        return session.exec(select(func.min(Broadcast.scheduled_at)).where(Broadcast.status == "SCHEDULED",
                                                                            text(_ACTIVE))).one()


def step(database, broadcast_id: str) -> float | None:
    """Hand the broadcast's next recipients to the sender. Answers when to look again (seconds; 0:
    at once), or None when there is nothing more to do (completed, paused, cancelled)."""
    with database.unit_of_work(write=True) as session:
        # Read-only rows through the driver (a step runs several times a second); the broadcast is
        # loaded as a mapped object only to change its status.
        broadcast = read_row(session, Broadcast.__table__, id=broadcast_id, remember=False)
        if broadcast is None or broadcast.status != "RUNNING":
            return None
        organization = read_row(session, Organization.__table__, id=broadcast.organization_id, remember=False)
        if organization is not None and organization.suspended_at is not None:
            _pause(session, session.get(Broadcast, broadcast_id), "organization_suspended",
                   "The organization is suspended; resume once the suspension is lifted.")
            return None
        number = read_row(session, PhoneNumber.__table__, id=broadcast.phone_number_pk, remember=False)
        if number is None or number.disconnected_at is not None:
            _pause(session, session.get(Broadcast, broadcast_id), "number_disconnected",
                   "The number was disconnected from the appliance.")
            return None
        template = (read_row(session, Template.__table__, id=broadcast.template_id, remember=False)
                    if broadcast.template_id else None)
        if template is None or template.status != "APPROVED":
            status = template.status if template is not None else "DELETED"
            _pause(session, session.get(Broadcast, broadcast_id), f"template_{status.lower()}"[:60],
                   f"Template {broadcast.template_name} ({broadcast.template_language}) is {status.lower()} at the "
                   "network; nothing more is sent with it until it is approved again (then resume).")
            return None
        driver = driver_connection(session)
        queued = driver.execute("SELECT count(*) FROM messages WHERE phone_number_pk = ? AND send_state IS NOT NULL",
                                (number.id,)).fetchone()[0]
        room = min(BATCH, max(MIN_AHEAD, int(number.messages_per_second * AHEAD_SECONDS)) - queued)
        if room <= 0:
            return 0.1
        waiting = [_Waiting(*row) for row in driver.execute(_WAITING, (broadcast.id, room)).fetchall()]
        if not waiting:
            if _still_sending(session, broadcast.id):
                return 0.25
            now = clock.now()
            completed = session.get(Broadcast, broadcast_id)
            completed.status, completed.completed_at, completed.updated_at = "COMPLETED", now, now
            session.add(completed)
            updates.status_changed(session, completed)
            return None
        _hand_over(session, broadcast, number, template, waiting)
        return 0.0


# The recipients and their writes go through the driver: a batch is 200 of them, and mapped objects
# (their load and their flush) were a fifth of a broadcast's time at 1,000 messages a second.
_WAITING = ("SELECT r.id, r.contact_id, r.wa_id, c.name, c.profile_name, c.attributes, c.opted_out_at "
            "FROM broadcast_recipients r JOIN contacts c ON c.id = r.contact_id "
            "WHERE r.broadcast_id = ? AND r.message_id IS NULL AND r.skipped_reason IS NULL ORDER BY r.id LIMIT ?")


@dataclass(frozen=True)
class _Waiting:
    id: str
    contact_id: str
    wa_id: str
    name: str | None
    profile_name: str | None
    attributes: str | dict | None
    opted_out_at: object


def _hand_over(session: Session, broadcast, number, template, waiting: list[_Waiting]) -> None:
    """`broadcast` and `template` are read-only rows."""
    personal = personalize.uses_contact(broadcast.variables)
    attributes = personalize.uses_attributes(broadcast.variables)  # read from JSON only when used
    fill = template_fill.filler(template)
    shared = None if personal else fill(broadcast.variables)
    items, sent, skipped = [], [], []
    for recipient in waiting:
        if recipient.opted_out_at is not None:  # opted out since the broadcast was made
            skipped.append({"id": recipient.id, "skipped_reason": "opted_out"})
            continue
        payload = shared
        if personal:
            try:
                payload = fill(personalize.fill(
                    broadcast.variables, name=recipient.name or recipient.profile_name, wa_id=recipient.wa_id,
                    attributes=from_json(recipient.attributes) if attributes else None))
            except (personalize.MissingValue, AppError):
                skipped.append({"id": recipient.id, "skipped_reason": "missing_variable"})
                continue
        items.append(sending_service.Prepared(recipient.contact_id, recipient.wa_id, payload))
        sent.append(recipient)
    message_ids = sending_service.do_queue_templates(session, organization_id=broadcast.organization_id,
                                                      number=number, items=items, sent_by="broadcast")
    now = clock.now()
    table = BroadcastRecipient.__table__
    update_many(session, table, [{"id": recipient.id, "message_id": message_id, "sent_at": now}
                                 for recipient, message_id in zip(sent, message_ids)], add={"attempts": 1})
    update_many(session, table, skipped)


def _still_sending(session: Session, broadcast_id: str) -> bool:
    return session.exec(select(BroadcastRecipient.id).join(Message, Message.id == BroadcastRecipient.message_id)
                        .where(BroadcastRecipient.broadcast_id == broadcast_id, Message.send_state.is_not(None))
                        .limit(1)).first() is not None


def _pause(session: Session, broadcast: Broadcast, reason: str, detail: str) -> None:
    log.warning("broadcast %s paused: %s", broadcast.id, reason)
    broadcast.status, broadcast.paused_reason, broadcast.paused_detail = "PAUSED", reason, detail[:500]
    broadcast.updated_at = clock.now()
    session.add(broadcast)
    updates.status_changed(session, broadcast)


def pause(session: Session, broadcast: Broadcast, reason: str, detail: str) -> None:
    if broadcast.status == "RUNNING":
        _pause(session, broadcast, reason, detail)


def run_all(database) -> float | None:
    """Start what came due and feed every running broadcast until each has to wait; answers the
    shortest wait (None: nothing running)."""
    start_due(database)
    shortest = None
    for broadcast_id in running(database):
        while True:
            try:
                wait = step(database, broadcast_id)
            except Exception:
                log.exception("broadcast %s: a batch failed; trying again", broadcast_id)
                wait = 1.0
            if wait != 0.0:
                break
        if wait is not None:
            shortest = wait if shortest is None else min(shortest, wait)
    return shortest


class _Runner(WakeableThread):
    """The server's broadcast thread: feeds running broadcasts, starts scheduled ones on time."""

    NAME = "broadcasts"
    IDLE_SLEEP = 30.0  # with nothing running nor due sooner (a wake-up comes with anything new)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._begin_pass()
            try:
                pace = run_all(self._database)
                scheduled = next_scheduled(self._database)
            except Exception:
                log.exception("running broadcasts failed; trying again")
                pace, scheduled = 1.0, None
            if pace is not None:
                # A broadcast runs: look again once the sender has made room, in real seconds (the
                # sender's pace); each pass also starts what came due meanwhile.
                self._woken.wait(max(pace, 0.02))
                continue
            # Nothing runs: asleep until the next scheduled broadcast's time, by the project's clock.
            wait = self.IDLE_SLEEP if scheduled is None else (scheduled - self._pass_began).total_seconds()
            if wait > 0:
                self._sleep(min(wait, self.IDLE_SLEEP))
            else:
                self._woken.wait(0.02)  # it came due during this pass: the next one starts it


broadcast_runner = _Runner()
