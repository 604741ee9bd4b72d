"""The send queue: stored outbound messages go to the network, per number, paced, retried.

The queue is the messages table (`send_state`): a message is `queued` from the request's commit,
`inflight` while the network is asked, and answered after (sent, failed or queued again for a
retry). Claiming and answering are transactions; the network call is outside any.

- **Order**: a recipient's next message is claimed only once the one before it is answered, so two
  messages to one person never race each other; different recipients go in parallel.
- **Pacing** (pacing.py): the number's throughput gate and the pair rate, so the appliance does not
  provoke 130429 or 131056. A message over the pair rate waits (`next_attempt_at`), not counted as
  an attempt.
- **Retries**: a retryable refusal (throttling, outages, a connection that never opened) is tried
  again with back-off, up to MAX_ATTEMPTS; anything else fails the message at once with the
  network's code, explained by the catalog. 190 also marks the business account for re-authorization.
- **Never twice**: a send that may have reached the network without an answer (a read timeout, a
  crash while in the air) is not repeated: it fails with -2 or -3. Each send carries our message id
  as `biz_opaque_callback_data`; a status webhook carrying it later links the wamid and moves the
  message on (messages/service.py).

In the server one thread per busy number (a lane) claims and answers in batches while a small pool
of workers calls the network. Elsewhere (tests, the CLI) a queue task sends inline.
"""

from __future__ import annotations

import json
import logging
import queue as queue_module
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta

from huey import crontab
from sqlmodel import Session

from appliance.core import clock, events, runtime
from appliance.core.db import after_commit, bind_processor, driver_connection, read_row
from appliance.core.queue import huey
from appliance.graph_api.client import TRANSPORT_ERROR, GraphError
from appliance.graph_api.errors import explain
from appliance.messages.models import Message
from appliance.messages.pacing import Pacer
from appliance.messages.pacing import pacer as process_pacer
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount
from appliance.wabas.network import graph_client

log = logging.getLogger("appliance.sender")

MAX_ATTEMPTS = 6
RETRY_SECONDS = (2, 10, 30, 120, 600)  # before attempts 2..6
MAYBE_DELIVERED = -2  # no answer after the request left (catalog: data/network_errors.json)
INTERRUPTED = -3  # in the air when the appliance stopped
DISCONNECTED = -4  # the number was disconnected before the message went


@dataclass(frozen=True)
class Job:
    """One claimed message, with what the network call needs."""
    message_id: str
    conversation_id: str
    to: str
    kind: str
    payload: object
    reply_to_wamid: str | None
    attempts: int


@dataclass(frozen=True)
class Line:
    """A number as the sender needs it: our id, the network's, its account and token, its tier."""
    number_pk: str
    organization_id: str
    phone_number_id: str
    waba_pk: str
    token: str
    rate: int


@dataclass
class Answer:
    """What became of one job."""
    job: Job
    outcome: str  # sent | retry | failed | wait
    wamid: str | None = None
    error: GraphError | None = None
    delay: float = 0.0


# Claiming and answering (transactions) --------------------------------------------------------------

def _stored_time(session: Session, moment) -> str:
    """A time as the driver stores it (statements here go to the driver, past the ORM's types)."""
    return bind_processor(Message.__table__.c.updated_at, session.get_bind().dialect)(moment)


def read_line(session: Session, number_pk: str) -> Line | None:
    """The number as the sender needs it; None once it is disconnected (or gone)."""
    number = read_row(session, PhoneNumber.__table__, id=number_pk, remember=False)
    if number is None or number.disconnected_at is not None:
        return None
    account = read_row(session, BusinessAccount.__table__, id=number.waba_pk, remember=False)
    token, _ = wabas_service.credentials(account)
    return Line(number.id, number.organization_id, number.phone_number_id, number.waba_pk, token,
                number.messages_per_second)


_CLAIMABLE = """
    SELECT m.id, m.conversation_id, m.customer_wa_id, m.type, m.payload, m.reply_to_wamid, m.send_attempts
    FROM messages m
    WHERE m.phone_number_pk = ? AND m.send_state = 'queued' AND m.next_attempt_at <= ?
      AND NOT EXISTS (SELECT 1 FROM messages p WHERE p.phone_number_pk = m.phone_number_pk
                      AND p.customer_wa_id = m.customer_wa_id AND p.send_state IS NOT NULL AND p.id < m.id)
    ORDER BY m.id LIMIT ?"""


def claim(session: Session, number_pk: str, limit: int) -> list[Job]:
    """The next messages that may go now (the first of each recipient), marked in flight."""
    if limit <= 0:
        return []
    driver = driver_connection(session)
    rows = driver.execute(_CLAIMABLE, (number_pk, _stored_time(session, clock.now()), limit)).fetchall()
    if not rows:
        return []
    driver.executemany("UPDATE messages SET send_state = 'inflight', send_attempts = send_attempts + 1 WHERE id = ?",
                       [(row[0],) for row in rows])
    return [Job(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6] + 1) for row in rows]


def record(session: Session, line: Line, answers: list[Answer]) -> None:
    """Write what the network answered; one event per message that changed for the world."""
    if not answers:
        return
    now = clock.now()
    stamp = _stored_time(session, now)
    driver = driver_connection(session)
    changed: list[dict] = []
    failed: list[Answer] = []
    for answer in answers:
        if answer.outcome == "wait":  # not an attempt: the pair rate or a stop put it back
            at = _stored_time(session, now + timedelta(seconds=answer.delay))
            driver.execute("UPDATE messages SET send_state = 'queued', send_attempts = send_attempts - 1, "
                           "next_attempt_at = ? WHERE id = ? AND send_state = 'inflight'", (at, answer.job.message_id))
        elif answer.outcome == "retry":
            at = _stored_time(session, now + timedelta(seconds=answer.delay))
            driver.execute("UPDATE messages SET send_state = 'queued', next_attempt_at = ?, error_code = ?, "
                           "error_title = ?, updated_at = ? WHERE id = ? AND send_state = 'inflight'",
                           (at, answer.error.code, explain(answer.error.code).title[:200], stamp, answer.job.message_id))
        elif answer.outcome == "sent":
            # A status webhook may have got here first (it carries our id): keep the later status.
            driver.execute("UPDATE messages SET send_state = NULL, wamid = coalesce(wamid, ?), error_code = NULL, "
                           "error_title = NULL, error_details = NULL, updated_at = ?, "
                           "status = CASE WHEN status = 'pending' THEN 'sent' ELSE status END WHERE id = ?",
                           (answer.wamid, stamp, answer.job.message_id))
            changed.append({"messageId": answer.job.message_id, "status": "sent", "wamid": answer.wamid})
        else:
            failed.append(answer)
    if failed:
        _fail(session, [(a.job.message_id, a.error) for a in failed])
        changed += [{"messageId": a.job.message_id, "status": "failed", "errorCode": a.error.code} for a in failed]
        if any(a.error.token_expired for a in failed):
            wabas_service.do_mark_needs_reauth(session, waba_pk=line.waba_pk)
    if changed:
        conversations = {a.job.message_id: a.job.conversation_id for a in answers}
        events.emit_many(session, events.MESSAGE_UPDATED, organization_id=line.organization_id,
                         items=[{**c, "conversationId": conversations[c["messageId"]]} for c in changed])


def _fail(session: Session, failures: list[tuple[str, GraphError]]) -> None:
    """Fail these messages with the network's (or our) code, explained by the catalog, unless a
    status webhook already proved one reached the network (it has a wamid); all leave the queue."""
    stamp = _stored_time(session, clock.now())
    driver = driver_connection(session)
    driver.executemany("UPDATE messages SET status = 'failed', error_code = ?, error_title = ?, error_details = ?, "
                       "updated_at = ? WHERE id = ? AND wamid IS NULL",
                       [(error.code, explain(error.code).title[:200], (error.details or error.message or "")[:1000] or None,
                         stamp, message_id) for message_id, error in failures])
    driver.executemany("UPDATE messages SET send_state = NULL WHERE id = ?", [(message_id,) for message_id, _ in failures])


def _fail_where(session: Session, condition: str, params: tuple, code: int) -> int:
    """Fail the queued or in-flight messages matching `condition` with one of our codes; one
    `message.updated` each."""
    rows = driver_connection(session).execute(
        f"SELECT id, organization_id, conversation_id FROM messages WHERE {condition}", params).fetchall()
    error = GraphError(0, code, explain(code).title)
    _fail(session, [(row[0], error) for row in rows])
    for organization_id in {row[1] for row in rows}:
        events.emit_many(session, events.MESSAGE_UPDATED, organization_id=organization_id, items=[
            {"messageId": row[0], "conversationId": row[2], "status": "failed", "errorCode": code}
            for row in rows if row[1] == organization_id])
    return len(rows)

def fail_disconnected(session: Session, number_pk: str) -> int:
    """A number disconnected with messages still queued: they fail (-4) instead of waiting forever."""
    return _fail_where(session, "phone_number_pk = ? AND send_state = 'queued'", (number_pk,), DISCONNECTED)


def recover_interrupted(database) -> int:
    """At start-up: sends that were in the air when the process stopped may or may not have reached
    the network. They are failed with -3, not repeated; a status webhook naming them revives them."""
    with database.unit_of_work(write=True) as session:
        return _fail_where(session, "send_state = 'inflight'", (), INTERRUPTED)


def numbers_with_due(database) -> list[str]:
    with database.unit_of_work(write=False) as session:
        now = _stored_time(session, clock.now())
        return [row[0] for row in driver_connection(session).execute(
            "SELECT DISTINCT phone_number_pk FROM messages WHERE send_state = 'queued' AND next_attempt_at <= ?", (now,))]


# The network call ------------------------------------------------------------------------------------

def network_body(job: Job) -> dict:
    body = {"recipient_type": "individual", "to": job.to, "type": job.kind, job.kind: job.payload,
            "biz_opaque_callback_data": job.message_id}
    if job.reply_to_wamid and job.kind != "reaction":
        body["context"] = {"message_id": job.reply_to_wamid}
    return body


def send_one(line: Line, job: Job, pacing: Pacer, stop: threading.Event | None = None) -> Answer:
    wait = pacing.pairs.take(line.number_pk, job.to)
    if wait:
        return Answer(job, "wait", delay=wait)
    gate = pacing.gate(line.number_pk, line.rate)
    if not gate.acquire(stop=stop):
        return Answer(job, "wait")
    try:
        answer = graph_client().send_message(line.token, line.phone_number_id, network_body(job))
    except GraphError as error:
        return _classify(job, error)
    except Exception as exc:  # a bug here must not leave the message in the air
        log.exception("sending message %s failed", job.message_id)
        return Answer(job, "failed", error=GraphError(0, 1, f"Unexpected error: {exc.__class__.__name__}"))
    finally:
        gate.release()
    messages = answer.get("messages") if isinstance(answer, dict) else None
    wamid = messages[0].get("id") if isinstance(messages, list) and messages and isinstance(messages[0], dict) else None
    if not isinstance(wamid, str) or not wamid:
        return Answer(job, "failed", error=GraphError(200, MAYBE_DELIVERED, "The network accepted the "
                                                                 "request but named no message id"))
    return Answer(job, "sent", wamid=wamid)


def _classify(job: Job, error: GraphError) -> Answer:
    if error.code == TRANSPORT_ERROR and error.maybe_delivered:
        return Answer(job, "failed", error=GraphError(0, MAYBE_DELIVERED, explain(MAYBE_DELIVERED).title,
                                                                 details=error.message))
    if error.retryable and job.attempts < MAX_ATTEMPTS:
        return Answer(job, "retry", error=error, delay=retry_delay(error.code, job.attempts))
    return Answer(job, "failed", error=error)


def retry_delay(code: int, attempts: int) -> float:
    if code == 131056:  # Meta: pair rate exceeded, wait 4^X seconds
        return float(min(4 ** attempts, 900))
    if code == 130429:  # throughput: the next second has room again
        return 1.0 * attempts
    return float(RETRY_SECONDS[min(attempts, len(RETRY_SECONDS)) - 1])


# Inline (tests, the CLI) -------------------------------------------------------------------------------

def send_queued(database, number_pk: str, *, batch: int = 20) -> int:
    """Send what is due for the number, one batch after another, in this thread."""
    total = 0
    answers: list[Answer] = []
    line = None
    while True:
        with database.unit_of_work(write=True) as session:
            if line is None:
                line = read_line(session, number_pk)
                if line is None:
                    return total + fail_disconnected(session, number_pk)
            record(session, line, answers)
            jobs = claim(session, number_pk, batch)
        if not jobs:
            return total
        answers = [send_one(line, job, process_pacer) for job in jobs]
        total += sum(1 for a in answers if a.outcome in ("sent", "failed"))


# The server's lanes ------------------------------------------------------------------------------------

class _Lane:
    """One number's sending while it has work: this thread claims and answers, workers call."""

    def __init__(self, owner: "_Sender", database, number_pk: str):
        self.owner, self.database, self.number_pk = owner, database, number_pk
        self.poked = threading.Event()
        self.answers: queue_module.SimpleQueue[Answer] = queue_module.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=f"send-{number_pk[-6:]}", daemon=True)

    def _run(self) -> None:
        try:
            with self.database.unit_of_work(write=False) as session:
                line = read_line(session, self.number_pk)
            if line is None:
                with self.database.unit_of_work(write=True) as session:
                    fail_disconnected(session, self.number_pk)
                return
            workers = max(2, min(24, line.rate // 40))
            with ThreadPoolExecutor(workers, thread_name_prefix=f"send-{self.number_pk[-6:]}") as pool:
                self._feed(line, pool, in_air_limit=workers * 3)
        except Exception:
            log.exception("sending for number %s stopped", self.number_pk)
        finally:
            self.owner.lane_ended(self)

    def _feed(self, line: Line, pool: ThreadPoolExecutor, in_air_limit: int) -> None:
        in_air = 0
        stop = self.owner.stopping
        while True:
            answers = self._gather(block=in_air > 0)
            in_air -= len(answers)
            room = 0 if stop.is_set() else in_air_limit - in_air
            with self.database.unit_of_work(write=True) as session:
                record(session, line, answers)
                jobs = claim(session, self.number_pk, room)
            for job in jobs:
                future = pool.submit(send_one, line, job, process_pacer, stop)
                future.add_done_callback(lambda f, job=job: self.answers.put(_answer_of(f, job)))
            in_air += len(jobs)
            if in_air == 0 and not jobs and (stop.is_set() or not self.owner.keep_lane(self)):
                return

    def _gather(self, *, block: bool) -> list[Answer]:
        """The answers so far; when some are awaited, wait for one, then a moment for its neighbours
        (one transaction for a handful of answers instead of one each)."""
        answers = []
        if block:
            try:
                answers.append(self.answers.get(timeout=0.25))
            except queue_module.Empty:
                return answers
            time.sleep(0.01)
        while True:
            try:
                answers.append(self.answers.get_nowait())
            except queue_module.Empty:
                return answers


def _answer_of(future, job: Job) -> Answer:
    error = future.exception()
    if error is not None:
        return Answer(job, "failed", error=GraphError(0, 1, f"Unexpected error: {error!r}"))
    return future.result()


class _Sender:
    """The server's sending: a lane per number with work, woken after commits that queued messages,
    and every second for retries that came due. Without it running, wake-ups run a queue task."""

    def __init__(self):
        self.stopping = threading.Event()
        self._lanes: dict[str, _Lane] = {}
        self._lock = threading.Lock()
        self._timer: threading.Thread | None = None
        self._database = None

    @property
    def running(self) -> bool:
        return self._timer is not None

    def start(self, database) -> None:
        self._database = database
        self.stopping.clear()
        recovered = recover_interrupted(database)
        if recovered:
            log.warning("%d message(s) were being sent when the appliance stopped; marked failed (-3)", recovered)
        self._timer = threading.Thread(target=self._tick, name="send-timer", daemon=True)
        self._timer.start()

    def wake(self, number_pk: str) -> None:
        with self._lock:
            if self.stopping.is_set() or self._database is None:
                return
            lane = self._lanes.get(number_pk)
            if lane is not None:
                lane.poked.set()
                return
            lane = self._lanes[number_pk] = _Lane(self, self._database, number_pk)
            lane.thread.start()

    def keep_lane(self, lane: _Lane) -> bool:
        """An idle lane ends unless it was woken since its last look (then it looks again)."""
        with self._lock:
            if lane.poked.is_set():
                lane.poked.clear()
                return True
            self._lanes.pop(lane.number_pk, None)
            return False

    def lane_ended(self, lane: _Lane) -> None:
        with self._lock:
            if self._lanes.get(lane.number_pk) is lane:
                del self._lanes[lane.number_pk]

    def stop(self, timeout: float = 15.0) -> None:
        """Let the calls in the air finish and be recorded; what was not started stays queued."""
        timer, self._timer = self._timer, None
        self.stopping.set()
        with self._lock:
            lanes = list(self._lanes.values())
        for lane in lanes:
            lane.thread.join(timeout)
        if timer is not None:
            timer.join(timeout)

    def _tick(self) -> None:
        while not self.stopping.wait(1.0):
            try:
                for number_pk in numbers_with_due(self._database):
                    self.wake(number_pk)
            except Exception:
                log.exception("looking for due messages failed")


sender = _Sender()
_woken: set[str] = set()  # numbers whose inline send task is queued and not started
_woken_lock = threading.Lock()


def wake_after_commit(session: Session, number_pk: str) -> None:
    """Once the message is committed, its number's sender looks for work."""
    scheduled = session.info.setdefault("send_wake", set())
    if number_pk not in scheduled:
        scheduled.add(number_pk)
        after_commit(session, lambda: _wake(number_pk))


def _wake(number_pk: str) -> None:
    if sender.running:
        sender.wake(number_pk)
        return
    with _woken_lock:
        if number_pk in _woken:
            return  # that task, when it starts, sends this one too
        _woken.add(number_pk)
    send_queued_task(number_pk)


@huey.task()
def send_queued_task(number_pk: str) -> None:
    with _woken_lock:
        _woken.discard(number_pk)
    send_queued(runtime.get().db, number_pk)


@huey.periodic_task(crontab(minute="*"))
def send_due_sweep() -> None:
    """Retries that came due, where no sender thread runs (the server's looks every second)."""
    if sender.running:
        return
    for number_pk in numbers_with_due(runtime.get().db):
        send_queued(runtime.get().db, number_pk)
