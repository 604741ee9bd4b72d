"""The task queue: Huey on its own SQLite file (queue.db), through pysqlite3 like the database;
or, when the database is PostgreSQL, in tables of that database, shared by every process of the
installation (core/queue_postgres.py).

The consumers run inside the server process (workers of appliance/worker_registry.py). Tasks take
ids, re-read state, and are safe to run twice. Tests switch the queue to immediate mode (or run
the consumers on queue.db: tests/fixtures/workers.py).

Two lanes, each with its own workers: `huey`, for everything short (inbound media, mail, the
outbox, read marks...), and `slow`, for work that may take minutes (reading documents and web
pages into the knowledge base). Slow work never holds the short lane's workers, and within its
lane no organization holds them all: a slow task's first argument is its organization, and a
worker takes the oldest task of the organization served least recently among those with fewer
than `per_organization` tasks running (`SlowLane`).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from pathlib import Path

import pysqlite3.dbapi2 as sqlite
from huey import Huey
from huey.signals import SIGNAL_ERROR
from huey.consumer import Consumer
from huey.registry import Registry
from huey.storage import SqliteStorage
from sqlmodel import Session

from appliance.core import postgres_engine
from appliance.core.db import after_commit
from appliance.core.queue_postgres import PostgresQueueStorage


class PysqliteStorage(SqliteStorage):
    """Huey's SQLite storage on pysqlite3, so the queue gets the same SQLite as the database."""

    integrity_error = sqlite.IntegrityError
    operational_error = sqlite.OperationalError

    def _create_connection(self):
        conn = sqlite.connect(self.filename, timeout=self._timeout, check_same_thread=False,
                              **self._conn_kwargs)
        conn.isolation_level = None
        self._set_journal_mode(conn)
        if self._cache_mb:
            conn.execute("pragma cache_size=%s" % (-1000 * self._cache_mb))
        if self._fsync is not None:
            conn.execute("pragma synchronous=%s" % (2 if self._fsync else 0))
        return conn


class LaneLines:
    """The slow lane's rows: each organization's tasks wait in a line of their own (the `queue`
    column `<lane>:<organization id>`), so a worker can pick the line to serve. Mixed into the
    lane's storage on either engine, which gives `_lines_sql` (a statement written with `?` and
    `{task}` for the tasks' table) and `_take(queue)` (the first task of a `queue` value, taken off; None
    when none is left or another worker was first)."""

    lane: "SlowLane"

    def _line(self, key: str) -> str:
        return f"{self.name}:{key}"

    def _lines_where(self) -> tuple[str, tuple[str, str]]:
        return "queue > ? AND queue < ?", (f"{self.name}:", f"{self.name};")  # ';' sorts right after ':'

    def enqueue(self, data, priority=None):
        self._lines_sql("INSERT INTO {task} (queue, data, priority) VALUES (?, ?, ?)",
                        (self._line(self.lane.organization_of(data)), self.to_blob(data), priority or 0))

    def waiting_lines(self) -> list[str]:
        """The organizations with tasks waiting."""
        where, params = self._lines_where()
        return [line.split(":", 1)[1] for line, in self._lines_sql(f"SELECT DISTINCT queue FROM {{task}} WHERE {where}",
                                                                   params, results=True)]

    def pop(self, key: str):
        """The oldest task of an organization's line, taken off it; None if another worker was first."""
        return self._take(self._line(key))

    def dequeue(self):
        raise NotImplementedError("the slow lane's workers take tasks through SlowLane.dequeue")

    def queue_size(self):
        where, params = self._lines_where()
        return self._lines_sql(f"SELECT count(id) FROM {{task}} WHERE {where}", params, results=True)[0][0]

    def enqueued_items(self, limit=None):
        where, params = self._lines_where()
        query = f"SELECT data FROM {{task}} WHERE {where} ORDER BY priority DESC, id"
        rows = self._lines_sql(query + (" LIMIT ?" if limit is not None else ""),
                               params + ((limit,) if limit is not None else ()), results=True)
        return [data for data, in rows]

    def flush_queue(self):
        where, params = self._lines_where()
        self._lines_sql(f"DELETE FROM {{task}} WHERE {where}", params)


class LaneStorage(LaneLines, PysqliteStorage):
    """The slow lane's lines in queue.db."""

    def _lines_sql(self, sql: str, params=(), *, results: bool = False):
        return self.sql(sql.format(task="task"), params, commit=not results, results=results)

    def _take(self, queue: str):
        with self.db(commit=True) as cursor:
            cursor.execute("SELECT id, data FROM task WHERE queue = ? ORDER BY priority DESC, id LIMIT 1", (queue,))
            row = cursor.fetchone()
            if row is not None:
                cursor.execute("DELETE FROM task WHERE id = ?", (row[0],))
                if cursor.rowcount == 1:
                    return row[1]
        return None


class PostgresLaneStorage(LaneLines, PostgresQueueStorage):
    """The slow lane's lines in PostgreSQL (`_take` skips the rows another process is taking)."""


# A queued task is stored under its function's module and name. These tasks moved to their
# folder's tasks.py (issue 47); what a version before that queued still runs after an upgrade.
MOVED_TASKS = {f"appliance.{old}": f"appliance.{new}" for old, new in {
    "core.events.dispatch_outbox": "core.tasks.dispatch_outbox",
    "core.events.sweep_outbox": "core.tasks.sweep_outbox",
    "bots.runner.run_due_turns": "bots.tasks.run_due_turns",
    "bots.runner.resume_ai_jobs": "bots.tasks.resume_ai_jobs",
    "bots.runner.run_due_sweep": "bots.tasks.run_due_sweep",
    "broadcasts.runner.run_broadcasts": "broadcasts.tasks.run_broadcasts",
    "broadcasts.runner.broadcasts_minute_check": "broadcasts.tasks.broadcasts_minute_check",
    "outbound_webhooks.sender.deliver_webhooks": "outbound_webhooks.tasks.deliver_webhooks",
    "outbound_webhooks.sender.webhooks_minute_check": "outbound_webhooks.tasks.webhooks_minute_check",
    "outbound_webhooks.unanswered.unanswered_minute_check": "outbound_webhooks.tasks.unanswered_minute_check",
    "push.delivery.push_to_users": "push.tasks.push_to_users",
    "surveys.sender.send_due_surveys": "surveys.tasks.send_due_surveys",
    "surveys.sender.send_due_surveys_every_minute": "surveys.tasks.send_due_surveys_every_minute",
    "agenda.sync.push_appointments": "agenda.tasks.push_appointments",
    "agenda.sync.push_appointments_every_minute": "agenda.tasks.push_appointments_every_minute",
    "shift_reminders.reminders.shift_reminders_minute_check": "shift_reminders.tasks.shift_reminders_minute_check",
    "wabas.quality.refresh_quality": "wabas.tasks.refresh_quality",
}.items()}


class _Registry(Registry):
    def string_to_task(self, task_str):
        return super().string_to_task(MOVED_TASKS.get(task_str, task_str))


class Lane(Huey):
    """A lane of the queue: Huey, whose registry also knows the tasks by the names they had before
    they moved (MOVED_TASKS)."""

    sqlite_storage: type = PysqliteStorage
    postgres_storage: type = PostgresQueueStorage

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._registry = _Registry()


class SlowLane(Lane):
    """The lane of slow work, served fairly between organizations (the module's docstring). The
    counts of running tasks are this process's: the lane's workers are its threads (so where several
    processes share a PostgreSQL queue, an organization may run `per_organization` in each)."""

    per_organization = 1
    sqlite_storage = LaneStorage
    postgres_storage = PostgresLaneStorage

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._lock = threading.Lock()
        self._running: Counter[str] = Counter()
        self._claimed: dict[str, str] = {}  # task id -> organization, while it runs
        self._last_served: dict[str, int] = {}
        self._turns = itertools.count()

    def create_storage(self):
        storage = super().create_storage()
        storage.lane = self
        return storage

    def organization_of(self, data: bytes) -> str:
        args = self.serializer.deserialize(data).args
        return str(args[0]) if args else "-"

    def dequeue(self):
        if self._immediate:
            return None
        with self._lock:
            waiting = self.storage.waiting_lines()
            ready = sorted((key for key in waiting if self._running[key] < self.per_organization),
                           key=lambda key: (self._last_served.get(key, -1), key))
            for key in ready:
                data = self.storage.pop(key)
                if data is None:
                    continue
                task = self.deserialize_task(data)
                self._running[key] += 1
                self._claimed[task.id] = key
                self._last_served[key] = next(self._turns)
                return task
        return None

    def execute(self, task, timestamp=None):
        try:
            return super().execute(task, timestamp)
        finally:
            with self._lock:
                key = self._claimed.pop(task.id, None)
                if key is not None:
                    self._running[key] -= 1
                    if self._running[key] <= 0:
                        del self._running[key]


# Created in immediate (in-memory) mode; `configure` points them at queue.db or PostgreSQL at start-up.
huey = Lane("appliance", results=False, immediate=True, storage_class=Lane.sqlite_storage, utc=True)
slow = SlowLane("appliance-slow", results=False, immediate=True, storage_class=SlowLane.sqlite_storage, utc=True)
LANES = (huey, slow)


_failed = {"count": 0}  # tasks that raised since the process started, both lanes (/installation/status)


def _count_failure(signal, task, exc=None):
    _failed["count"] += 1


for _lane in LANES:
    _lane.signal(SIGNAL_ERROR)(_count_failure)


def counts() -> dict:
    """What waits in both lanes, and how many tasks failed since the start."""
    return {"waiting": sum(lane.pending_count() for lane in LANES), "failed": _failed["count"]}


def configure(path: Path | None, *, immediate: bool, database: Path | str | None = None) -> None:
    """Point the queue at the database when it is PostgreSQL (the processes sharing it share the
    queue: core/queue_postgres.py), else at the file `path`; or keep it in memory and run tasks
    inline when immediate."""
    on_postgres = not immediate and database is not None and postgres_engine.is_url(database)
    for lane in LANES:
        lane.storage.close()  # (what it held: a file, or a PostgreSQL connection)
        if on_postgres:
            lane.storage_class = lane.postgres_storage
            lane.storage_kwargs = {"url": str(database)}
        else:
            lane.storage_class = lane.sqlite_storage
            lane.storage_kwargs = {"filename": str(path)} if path else {}
        lane._immediate = immediate
        lane.storage = lane.create_storage()


def on_postgres() -> bool:
    """Whether the queue is PostgreSQL's, shared by the processes of the installation (its tasks may
    run in another process than the one that queued them)."""
    return huey.storage_class is huey.postgres_storage


def ping() -> None:
    """Read the queue store; raises when it is unusable (queue.db, or PostgreSQL out of reach)."""
    huey.storage.queue_size()


def enqueue_after_commit(session: Session, task, *args) -> None:
    """Enqueue `task(*args)` once the session commits, so the task sees the committed rows."""
    after_commit(session, lambda: task(*args))


class InProcessConsumer(Consumer):
    """Huey's consumer as threads of the server process; the server owns the signals."""

    def _set_signal_handlers(self):
        pass


def make_consumer(workers: int) -> InProcessConsumer:
    return InProcessConsumer(huey, workers=workers, worker_type="thread", periodic=True,
                             initial_delay=0.1, backoff=1.15, max_delay=0.5,
                             check_worker_health=True)


def make_slow_consumer(workers: int, *, per_organization: int) -> InProcessConsumer:
    """The slow lane's workers (no periodic tasks of its own; its scheduler runs its delayed tasks)."""
    slow.per_organization = max(1, per_organization)
    return InProcessConsumer(slow, workers=max(1, workers), worker_type="thread", periodic=False,
                             initial_delay=0.1, backoff=1.15, max_delay=0.5,
                             check_worker_health=True)
