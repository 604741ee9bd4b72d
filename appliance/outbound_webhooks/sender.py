"""Delivering: each webhook's deliveries go out in event order, off every request's path (the
POSTs on one thread of libcurl's, `posting.Poster`); every attempt is logged; failures retry on the decided schedule.

Order and concurrency. A healthy webhook has up to WINDOW attempts in the air (a receiver that
takes 50 ms still hears a thousand events a second), started in event order, and the events of
one conversation (`ordering_key`) one at a time: a receiver gets a conversation's changes in the
order they happened, while other conversations go side by side. A conversation's waiting events
travel as a *chain* (up to CHAIN), each sent as soon as the one before it was answered:
a customer's burst of ten messages takes ten round trips, not ten passes of the sender (each pass
waits its turn at the shared writer, ~100 ms under inbound load). When a receiver is
unavailable (no answer, a timeout, a 5xx, 408 or 429) its window closes to one: the failed
delivery waits for its next attempt and nothing newer overtakes it; once it gets through, the
window opens again (doubling per success), so after an outage the backlog arrives in order. A
receiver that *rejects* one event (another 4xx) does not hold up the rest: that event retries on
its own schedule. A 410 turns the webhook off (the receiver said it is gone for good).

Attempts at 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (then FAILED); 15 s timeout; no
redirects followed (a redirect is a failed attempt saying where it pointed); 2 KB of the response
kept. A webhook failing for a day shows as `failing` and its creator gets one mail.

At-least-once: an attempt is marked in the air (`in_flight_since`) before it leaves (a chain's
members all at once, when the chain starts); a crash then leaves the mark, and the next start logs
that attempt as interrupted and makes it again (with the same webhook-id, so a receiver that keeps
ids can drop the duplicate). A chain stopped by an unavailable receiver gives its unsent members
back unmarked, with no attempt logged.

In the server a thread (`webhooks`) runs this; elsewhere (tests, the CLI) a queue task runs a pass
after each commit that made deliveries, and a minute task catches due retries."""

from __future__ import annotations

import logging
import queue
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from sqlmodel import Session

from appliance.core import clock, runtime
from appliance.core.background import WakeableThread
from appliance.core.rows import bind_processor, driver_connection, insert_many, utc_from_text
from appliance.installation import addresses
from appliance.outbound_webhooks import envelopes
from appliance.outbound_webhooks.models import (DELIVERED, FAILED, RETRYING, WAITING, OutboundWebhook,
                                                WebhookAttempt, WebhookDelivery)

if TYPE_CHECKING:
    from appliance.outbound_webhooks import posting

log = logging.getLogger(__name__)
RETRY_AFTER = (5, 300, 1800, 7200, 18000, 36000, 36000)  # seconds after attempts 1..7; the 8th is the last
TIMEOUT_SECONDS = 15
WINDOW = 64  # attempts in the air at once per healthy webhook (one per chain)
CHAIN = 16  # a conversation's events taken together, each sent when the one before it is answered
ROWS_READ = 512  # a webhook's waiting rows read by one pass, at most
FAILING_AFTER = timedelta(days=1)
# A pass waits this long after a wake-up, so the outcomes of a tenth of a second share one write
# (~100 at 1,000 deliveries a second): at 20 ms the sender thread took 4.1-4.6% of a busy core,
# at 100 ms 3.3-3.6%; a chain goes on in the poster meanwhile, and the lag's p99 grew 0.67 -> 0.85 s.
PASS_GATHER_SECONDS = 0.1
_UNAVAILABLE = {408, 429}  # 4xx that say "not now" rather than "not this"
_TABLE, _ATTEMPTS, _HOOKS = WebhookDelivery.__table__, WebhookAttempt.__table__, OutboundWebhook.__table__


class Job(NamedTuple):
    delivery_id: str
    webhook_id: str
    url: str
    secret_sealed: str
    event_id: str
    body: str
    number: int  # this attempt's
    ordering_key: str | None = None
    ends_chain: bool = True


class Outcome(NamedTuple):
    job: Job
    started_at: datetime
    duration_ms: int
    status: int | None  # the receiver's HTTP status; None when it gave none
    response: str | None
    error: str | None
    headers: dict

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def blocking(self) -> bool:
        """The receiver is unavailable (newer deliveries wait), rather than refusing this one."""
        return self.status is None or self.status >= 500 or self.status in _UNAVAILABLE or 300 <= self.status < 400


class Unsent(NamedTuple):
    """A chain's member that never left: the attempt before it found the receiver unavailable."""
    job: Job


class _Sending(NamedTuple):
    """What the poster hands back with an answer: where the attempt is in its chain."""
    chain: list[Job]
    n: int
    started_at: datetime
    headers: dict


class Deliverer:
    """Takes due deliveries in each webhook's order and hands them to the poster; one write
    transaction a pass records the outcomes that came back and marks the new attempts in the air
    (the writer is shared with inbound traffic: two writes a pass halved the passes under load)."""

    def __init__(self, database, on_outcome=None):
        self._database = database
        self._poster = None  # made for the first attempt (_posting)
        self._closing = False
        self._done: queue.SimpleQueue[Outcome | Unsent] = queue.SimpleQueue()
        self._in_air: dict[str, int] = {}  # per webhook, chains started and not ended
        self._keys_in_air: dict[str, set] = {}  # per webhook, the conversations of those chains
        self._window: dict[str, int] = {}
        self._signers: dict[str, object] = {}  # by sealed secret
        self._on_outcome = on_outcome

    @property
    def in_air(self) -> int:
        return sum(self._in_air.values())

    def close(self) -> None:
        """Attempts in the air are answered (their timeout at most); chains stop there."""
        self._closing = True
        if self._poster is not None:
            self._poster.close()

    def _posting(self) -> posting.Poster:
        """The poster, made for the first attempt, not at start: its thread and libcurl (~10 MB,
        appliance/libcurl.py) wait until an organization has a webhook to call (issue 46, footprint)."""
        if self._poster is None:
            from appliance.outbound_webhooks import posting

            self._poster = posting.Poster(self._answered, addresses=addresses.rule)
        return self._poster

    def run_pass(self, *, wait: float = 0.0, start: bool = True) -> float | None:
        """Record what came back (waiting up to `wait` s for a first outcome), start what is due;
        answers the seconds until the next retry falls due (None: none waits)."""
        answers = self._finished(wait)
        outcomes = [answer for answer in answers if isinstance(answer, Outcome)]
        unsent = [answer.job for answer in answers if isinstance(answer, Unsent)]
        held = set()
        for answer in answers:
            if answer.job.ends_chain:
                self._in_air[answer.job.webhook_id] -= 1
                self._keys_in_air[answer.job.webhook_id].discard(answer.job.ordering_key)
        for outcome in outcomes:
            hook = outcome.job.webhook_id
            if outcome.delivered or not outcome.blocking:
                self._window[hook] = min(WINDOW, self._window.get(hook, WINDOW) * 2)
            else:
                self._window[hook] = 1
                held.add(hook)  # its failure is not written yet: nothing of it goes this pass
        now = clock.now()
        chains, next_due = self._due(now, held) if start else ([], None)
        # The retries these outcomes schedule were not in the table `_due` read (their rows were
        # in the air): the next pass is due at the earliest of them too, or a retry due in 5 s
        # would wait for the sender's idle look.
        retries = [(due - now).total_seconds() for due in (after_attempt(o)[1] for o in outcomes) if due is not None]
        if retries:
            next_due = min(retries + ([next_due] if next_due is not None else []))
        if answers or chains:
            stamp = _stored("in_flight_since", now)
            with self._database.unit_of_work(write=True) as session:
                if outcomes:
                    record_outcomes(session, outcomes)
                marks = [(None, job.number - 1, job.delivery_id) for job in unsent]
                marks += [(stamp, job.number, job.delivery_id) for chain in chains for job in chain]
                if marks:
                    driver_connection(session).executemany(
                        "UPDATE webhook_deliveries SET in_flight_since = ?, attempt = ? WHERE id = ?", marks)
        for chain in chains:
            hook = chain[0].webhook_id
            self._in_air[hook] = self._in_air.get(hook, 0) + 1
            self._keys_in_air.setdefault(hook, set()).add(chain[0].ordering_key)
            self._send(chain, 0)
        return next_due

    def _finished(self, wait: float) -> list[Outcome | Unsent]:
        outcomes = []
        try:
            outcomes.append(self._done.get(timeout=wait) if wait else self._done.get_nowait())
            while True:
                outcomes.append(self._done.get_nowait())
        except queue.Empty:
            pass
        return outcomes

    def _due(self, now: datetime, held: set[str]) -> tuple[list[list[Job]], float | None]:
        """Chains of due jobs, in each webhook's event order; the seconds until the next retry."""
        taken, waits = [], []
        with self._database.unit_of_work(write=False) as session:
            connection = driver_connection(session)
            hooks = connection.execute(
                "SELECT w.id, w.url, w.secret_sealed, w.active FROM outbound_webhooks w WHERE EXISTS "
                f"(SELECT 1 FROM webhook_deliveries WHERE webhook_id = w.id AND {WAITING})"
            ).fetchall()
            for webhook_id, url, secret_sealed, active in hooks:
                room = self._window.get(webhook_id, WINDOW) - self._in_air.get(webhook_id, 0)
                if room <= 0 or webhook_id in held:
                    continue
                # Rows in the air (or answered and not yet written) are not read again: this
                # deliverer knows their conversations. Bodies are read only for the rows taken.
                rows = connection.execute(
                    "SELECT id, event_id, event_type, attempt, next_attempt_at, response_status, ordering_key "
                    f"FROM webhook_deliveries WHERE webhook_id = ? AND {WAITING} ORDER BY id LIMIT ?",
                    (webhook_id, min(room * CHAIN, ROWS_READ))).fetchall()
                # Conversations with an older event in the air or waiting: theirs wait too.
                waiting_keys = set(self._keys_in_air.get(webhook_id, ()))
                waiting_keys.discard(None)
                chains: dict[str, list[Job]] = {}  # a conversation's chain taken this pass
                for delivery_id, event_id, event_type, attempts, due, last_status, key in rows:
                    if key is not None and key in waiting_keys:
                        continue
                    if not active and event_type != envelopes.WEBHOOK_TEST:
                        continue  # off: only its tests go
                    due_at = _moment(due)
                    if due_at is not None and due_at > now:
                        waits.append((due_at - now).total_seconds())
                        if last_status is None or not (400 <= last_status < 500) or last_status in _UNAVAILABLE:
                            break  # unavailable: nothing newer overtakes it
                        continue  # this event was refused: the others go on, its conversation's too
                    job = Job(delivery_id, webhook_id, url, secret_sealed, event_id, "", attempts + 1, key)
                    chain = chains.get(key)
                    if chain is not None:
                        chain.append(job)  # goes when the one before it is answered
                        if len(chain) == CHAIN:
                            waiting_keys.add(key)
                        continue
                    if room == 0:
                        break  # no newer conversation starts before an older one
                    taken.append([job])
                    if key is not None:
                        chains[key] = taken[-1]
                    room -= 1
            ids = [job.delivery_id for chain in taken for job in chain]
            if ids:
                bodies = dict(connection.execute(
                    f"SELECT id, request_body FROM webhook_deliveries WHERE id IN ({', '.join('?' * len(ids))})",
                    ids).fetchall())
                taken = [[job._replace(body=bodies[job.delivery_id], ends_chain=n == len(chain) - 1)
                          for n, job in enumerate(chain)] for chain in taken]
        return taken, (min(waits) if waits else None)

    def _send(self, chain: list[Job], n: int) -> None:
        """The chain's `n`th attempt, signed now (no retry here: the schedule is the retry)."""
        job = chain[n]
        started = clock.now()
        try:
            signer = self._signers.get(job.secret_sealed)
            if signer is None:
                signer = self._signers[job.secret_sealed] = envelopes.signer(runtime.get().keyring.unseal(job.secret_sealed))
            headers = envelopes.headers(signer, job.event_id, job.body, started)
        except Exception as exc:  # a bug of ours must not leave the delivery in the air for ever
            log.exception("webhook delivery %s failed", job.delivery_id)
            from appliance.outbound_webhooks import posting  # loaded on first use (see _posting)

            self._answered(_Sending(chain, n, started, {}),
                           posting.Answer(None, None, f"Internal error: {type(exc).__name__}.", 0))
            return
        self._posting().post(job.url, job.body.encode(), headers, timeout=TIMEOUT_SECONDS,
                             tag=_Sending(chain, n, started, headers))

    def _answered(self, sending: _Sending, answer: posting.Answer) -> None:
        """On the poster's thread: the outcome goes to the next pass; the chain goes on, or stops at
        an unavailable receiver (the rest go back unsent)."""
        chain, n = sending.chain, sending.n
        outcome = Outcome(chain[n], sending.started_at, answer.duration_ms, answer.status, answer.response, answer.error,
                          {k: v for k, v in sending.headers.items() if k != "webhook-signature"})
        self._done.put(outcome)  # before the unsent: a pass that sees them knows the receiver is unavailable
        stopped = (outcome.blocking and not outcome.delivered) or self._closing
        for rest in chain[n + 1:] if stopped else ():
            self._done.put(Unsent(rest))
        if not stopped and n + 1 < len(chain):
            self._send(chain, n + 1)
        if self._on_outcome is not None:
            self._on_outcome()


_UPDATE_OUTCOMES = ("UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, in_flight_since = NULL, "
                    "response_status = ?, response_body = ?, duration_ms = ?, error = ?, "
                    "delivered_at = coalesce(?, delivered_at) WHERE id = ?")


def record_outcomes(session: Session, outcomes: list[Outcome]) -> None:
    """The attempts, the deliveries' new states and the webhooks' health, in the caller's transaction."""
    now = clock.now()
    insert_many(session, _ATTEMPTS, [{
        "delivery_id": o.job.delivery_id, "number": o.job.number,
        "outcome": "delivered" if o.delivered else "failed", "started_at": o.started_at, "duration_ms": o.duration_ms,
        "response_status": o.status, "response_body": o.response, "error": o.error, "request_headers": o.headers}
        for o in outcomes])
    as_text = bind_processor(_TABLE.c.next_attempt_at, session.get_bind().dialect)  # the updates' time columns
    delivered_at = as_text(now)
    updates, gone = [], []
    for o in outcomes:
        delivered = o.delivered
        state, due = after_attempt(o)
        if o.status == 410:
            gone.append(o.job.webhook_id)
        updates.append((state, as_text(due) if due is not None else None, o.status, o.response, o.duration_ms, o.error,
                        delivered_at if delivered else None, o.job.delivery_id))
    driver_connection(session).executemany(_UPDATE_OUTCOMES, updates)
    _health(session, outcomes, gone, now)


def after_attempt(outcome: Outcome) -> tuple[str, datetime | None]:
    """The delivery's state after this attempt, and when its next attempt is due (None: no more)."""
    if outcome.delivered:
        return DELIVERED, None
    if outcome.status == 410 or outcome.job.number > len(RETRY_AFTER):
        return FAILED, None
    scale = runtime.get().settings.webhook_retry_scale
    return RETRYING, outcome.started_at + timedelta(seconds=RETRY_AFTER[outcome.job.number - 1] * scale)


def _health(session: Session, outcomes: list[Outcome], gone: list[str], now: datetime) -> None:
    last: dict[str, Outcome] = {}
    for o in outcomes:
        last[o.job.webhook_id] = o
    stamp = _stored("last_delivery_at", now)
    connection = driver_connection(session)
    for webhook_id, o in last.items():
        if o.delivered:
            connection.execute("UPDATE outbound_webhooks SET failure_count = 0, failing_since = NULL, "
                               "last_delivery_at = ? WHERE id = ?", (stamp, webhook_id))
        else:
            failed = sum(1 for x in outcomes if x.job.webhook_id == webhook_id and not x.delivered)
            connection.execute("UPDATE outbound_webhooks SET failure_count = failure_count + ?, "
                               "failing_since = coalesce(failing_since, ?) WHERE id = ?", (failed, stamp, webhook_id))
    for webhook_id in set(gone):
        # A bound False, not a literal 0: PostgreSQL's boolean column refuses an integer (SQLite takes either).
        connection.execute("UPDATE outbound_webhooks SET active = ?, disabled_reason = ?, updated_at = ? WHERE id = ?",
                           (False, "gone", stamp, webhook_id))
    _tell_owners(session, [w for w, o in last.items() if not o.delivered], now)


def _tell_owners(session: Session, failing: list[str], now: datetime) -> None:
    """One mail to the webhook's creator once it has failed for a day without a success."""
    if not failing:
        return
    from appliance.outbound_webhooks import notices  # mail and users: only when a webhook has failed a day
    for webhook in (session.get(OutboundWebhook, webhook_id) for webhook_id in failing):
        if (webhook is not None and webhook.owner_notified_at is None and webhook.failing_since is not None
                and now - webhook.failing_since >= FAILING_AFTER):
            notices.tell_failing(session, webhook, now)


def recover_interrupted(database) -> int:
    """At start: attempts a stop cut short are logged as interrupted and made again now."""
    with database.unit_of_work(write=True) as session:
        connection = driver_connection(session)
        rows = connection.execute("SELECT id, attempt, in_flight_since FROM webhook_deliveries "
                                  "WHERE in_flight_since IS NOT NULL").fetchall()
        if not rows:
            return 0
        insert_many(session, _ATTEMPTS, [{
            "delivery_id": delivery_id, "number": number, "outcome": "interrupted", "started_at": _moment(since),
            "error": "The appliance stopped while this attempt was in the air (or waiting in its conversation's "
                     "chain); it is made again (same webhook-id)."}
            for delivery_id, number, since in rows])
        now = _stored("next_attempt_at", clock.now())
        connection.executemany("UPDATE webhook_deliveries SET in_flight_since = NULL, status = ?, next_attempt_at = ? "
                               "WHERE id = ?", [(RETRYING, now, delivery_id) for delivery_id, _, _ in rows])
    log.warning("%d webhook deliveries were in the air at the last stop: they are sent again", len(rows))
    return len(rows)


def _stored(column: str, value):
    if value is None:
        return None
    return bind_processor(_TABLE.c[column] if column in _TABLE.c else _HOOKS.c[column], _dialect())(value)


def _dialect():
    return runtime.get().db.engine.dialect


def _moment(stored) -> datetime | None:
    """A time as the driver reads it (UTC text) made aware."""
    return None if stored is None else utc_from_text(stored)


def deliver_due(database) -> float | None:
    """One pass outside the server: everything due now goes, and this waits for the answers.
    Answers the seconds until the next retry (None: none waits)."""
    deliverer = Deliverer(database)
    try:
        wait = deliverer.run_pass()
        while deliverer.in_air:
            wait = deliverer.run_pass(wait=TIMEOUT_SECONDS * 2 + 5)
        return wait
    finally:
        deliverer.close()


class _SenderThread(WakeableThread):
    NAME = "webhooks"
    IDLE_SLEEP = 30.0

    def _run(self) -> None:
        deliverer = Deliverer(self._database, on_outcome=self.wake)
        try:
            recover_interrupted(self._database)
        except Exception:
            log.exception("could not recover interrupted webhook deliveries")
        try:
            while not self._stopping.is_set():
                self._begin_pass()
                try:
                    wait = deliverer.run_pass()
                except Exception:
                    log.exception("webhook delivery pass failed; trying again")
                    wait = 1.0
                self._sleep(min(wait if wait is not None else self.IDLE_SLEEP, self.IDLE_SLEEP))
                self._stopping.wait(PASS_GATHER_SECONDS)  # the outcomes of a burst share one write
        finally:
            deliverer.close()  # attempts in the air finish (15 s at most)
            deliverer.run_pass(start=False)  # their outcomes written; what is due waits for the next start


sender_thread = _SenderThread()
