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
- Periodic tasks are enqueued by one scheduler because one process consumes the queue: the one
  holding the workers' lease (core/worker_lease.py), whose workers include the consumers.
- The statements of the slow lane's lines (`_take`, `_lines_sql`, queue.LaneLines).
"""

from __future__ import annotations

import functools
import logging

import psycopg
from huey.storage import PostgresStorage

from appliance.core.postgres_engine import CONNECT_TIMEOUT_SECONDS, libpq_url, to_format_style

log = logging.getLogger(__name__)

TABLE_PREFIX = "queue"
TABLES = tuple(f"{TABLE_PREFIX}_{kind}" for kind in ("task", "schedule", "kv", "counter"))
# The advisory lock of the schema's creation, in the two-key space (the writers' lock,
# postgres_engine, is a one-key lock: they never meet). Key: "apqs" in ASCII.
SCHEMA_LOCK = (0x61707173, 0)


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


# Every call that talks to the server, made once more on a dropped connection. (Huey's own methods
# that call these, `delete_data` and `flush_all`, are covered through them.)
for _name in ("enqueue", "_take", "_lines_sql", "queue_size", "enqueued_items", "flush_queue",
              "add_to_schedule", "read_schedule", "schedule_size", "scheduled_items", "flush_schedule",
              "put_data", "peek_data", "peek_many", "pop_data", "has_data_for_key", "put_if_empty",
              "incr", "delete_counter", "result_store_size", "result_items", "flush_results", "flush_counters"):
    setattr(PostgresQueueStorage, _name, once_more_if_dropped(getattr(PostgresQueueStorage, _name)))
