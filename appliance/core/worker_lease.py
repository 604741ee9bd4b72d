"""Which process runs the background workers (worker_registry.py).

On SQLite one server holds the data directory (data_dir.hold), so its workers are the only ones.
On PostgreSQL several processes share the database (APPLIANCE_ROLE: `all`, `web`, `worker`), and
the workers run in one process at a time: the one holding the workers' advisory lock. It is a
session lock on a connection of its own, so it ends with the process however the process ends
(kill -9 included: the server sees the connection close), and a process standing by takes it over
within `LOOK_SECONDS`. The workers' start-up recovery ("what was in the air at the last stop was
cut short": sends, AI answers, documents being read, webhook attempts) stays true with several
processes, because the holder before is gone. Should the lock's connection break while the
workers run (the server restarted), the workers stop at once and the process stands by again:
two processes never run them together.
"""

from __future__ import annotations

import logging
import threading

import psycopg

from appliance.core import postgres_engine

log = logging.getLogger(__name__)

WORKERS_LOCK = 0x6170706D  # an arbitrary constant, apart from postgres_engine.WRITERS_LOCK
LOOK_SECONDS = 1.0
APPLICATION_NAME = "appliance workers lease"  # how the lease's session shows in pg_stat_activity


class WorkerLease:
    """`acquire(stop)` waits until this process may run the workers (at once on SQLite) or `stop`
    is set; `held()` says whether it still may; `release()` gives the lease back."""

    def __init__(self, database):
        self._url = None if database.is_sqlite else database.url
        self._connection = None

    @property
    def shared(self) -> bool:
        """Whether other processes may be waiting for the lease (PostgreSQL)."""
        return self._url is not None

    def acquire(self, stop: threading.Event) -> bool:
        if self._url is None:
            return True
        said = False
        while not stop.is_set():
            if self._try():
                log.info("this process runs the background workers")
                return True
            if not said:
                log.info("another process runs the background workers; standing by to take over")
                said = True
            stop.wait(LOOK_SECONDS)
        return False

    def _try(self) -> bool:
        try:
            if self._connection is None or self._connection.closed or self._connection.broken:
                self._connection = postgres_engine.connect(self._url, application_name=APPLICATION_NAME)
            (taken,) = self._connection.execute("SELECT pg_try_advisory_lock(%s)", (WORKERS_LOCK,)).fetchone()
            return bool(taken)
        except psycopg.Error as exc:
            log.warning("the workers' lease could not be asked for (%s); trying again", type(exc).__name__)
            self._drop()
            return False

    def held(self) -> bool:
        """Whether the lease is still this process's (its connection answers)."""
        if self._url is None:
            return True
        if self._connection is None:
            return False
        try:
            self._connection.execute("SELECT 1").fetchone()
            return True
        except psycopg.Error:
            self._drop()
            return False

    def release(self) -> None:
        self._drop()  # closing the session ends its locks

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:  # noqa: BLE001 -- already gone
                pass
