"""Live updates: the outbox's events as a Server-Sent Events stream, one per open browser tab or
client: the inbox's (conversations and messages), and those a console page follows (a template's
review, a campaign's progress and replies).

A stream reads `outbox_events` past its cursor (the last id it sent, or the client's
`Last-Event-ID` after a reconnect, so nothing is lost in between), keeps what the subject may see,
and waits for the next commit that emitted events. Commits wake every stream at once (a version
counter under a condition), and so do other processes' commits on PostgreSQL (core/commit_listener.py);
a stream that hears nothing still looks every few seconds (the net under both) and says `: heartbeat` when it has been quiet for a while. While it
waits it asks the server whether its client left (waitress's `client_disconnected`, with a
request lookahead of 1); then it ends and its slot is free at once, not at the next heartbeat.

Each open stream holds one of the server's threads, so streams are capped below the thread count:
requests always have threads left."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from appliance.core import clock, events
from appliance.core.actor import OrgActor
from appliance.core.rows import driver_connection
from appliance.core.errors import Forbidden, Invalid, TooMany, Unavailable

POLL_SECONDS = 5.0  # the longest a stream waits without looking (should a wake-up be lost)
# The shortest time between two reads of one stream: under a stream of commits (a busy number posts
# hundreds of webhooks a second) each stream reads ten times a second at most, whatever the rate,
# and takes what accumulated in one query.
MIN_READ_INTERVAL = 0.1
BATCH = 200
THREADS_KEPT_FOR_REQUESTS = 8
STREAMS_PER_CALLER = 5
# How often a waiting stream asks the server whether its client is still there (waitress notices
# a closed socket at once; the slot is free within this, not at the next heartbeat).
GONE_CHECK_SECONDS = 0.5
# The events a stream may carry, each with the permission its subject needs to hear it. The inbox
# (and the API's stream) hears `events.LIVE`; a console page names what it follows.
HEARD_WITH = {
    events.CONVERSATION_CREATED: "conversations:read", events.CONVERSATION_UPDATED: "conversations:read",
    events.CONVERSATION_ASSIGNMENT_CHANGED: "conversations:read",
    events.CONVERSATION_HANDOFF_REQUESTED: "conversations:read",
    events.MESSAGE_CREATED: "messages:read", events.MESSAGE_UPDATED: "messages:read",
    events.TEMPLATE_STATUS: "templates:read", events.BROADCAST_UPDATED: "broadcasts:read",
}


class _Signal:
    """Wakes waiting streams after every commit that emitted events."""

    def __init__(self):
        self._condition = threading.Condition()
        self.version = 0
        self.closing = False

    def notify(self) -> None:
        with self._condition:
            self.version += 1
            self._condition.notify_all()

    def wait(self, seen: int, timeout: float) -> None:
        with self._condition:
            if self.version == seen and not self.closing:
                self._condition.wait(timeout)

    def close(self) -> None:
        """Server stopping: every stream ends (clients reconnect to the next server)."""
        self.closing = True
        self.notify()

    def reopen(self) -> None:
        self.closing = False


signal = _Signal()  # woken after every commit that emitted events (listeners.py)


def organization_limit(limit: int) -> int:
    """One organization may hold at most three quarters of the slots: another's inbox still opens."""
    return max(1, limit * 3 // 4)


class StreamSlots:
    """How many streams may be open at once (each holds a server thread): in all, per organization
    and per caller (a person's tabs, an API key's or an application's clients), so that one tenant,
    or one leaked key, cannot take every slot."""

    def __init__(self):
        self._lock = threading.Lock()
        self.open = 0
        self._by_organization: Counter = Counter()
        self._by_caller: Counter = Counter()

    def take(self, limit: int, organization_id: str, caller: str) -> None:
        with self._lock:
            if self.open >= limit:
                raise Unavailable("Too many live-update streams are open; try again shortly.", code="too_many_streams",
                                  headers={"Retry-After": "5"})
            if self._by_organization[organization_id] >= organization_limit(limit):
                raise TooMany("This organization has as many live-update streams open as it may; close a tab "
                              "or a client.", code="too_many_streams_for_organization", retry_after=5)
            if self._by_caller[caller] >= STREAMS_PER_CALLER:
                raise TooMany(f"At most {STREAMS_PER_CALLER} live-update streams per person or key; close one.",
                              code="too_many_streams_for_caller", retry_after=5)
            self.open += 1
            self._by_organization[organization_id] += 1
            self._by_caller[caller] += 1

    def give_back(self, organization_id: str, caller: str) -> None:
        with self._lock:
            self.open -= 1
            self._by_organization[organization_id] -= 1
            self._by_caller[caller] -= 1
            self._by_organization += Counter()  # drop the zeros
            self._by_caller += Counter()


slots = StreamSlots()


def stream_limit(threads: int) -> int:
    return max(1, threads - THREADS_KEPT_FOR_REQUESTS)


def heard(actor: OrgActor, wanted: tuple[str, ...] | list[str]) -> list[str]:
    """The names of `wanted` this subject may hear: 400 for a name no stream carries, 403 when it
    may hear none of them."""
    unknown = [name for name in wanted if name not in HEARD_WITH]
    if unknown or not wanted:
        raise Invalid("A stream carries only the live events.", code="unknown_live_events",
                      errors={"events": [f"Not a live event: {', '.join(unknown)}." if unknown else "Name one."]})
    names = [name for name in dict.fromkeys(wanted) if actor.can(HEARD_WITH[name])]
    if not names:
        raise Forbidden("You may not hear any of these events.", code="permission_missing")
    return names


def position(session) -> int:
    """The outbox's newest event id: where a stream opened now starts (a page passes the position
    it was drawn at, so nothing in between is missed)."""
    return driver_connection(session).execute("SELECT coalesce(max(id), 0) FROM outbox_events").fetchone()[0]


def parse_last_event_id(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise Invalid("Last-Event-ID is the id of an event this stream sent.", code="invalid_last_event_id",
                      errors={"lastEventId": ["Not an event id."]})
    return int(raw)


@dataclass
class Subject:
    """Who reads the stream, and what of the organization they may see."""
    actor: OrgActor

    @property
    def restricted(self) -> bool:
        return bool(self.actor.phone_number_pks or self.actor.waba_pks)

    def allowed(self, driver) -> tuple[set[str], set[str]]:
        """The numbers and the business accounts the subject may see: a member's accounts, or
        the accounts of a key's numbers (as the templates' routes read them)."""
        sql, params = "SELECT id, waba_pk FROM phone_numbers WHERE organization_id = ?", [self.actor.organization_id]
        if self.actor.phone_number_pks:
            sql += f" AND id IN ({', '.join('?' * len(self.actor.phone_number_pks))})"
            params += list(self.actor.phone_number_pks)
        if self.actor.waba_pks:
            sql += f" AND waba_pk IN ({', '.join('?' * len(self.actor.waba_pks))})"
            params += list(self.actor.waba_pks)
        rows = driver.execute(sql, params).fetchall()
        accounts = {row[1] for row in rows} if self.actor.phone_number_pks else set(self.actor.waba_pks)
        return {row[0] for row in rows}, accounts


def open_stream(database, *, actor: OrgActor, last_event_id: int | None, heartbeat_seconds: float,
                limit: int, names: tuple[str, ...] | list[str] = events.LIVE,
                client_gone: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """Take a slot (503 when none is free, 429 past the organization's or the caller's share) and
    answer the stream's text, chunk by chunk, until the server stops or `client_gone()`: the
    events of `names` the subject may hear."""
    names = heard(actor, names)
    if last_event_id is None:  # a new stream starts from now
        with database.unit_of_work(write=False) as session:
            last_event_id = position(session)
    holder = (actor.organization_id, actor.caller_key)
    slots.take(limit, *holder)
    return _Slot(_stream(database, Subject(actor), names, last_event_id, heartbeat_seconds, client_gone), holder)


class _Slot:
    """The stream as the server iterates it; closing it gives the slot back, once, even if the
    server never started it (a generator's `finally` would not run then)."""

    def __init__(self, chunks: Iterator[str], holder: tuple[str, str]):
        self._chunks, self._holder, self._open = chunks, holder, True

    def __iter__(self):
        return self._chunks

    def close(self) -> None:
        if self._open:
            self._open = False
            self._chunks.close()
            slots.give_back(*self._holder)


def _wait(seen: int, seconds: float, client_gone: Callable[[], bool]) -> bool:
    """Wait for a commit, at most `seconds`, looking at the client meanwhile; True if it left."""
    deadline = time.monotonic() + seconds
    while signal.version == seen and not signal.closing:
        if client_gone():
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            break
        signal.wait(seen, min(left, GONE_CHECK_SECONDS))
    return client_gone()


def _stream(database, subject: Subject, names: list[str], cursor: int, heartbeat_seconds: float,
            client_gone: Callable[[], bool]) -> Iterator[str]:
    # The browser reconnects after 3 s; the comment opens the stream at once (proxies, clients).
    yield f"retry: 3000\n: connected at {clock.iso(clock.now())}\n\n"
    quiet_since = last_read = time.monotonic()
    while not signal.closing:
        seen = signal.version
        pause = last_read + MIN_READ_INTERVAL - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        last_read = time.monotonic()
        chunk, cursor = _read_past(database, subject, names, cursor)
        if chunk:
            yield chunk
            quiet_since = time.monotonic()
            continue
        if time.monotonic() - quiet_since >= heartbeat_seconds:
            yield ": heartbeat\n\n"
            quiet_since = time.monotonic()
        if _wait(seen, min(POLL_SECONDS, heartbeat_seconds), client_gone):
            return  # the server then closes the stream, and its slot is free


def _read_past(database, subject: Subject, names: list[str], cursor: int) -> tuple[str, int]:
    """The events after `cursor` this subject may see, as SSE text, and the new cursor (past the
    ones withheld too)."""
    with database.unit_of_work(write=False) as session:
        driver = driver_connection(session)
        rows = driver.execute(
            f"SELECT id, name, data, created_at FROM outbox_events WHERE organization_id = ? AND id > ? "
            f"AND name IN ({', '.join('?' * len(names))}) ORDER BY id LIMIT {BATCH}",
            (subject.actor.organization_id, cursor, *names)).fetchall()
        if not rows:
            return "", cursor
        payloads = [(row[0], row[1], json.loads(row[2]) if isinstance(row[2], str) else row[2], row[3]) for row in rows]
        if subject.restricted:
            payloads = _only_visible(driver, subject, payloads)
    out = []
    for event_id, name, data, created_at in payloads:
        body = {"id": event_id, "type": name, "createdAt": _iso_text(created_at),
                "organizationId": subject.actor.organization_id, "data": data}
        out.append(f"id: {event_id}\nevent: {name}\ndata: {json.dumps(body, separators=(',', ':'))}\n\n")
    return "".join(out), rows[-1][0]


def _only_visible(driver, subject: Subject, payloads: list) -> list:
    """Events of the subject's numbers: named by the event (`phoneNumberId`), else by its
    conversation; an account's events (a template's status: `wabaId`) if it may see the account."""
    numbers, accounts = subject.allowed(driver)
    conversation_ids = list({p[2].get("conversationId") for p in payloads
                             if p[2].get("conversationId") and not p[2].get("phoneNumberId")})
    number_of = {}
    for start in range(0, len(conversation_ids), 500):
        part = conversation_ids[start:start + 500]
        number_of.update(driver.execute(
            f"SELECT id, phone_number_pk FROM conversations WHERE id IN ({', '.join('?' * len(part))})", part).fetchall())

    def visible(data: dict) -> bool:
        number = data.get("phoneNumberId") or number_of.get(data.get("conversationId"))
        return number in numbers if number is not None else data.get("wabaId") in accounts
    return [p for p in payloads if visible(p[2])]


def _iso_text(stored) -> str:
    """Stored times are 'YYYY-MM-DD HH:MM:SS.ffffff' (UTC): the API's ISO form with milliseconds."""
    text = str(stored)
    return text[:10] + "T" + text[11:23] + "Z"
