"""The task queue: Huey on its own SQLite file (queue.db), through pysqlite3 like the database.

The consumer runs inside the server process (see appliance/server.py). Tasks take ids, re-read
state, and are safe to run twice. Tests switch the queue to immediate mode.
"""

from __future__ import annotations

from pathlib import Path

import pysqlite3.dbapi2 as sqlite
from huey import Huey
from huey.consumer import Consumer
from huey.storage import SqliteStorage
from sqlmodel import Session

from appliance.core.db import after_commit


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


# Created in immediate (in-memory) mode; `configure` points it at queue.db at start-up.
huey = Huey("appliance", results=False, immediate=True, storage_class=PysqliteStorage,
            utc=True)


def configure(path: Path | None, *, immediate: bool) -> None:
    """Point the queue at `path` (or keep it in memory and run tasks inline when immediate)."""
    huey.storage_kwargs = {"filename": str(path)} if path else {}
    huey._immediate = immediate
    huey.storage = huey.create_storage()


def ping() -> None:
    """Read the queue store; raises when queue.db is unusable."""
    if isinstance(huey.storage, PysqliteStorage):
        huey.storage.sql("SELECT count(*) FROM task", results=True)
    else:
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
