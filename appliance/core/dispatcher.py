"""The outbox's dispatcher: who hears which events (`subscribe`, written only in listeners.py
modules), and handing them over.

After a commit that emitted events the dispatcher is woken (a thread of the server, or a queue
task elsewhere: core/tasks.py) and hands each listener the new rows of the names it subscribed
to, in id order. Every listener keeps its own cursor, advanced in the same transaction as the
listener's own writes, so delivery is at-least-once per listener and an event is never announced
for a change that rolled back. Listeners that do I/O enqueue a task.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from sqlmodel import Field, Session, SQLModel

from appliance.core.events import check_names
from appliance.core.rows import driver_connection, in_list

log = logging.getLogger(__name__)


class OutboxCursor(SQLModel, table=True):
    __tablename__ = "outbox_cursors"

    listener: str = Field(primary_key=True, max_length=200)
    last_event_id: int = 0
    last_error: str | None = None


class Event:
    """An outbox row as listeners get it: read through the driver (a dispatch hands over thousands
    a second; mapped objects cost more than most listeners), its time parsed only when asked."""

    __slots__ = ("id", "name", "organization_id", "data", "_created_at")

    def __init__(self, id: int, name: str, organization_id: str | None, data: str | dict | None, created_at):
        self.id, self.name, self.organization_id, self._created_at = id, name, organization_id, created_at
        self.data = (json.loads(data) if isinstance(data, str) else data) or {}

    @property
    def created_at(self) -> datetime:
        moment = self._created_at
        if isinstance(moment, str):
            moment = datetime.fromisoformat(moment)
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


Handler = Callable[[Session, Event], None]
BatchHandler = Callable[[Session, list[Event]], None]


@dataclass(frozen=True)
class Listener:
    name: str
    events: frozenset[str]
    handler: Handler | BatchHandler
    batch: bool = False
    when: Callable[[dict], bool] | None = None  # which events it wants, by their data (the rest pass by)


_listeners: dict[str, Listener] = {}


def subscribe(*event_names: str, batch: bool = False, when: Callable[[dict], bool] | None = None):
    """Register `fn(session, event)` for the named events. Called only in listeners.py modules
    (tests/core/test_layers.py); `fn` may live with its work elsewhere. Its module and qualified
    name are its cursor key: moving or renaming it would hand it every past event again.

    With `batch=True`, `fn(session, events)` takes the events of a dispatch together (in order),
    for a listener that would otherwise read and write the same row once per event (a delivery of
    ten messages is ten events about one conversation). Should it fail, its events are handed over
    again one at a time, `fn(session, [event])`, so only the failing one is skipped.

    `when(data)` picks the events it wants by their data; the others move its cursor without a
    call or a savepoint (a campaign updates thousands of conversations in ways most listeners of
    `conversation.updated` have nothing to do with)."""
    check_names(event_names)

    def decorator(fn):
        name = f"{fn.__module__}.{fn.__qualname__}"
        _listeners[name] = Listener(name, frozenset(event_names), fn, batch, when)
        return fn
    return decorator


def dispatch_pending(database, *, batch: int = 500) -> int:
    """Hand every undelivered event to its listeners; returns how many deliveries were made.

    A round reads every pending listener's next batch without the write lock, then hands them
    all over in one writing transaction: each listener's work in its own savepoint, every cursor
    moved at its end. A dozen listeners used to take a dozen transactions (a commit, an fsync and a
    wait for the lock each), and the senders waited behind them. Rounds repeat while some listener
    had a full batch; a round's transaction takes at most ROUND_EVENTS events, so the write lock is
    held for a bounded time even behind a long backlog."""
    delivered = 0
    # Most events have several listeners (a message's creation has six): the events of a pass are
    # read from JSON once and handed to each. Their data is read-only to listeners.
    seen: dict[int, Event] = {}
    listeners = _with_pending(database, list(_listeners.values()))
    while listeners:
        if len(seen) > 20 * batch:  # a long backlog: keep the memory of a pass bounded
            seen.clear()
        with database.unit_of_work(write=False) as session:
            driver = driver_connection(session)
            cursors = _cursors(driver)
            plans = [(listener, cursors.get(listener.name, 0)) for listener in listeners]
            batches = [(listener, after, _events_after(driver, listener, after, batch, seen)) for listener, after in plans]
        batches = [planned for planned in batches if planned[2]]
        if not batches:
            break
        round_, taken = [], 0
        for planned in batches:
            if round_ and taken + len(planned[2]) > ROUND_EVENTS:
                break
            round_.append(planned)
            taken += len(planned[2])
        delivered += _hand_over_round(database, round_, batch, seen)
        full = {listener.name for listener, _, events in round_ if len(events) == batch}
        listeners = [listener for listener, _, _ in batches[len(round_):]] + \
                    [listener for listener, _, _ in round_ if listener.name in full]
    return delivered


ROUND_EVENTS = 2000  # events handed over in one writing transaction, all listeners together


def pending(database) -> list[str]:
    """The listeners (their names) with events not handed over yet: none once every event
    committed so far has been heard (tests wait for it before they move the clock)."""
    return [listener.name for listener in _with_pending(database, list(_listeners.values()))]


def _cursors(driver) -> dict[str, int]:
    return dict(driver.execute("SELECT listener, last_event_id FROM outbox_cursors").fetchall())


def _hand_over_round(database, round_: list[tuple["Listener", int, list["Event"]]], batch: int,
                     seen: dict[int, "Event"]) -> int:
    """One writing transaction for the round. BEGIN IMMEDIATE serialises concurrent dispatchers
    (the server's thread, a queue task): a cursor another one moved since the read is read again
    here, so no event is handed over twice."""
    handed = 0
    with database.unit_of_work(write=True) as session:
        driver = driver_connection(session)
        cursors = _cursors(driver)
        moved = []
        for listener, after, events in round_:
            now_at = cursors.get(listener.name, 0)
            if now_at != after:
                events = _events_after(driver, listener, now_at, batch, seen)
                if not events:
                    continue
            cursor = _Cursor(events[-1].id)
            wanted = events if listener.when is None else [e for e in events if listener.when(e.data)]
            if listener.batch and not _handed_over_together(session, listener, wanted):
                for event in wanted:
                    _hand_over(session, listener, cursor, event, [event])
            elif not listener.batch:
                for event in wanted:
                    _hand_over(session, listener, cursor, event, event)
            moved.append((listener.name, cursor.last_event_id, cursor.last_error))
            handed += len(events)
        _upsert_cursors(driver, moved)
    return handed


def _with_pending(database, listeners: list[Listener]) -> list[Listener]:
    """The listeners with events past their cursor. Finding them is a read (the cursors, and each
    event name's newest id, which the name index answers at once however far a cursor lags): a
    pass with nothing for a listener never takes the write lock from the requests that write
    (inbound webhooks emit hundreds of events a second no listener may care about)."""
    names = sorted({name for listener in listeners for name in listener.events})
    with database.unit_of_work(write=False) as session:
        driver = driver_connection(session)
        cursors = _cursors(driver)
        newest = {name: driver.execute("SELECT max(id) FROM outbox_events WHERE name = ?", (name,)).fetchone()[0] or 0
                  for name in names}
    return [listener for listener in listeners
            if max(newest[name] for name in listener.events) > cursors.get(listener.name, 0)]


def _events_after(driver, listener: Listener, after: int, batch: int, seen: dict[int, "Event"]) -> list["Event"]:
    """The listener's next events. Their ids first (the name index covers them); the rows only of
    those this pass has not read for another listener."""
    names = sorted(listener.events)
    ids = [row[0] for row in driver.execute(
        f"SELECT id FROM outbox_events WHERE name IN ({', '.join('?' * len(names))}) AND id > ? ORDER BY id LIMIT ?",
        (*names, after, batch)).fetchall()]
    missing = [event_id for event_id in ids if event_id not in seen]
    for start in range(0, len(missing), _IN_ONE_READ):
        marks, part = in_list(missing[start:start + _IN_ONE_READ])
        for row in driver.execute(
                f"SELECT id, name, organization_id, data, created_at FROM outbox_events WHERE id IN ({marks})", part):
            seen[row[0]] = Event(*row)
    return [seen[event_id] for event_id in ids]


_IN_ONE_READ = 500  # ids a statement (SQLite's parameters stay well under its limit)


def _upsert_cursors(driver, rows: list[tuple[str, int, str | None]]) -> None:
    """(listener, last event id, error or None) each; a cursor never moves back."""
    driver.executemany(
        "INSERT INTO outbox_cursors (listener, last_event_id, last_error) VALUES (?, ?, ?) "
        "ON CONFLICT (listener) DO UPDATE SET last_event_id = CASE WHEN excluded.last_event_id > "
        "outbox_cursors.last_event_id THEN excluded.last_event_id ELSE outbox_cursors.last_event_id END, "
        "last_error = coalesce(excluded.last_error, outbox_cursors.last_error)", rows)


@dataclass
class _Cursor:
    """A listener's place in the outbox (table outbox_cursors) during one batch."""
    last_event_id: int
    last_error: str | None = None


def _hand_over(session: Session, listener: Listener, cursor: _Cursor, event: Event, argument) -> None:
    try:
        with session.begin_nested():
            listener.handler(session, argument)
    except Exception as exc:
        # A listener bug must not stall every later event: skip it, keep the trace.
        log.exception("listener %s failed on event %s", listener.name, event.id)
        cursor.last_error = f"event {event.id}: {exc!r}"[:1000]


def _handed_over_together(session: Session, listener: Listener, events: list[Event]) -> bool:
    if not events:
        return True
    try:
        with session.begin_nested():
            listener.handler(session, list(events))
        return True
    except Exception:
        log.warning("listener %s failed on a batch of %d events; one at a time now", listener.name, len(events))
        return False


# Under a stream of commits a pass per commit would spend the GIL the requests need; events wait
# at most this long for their pass.
PASS_INTERVAL_SECONDS = 0.05


class _Dispatcher:
    """The server's outbox dispatcher: a thread woken after commits that emitted events. Wake-ups
    that land while it works are folded into its next pass (it reads past every commit so far).
    Without it (tests, the CLI) a wake-up runs the dispatch as a queue task."""

    def __init__(self):
        self._wanted = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._waiting = False  # for a wake-up, its pass (and its commits' hooks) done

    @property
    def running(self) -> bool:
        return self._thread is not None

    @property
    def idle(self) -> bool:
        """Nothing in hand nor asked for (tests wait for it before they move the clock)."""
        return not self.running or (self._waiting and not self._wanted.is_set())

    def start(self, database) -> None:
        self._stopping.clear()
        # A first pass at once: events committed while no dispatcher ran (on PostgreSQL, by web
        # processes before this one took the workers' lease) are not left for the minute sweep.
        self._wanted.set()
        self._thread = threading.Thread(target=self._run, args=(database,), name="outbox", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wanted.set()

    def stop(self, timeout: float = 10.0) -> None:
        thread = self._thread
        if thread is not None:
            self._stopping.set()
            self._wanted.set()
            thread.join(timeout)
        # Running until its thread has ended: the wake-ups of its own last commits only set a flag.
        # (As queue tasks, they would wait in a queue nobody consumes any more, and hold the latch
        # that keeps later wake-ups from queueing another: core/tasks.py.)
        self._thread = None

    def _run(self, database) -> None:
        while not self._stopping.is_set():
            self._waiting = True
            self._wanted.wait()
            self._waiting = False
            if self._stopping.wait(PASS_INTERVAL_SECONDS):  # let the commits of a burst gather
                return
            self._wanted.clear()
            try:
                dispatch_pending(database)
            except Exception:  # the sweep retries within a minute
                log.exception("outbox dispatch failed")


dispatcher = _Dispatcher()
