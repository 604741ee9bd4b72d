"""The task queue on PostgreSQL: Huey's storage in the appliance's own database, shared by every
process of the installation (core/queue.py defines the lanes; this is where their rows live when
the database is PostgreSQL, as queue.db holds them on SQLite).

Huey's own `PostgresStorage` (huey 3.5) underneath, with its tables named `queue_task`,
`queue_schedule`, `queue_kv` and `queue_counter`. They are Huey's, not models: the storage creates
them at start (alembic's comparison skips them, appliance/migrations). A worker takes a task with
one statement that skips rows another process is taking (`FOR UPDATE SKIP LOCKED`), so no two
processes ever run the same task; due scheduled tasks are claimed the same way. What this module
adds to Huey's:

- **Polling, no LISTEN**: the workers poll as on queue.db (every 0.1-0.5 s), so a worker thread
  holds no connection of its own and `enqueue` sends no NOTIFY nobody hears.
- **A dropped connection is replaced within the call**: each storage holds one autocommit
  connection behind a lock (Huey's); after the server restarted, or a connection was ended, the
  next statement fails on it, and the call is made once more on a new connection instead of
  failing a request's enqueue or logging a worker's traceback.
- **One scheduler enqueues the periodic tasks** (`leads_periodic`): see there.
- The statements of the slow lane's lines (`_take`, `_lines_sql`, queue.LaneLines).
"""

from __future__ import annotations

import functools
import logging
import threading
import zlib

import psycopg
from huey.storage import PostgresStorage

from appliance.core.postgres_engine import CONNECT_TIMEOUT_SECONDS, libpq_url, to_format_style

log = logging.getLogger(__name__)

TABLE_PREFIX = "queue"
TABLES = tuple(f"{TABLE_PREFIX}_{kind}" for kind in ("task", "schedule", "kv", "counter"))
# Advisory locks of the queue, in the two-key space (the writers' lock, postgres_engine, is a
# one-key lock: they never meet). Keys: "apqs" and "apqp" in ASCII.
SCHEMA_LOCK = (0x61707173, 0)
PERIODIC_LOCK_CLASS = 0x61707170


def _dropped(storage: "PostgresQueueStorage") -> bool:
    conn = storage._conn
    return conn is not None and (conn.closed or conn.broken)


def once_more_if_dropped(method):
    """Make the call once more when it failed because the connection was dead (the next call
    connects afresh: Huey's `conn`). A statement the server may have run before the connection
    died runs at most twice: a task enqueued twice runs twice, which tasks are written to bear."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except psycopg.OperationalError as exc:
            if not _dropped(self):
                raise
            log.info("the queue's connection to PostgreSQL was dropped (%s); connecting again",
                     str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
            return method(self, *args, **kwargs)

    return call


class PostgresQueueStorage(PostgresStorage):
    """A lane's rows in PostgreSQL (the module's docstring)."""

    def __init__(self, name: str = "huey", url: str = "", **kwargs):
        super().__init__(name, dsn=libpq_url(url), blocking=False, table_prefix=TABLE_PREFIX,
                         connect_timeout=CONNECT_TIMEOUT_SECONDS, application_name="appliance-queue", **kwargs)
        self._leader_lock = threading.Lock()
        self._leader: psycopg.Connection | None = None
        self._leading = False

    def initialize_schema(self):
        # Several processes starting on a new database would race on CREATE TABLE IF NOT EXISTS
        # (one fails on the catalog's unique index): they take turns. The `queue` column compares
        # byte by byte whatever the database's locale: the slow lane finds its lines as a range
        # (`queue > 'lane:' AND queue < 'lane;'`), which a locale ignoring punctuation breaks.
        with self.db(commit=True, close=True) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", SCHEMA_LOCK)
            for statement in self.ddl:
                cursor.execute(statement.replace("queue text not null", 'queue text COLLATE "C" not null'))

    @staticmethod
    def to_blob(data: bytes) -> bytes:
        return data

    def _take(self, queue: str) -> bytes | None:
        """The first task of the `queue` column's value (priority, then age), taken off in one
        statement; a row another process is taking is skipped, never waited for nor taken twice."""
        with self.db() as cursor:
            cursor.execute(f"DELETE FROM {self.table_task} WHERE id = ("
                           f"SELECT id FROM {self.table_task} WHERE queue = %s ORDER BY priority DESC, id "
                           "LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING data", (queue,))
            row = cursor.fetchone()
        return bytes(row[0]) if row is not None else None

    def _lines_sql(self, sql: str, params=(), *, results: bool = False):
        """A statement of the slow lane's lines (queue.LaneLines), written once for both engines:
        `?` placeholders, `{task}` for the tasks' table."""
        return self.sql(to_format_style(sql.format(task=self.table_task)), params, results=results)

    def dequeue(self):
        return self._take(self.name)

    def enqueue(self, data, priority=None):
        # Huey's also NOTIFYs the listeners of a blocking dequeue; the workers poll instead.
        self.sql(f"INSERT INTO {self.table_task} (queue, data, priority) VALUES (%s, %s, %s)",
                 (self.name, data, priority or 0))

    def leads_periodic(self) -> bool:
        """Whether this process's scheduler enqueues the lane's periodic tasks this minute.

        Every process's consumer runs Huey's scheduler, which enqueues each periodic task due this
        minute: with several processes each would be enqueued once per process. The scheduler that
        holds a session-level advisory lock (one per lane) is the only one that does; it keeps the
        lock on a connection of its own for as long as it lives, the others try again each minute.
        The lock dies with its session, so when the leading process stops or dies (or its
        connection drops), another one's next try takes over within a minute. (At a hand-over a
        minute's tasks may be enqueued twice or skipped once: they are checks that look at what is
        due, and safe to run twice.)"""
        with self._leader_lock:
            try:
                self._leading = self._hold_periodic_lock()
            except psycopg.OperationalError:
                log.warning("the queue could not reach PostgreSQL to lead the periodic tasks; trying again in a minute")
                self._leading = False
            return self._leading

    def _hold_periodic_lock(self) -> bool:
        for attempt in (1, 2):
            if self._leader is None or self._leader.closed or self._leader.broken:
                if self._leader is not None:
                    self._close_quiet(self._leader)
                self._leader, self._leading = None, False
                self._leader = self._connect()
            try:
                if self._leading:
                    self._leader.execute("SELECT 1")  # the session lives, and with it the lock
                    return True
                key = zlib.crc32(self.name.encode()) - 2**31  # the lane's key, as a signed int4
                return bool(self._leader.execute("SELECT pg_try_advisory_lock(%s, %s)",
                                                 (PERIODIC_LOCK_CLASS, key)).fetchone()[0])
            except psycopg.OperationalError:
                if attempt == 2 or not self._leader.broken:
                    raise  # (a session that died is replaced once, on the second attempt)
        return False

    def release_periodic(self) -> None:
        """Give the periodic tasks up (the scheduler stops): another process's next try takes them."""
        with self._leader_lock:
            if self._leader is not None:
                try:  # at once: the server ends a closed session's locks only once it has noticed
                    if self._leading:
                        self._leader.execute("SELECT pg_advisory_unlock_all()")
                except psycopg.Error:
                    pass
                self._close_quiet(self._leader)
            self._leader, self._leading = None, False

    def close(self):
        self.release_periodic()
        return super().close()


# Every call that talks to the server, made once more on a dropped connection. (Huey's own methods
# that call these, `delete_data` and `flush_all`, are covered through them.)
for _name in ("enqueue", "_take", "_lines_sql", "queue_size", "enqueued_items", "flush_queue",
              "add_to_schedule", "read_schedule", "schedule_size", "scheduled_items", "flush_schedule",
              "put_data", "peek_data", "peek_many", "pop_data", "has_data_for_key", "put_if_empty",
              "incr", "delete_counter", "result_store_size", "result_items", "flush_results", "flush_counters"):
    setattr(PostgresQueueStorage, _name, once_more_if_dropped(getattr(PostgresQueueStorage, _name)))
