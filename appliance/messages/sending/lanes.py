"""Running the send queue: inline in the caller's thread (tests, the CLI: a queue task), or in the
server, where one thread per busy number (a lane) claims and answers in batches while a small pool
of workers calls the network: about one write transaction per 10 ms of sending instead of two per
message. The server starts and stops `sender`; a commit that queued messages wakes its number.
"""

from __future__ import annotations

import logging
import math
import queue as queue_module
import threading
import time

from appliance.graph_api.client import GraphError
from appliance.messages.sending.network import send_one
from appliance.messages.sending.pacing import pacer as process_pacer
from appliance.messages.sending.queue import (Answer, Job, Line, claim, fail_disconnected, numbers_with_due, read_line,
                                              record, recover_interrupted)

log = logging.getLogger("appliance.sender")

# A lane's workers each wait for one answer at a time, so a number reaches at most workers ÷ the
# network's latency: enough of them to fill the tier when a send takes this long (Meta's answers
# commonly take 0.1-0.3 s from a business's line). Two workers at tier 80 (rate ÷ 40, before)
# would have sent ~10 messages a second to the real network; on loopback under a broadcast's load
# (answers ~25-30 ms) 24 at tier 1,000 were already near their ceiling. The gate keeps the rate;
# idle workers only wait (blocked in libcurl, without the GIL).
NETWORK_LATENCY_SECONDS = 0.25
MAX_WORKERS = 64


def workers_for(rate: int) -> int:
    return max(2, min(MAX_WORKERS, math.ceil(rate * NETWORK_LATENCY_SECONDS)))


def in_air_limit(rate: int) -> int:
    """How many of a number's messages may be claimed at once: what a crash fails with -3. A
    quarter second of the tier, so the workers have work while the lane waits its turn for the
    write lock behind a broadcast's batch or the outbox (72 starved them: 1,000/s numbers reached
    ~620/s; now ~710/s, tests/bench/bench_broadcast.py), and at least one job and a half per worker
    (three each left 60 in the air at tier 80)."""
    workers = workers_for(rate)
    return max(workers + workers // 2, rate // 4)


def send_queued(database, phone_number_pk: str, *, batch: int = 20) -> int:
    """Send what is due for the number, one batch after another, in this thread."""
    total = 0
    answers: list[Answer] = []
    line = None
    while True:
        with database.unit_of_work(write=True) as session:
            if line is None:
                line = read_line(session, phone_number_pk)
                if line is None:
                    return total + fail_disconnected(session, phone_number_pk)
            record(session, line, answers)
            jobs = claim(session, phone_number_pk, batch)
        if not jobs:
            return total
        answers = [send_one(line, job, process_pacer) for job in jobs]
        total += sum(1 for a in answers if a.outcome in ("sent", "failed"))


class _Lane:
    """One number's sending while it has work: this thread claims and answers, workers call."""

    def __init__(self, owner: "_Sender", database, phone_number_pk: str):
        self.owner, self.database, self.phone_number_pk = owner, database, phone_number_pk
        self.poked = threading.Event()
        self.answers: queue_module.SimpleQueue[Answer] = queue_module.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=f"send-{phone_number_pk[-6:]}", daemon=True)

    def _run(self) -> None:
        try:
            with self.database.unit_of_work(write=False) as session:
                line = read_line(session, self.phone_number_pk)
            if line is None:
                with self.database.unit_of_work(write=True) as session:
                    fail_disconnected(session, self.phone_number_pk)
                return
            workers = workers_for(line.rate)
            # Workers take jobs from a plain queue: a thousand a second, where an executor's future,
            # callback and result cost each job a few tens of microseconds more.
            jobs: queue_module.SimpleQueue[Job | None] = queue_module.SimpleQueue()
            threads = [threading.Thread(target=self._work, args=(line, jobs), daemon=True,
                                        name=f"send-{self.phone_number_pk[-6:]}_{n}") for n in range(workers)]
            for thread in threads:
                thread.start()
            try:
                # Claimed messages are "in the air" (a crash fails them -3, never sending twice).
                self._feed(line, jobs, in_air_limit=in_air_limit(line.rate))
            finally:
                for _ in threads:
                    jobs.put(None)  # after the jobs already queued: each is sent and answered first
                for thread in threads:
                    thread.join()
        except Exception:
            log.exception("sending for number %s stopped", self.phone_number_pk)
        finally:
            self.owner.lane_ended(self)

    def _work(self, line: Line, jobs: "queue_module.SimpleQueue[Job | None]") -> None:
        stop = self.owner.stopping
        while (job := jobs.get()) is not None:
            try:
                answer = send_one(line, job, process_pacer, stop)
            except Exception as error:  # answered all the same: a job never stays in the air
                answer = Answer(job, "failed", error=GraphError(0, 1, f"Unexpected error: {error!r}"))
            self.answers.put(answer)

    def _feed(self, line: Line, jobs: "queue_module.SimpleQueue[Job | None]", in_air_limit: int) -> None:
        in_air = 0
        unrecorded: list[Answer] = []  # answers whose transaction failed: written on the next turn
        stop = self.owner.stopping
        while True:
            answers = unrecorded + self._gather(block=in_air > 0 and not unrecorded)
            room = 0 if stop.is_set() else in_air_limit - (in_air - len(answers))
            try:
                with self.database.unit_of_work(write=True) as session:
                    record(session, line, answers)
                    claimed = claim(session, self.phone_number_pk, room)
            except Exception:
                # A busy or failing database must not strand what is in the air: left unrecorded,
                # those messages would stay in flight, and every later one to the same person
                # queued, until a restart. Nothing of the transaction happened; try it again.
                log.exception("recording sends for number %s failed; trying again", self.phone_number_pk)
                unrecorded = answers
                time.sleep(0.5)
                continue
            unrecorded = []
            in_air -= len(answers)
            for job in claimed:
                jobs.put(job)
            in_air += len(claimed)
            if in_air == 0 and not claimed and (stop.is_set() or not self.owner.keep_lane(self)):
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

    def wake(self, phone_number_pk: str) -> None:
        with self._lock:
            if self.stopping.is_set() or self._database is None:
                return
            lane = self._lanes.get(phone_number_pk)
            if lane is not None:
                lane.poked.set()
                return
            lane = self._lanes[phone_number_pk] = _Lane(self, self._database, phone_number_pk)
            lane.thread.start()

    def keep_lane(self, lane: _Lane) -> bool:
        """An idle lane ends unless it was woken since its last look (then it looks again)."""
        with self._lock:
            if lane.poked.is_set():
                lane.poked.clear()
                return True
            self._lanes.pop(lane.phone_number_pk, None)
            return False

    def lane_ended(self, lane: _Lane) -> None:
        with self._lock:
            if self._lanes.get(lane.phone_number_pk) is lane:
                del self._lanes[lane.phone_number_pk]

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
                for phone_number_pk in numbers_with_due(self._database):
                    self.wake(phone_number_pk)
            except Exception:
                log.exception("looking for due messages failed")


sender = _Sender()
