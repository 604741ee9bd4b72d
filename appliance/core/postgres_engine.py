"""PostgreSQL, the engine past one machine (`APPLIANCE_DATABASE_URL=postgresql://...`): its
connections, writers' lock, hot readers and start-up checks, as sqlite_engine.py is SQLite's.

psycopg 3 underneath SQLAlchemy. Three choices keep every unit of work meaning what it means on
SQLite, so no domain needs to know which engine it runs on (docs/architecture.md, "Two engines"):

- **One writer at a time, across every process.** A writing unit's transaction begins by taking a
  transaction-scoped advisory lock (`pg_advisory_xact_lock`), as SQLite's BEGIN IMMEDIATE takes its
  write lock: a read-then-write (the next index rowid, a counter, a claim) stays safe when several
  processes share the database. Readers never wait for it (MVCC). The lock waits at most
  `WRITE_WAIT_SECONDS`, then fails as SQLite's busy lock does (503 `storage_busy`).
- **Reading units cannot write**: their connections open every transaction read-only.
- **The driver's statements keep SQLite's `?` placeholders**: the hot paths write their SQL once
  (`rows.py`, the indexes), and `QmarkConnection` turns `?` into psycopg's `%s` (once per
  statement text, cached).
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache
from urllib.parse import urlsplit

import psycopg
from psycopg import errors as pg_errors
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine

from appliance.core.errors import StartupError

log = logging.getLogger(__name__)

NAME = "postgresql"
MIN_SERVER = 160000  # PostgreSQL 16
EXTENSIONS = ("vector", "unaccent", "pg_trgm")  # pgvector: knowledge vectors; unaccent: words; pg_trgm: contacts
WRITE_WAIT_SECONDS = 5.0
# What a transaction that emitted events notifies at its commit (core/commit_listener.py).
EVENTS_CHANNEL = "appliance_events"
CONNECT_TIMEOUT_SECONDS = 5
WRITE_POOL = 4  # connections of a process's writers (one writes at a time across processes)
OVERFLOW = 8  # connections either pool may open beyond its size under a burst, closed after
# The one advisory lock of the writers (an arbitrary constant: "appl" in ASCII).
WRITERS_LOCK = 0x6170706C


def is_url(location) -> bool:
    return str(location).startswith(("postgresql://", "postgres://", "postgresql+psycopg://"))


def libpq_url(url: str) -> str:
    """The URL as libpq reads it (SQLAlchemy's driver suffix removed)."""
    return "postgresql://" + url.split("://", 1)[1]


def _sqlalchemy_url(url: str) -> str:
    return "postgresql+psycopg://" + url.split("://", 1)[1]


def describe(url: str) -> str:
    """Where the database is, for messages: host, port and database, never the password."""
    parts = urlsplit(libpq_url(url))
    host = parts.hostname or "the local socket"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}/{parts.path.lstrip('/') or '(default database)'}"


def _options(*, read_only: bool) -> str:
    options = ["-c timezone=UTC", f"-c lock_timeout={int(WRITE_WAIT_SECONDS * 1000)}"]
    if read_only:
        options.append("-c default_transaction_read_only=on")
    return " ".join(options)


@lru_cache(maxsize=4096)
def to_format_style(sql: str) -> str:
    """SQLite's `?` placeholders as psycopg's `%s` (a literal `%` doubled), outside quoted text."""
    out, quote = [], None
    for char in sql:
        if quote:
            if char == quote:
                quote = None
            out.append("%%" if char == "%" else char)
        elif char in ("'", '"'):
            quote = char
            out.append(char)
        elif char == "?":
            out.append("%s")
        elif char == "%":
            out.append("%%")
        else:
            out.append(char)
    return "".join(out)


class QmarkConnection:
    """A psycopg connection that takes the statements written for SQLite's driver: `?`
    placeholders, and `executemany` on the connection answering a cursor (with `rowcount`)."""

    __slots__ = ("raw",)

    def __init__(self, raw: psycopg.Connection):
        self.raw = raw

    def execute(self, sql: str, params=()):
        return self.raw.execute(to_format_style(sql), params)

    def executemany(self, sql: str, params_seq):
        cursor = self.raw.cursor()
        cursor.executemany(to_format_style(sql), list(params_seq))
        return cursor

    def cursor(self):
        return self.raw.cursor()

    def __getattr__(self, name):
        return getattr(self.raw, name)


def connect(url: str, *, read_only: bool = False, application_name: str = "appliance") -> psycopg.Connection:
    """A connection of its own, in autocommit, outside the pools (hot readers, the workers' lease)."""
    return psycopg.connect(libpq_url(url), autocommit=True, options=_options(read_only=read_only),
                           connect_timeout=CONNECT_TIMEOUT_SECONDS, application_name=application_name)


def _remember_wrapper(dbapi_connection, record) -> None:
    record.info["driver"] = QmarkConnection(dbapi_connection)


def _take_writers_lock(conn) -> None:
    # The statement opens the transaction and holds the lock until it commits or rolls back.
    conn.connection.driver_connection.execute("SELECT pg_advisory_xact_lock(%s)", (WRITERS_LOCK,))


def make_engine(url: str, *, write: bool, pool_size: int = 5) -> Engine:
    """An engine whose transactions all write (one writer at a time across processes) or all only
    read (read-only transactions)."""
    engine = create_engine(
        _sqlalchemy_url(url),
        connect_args={"options": _options(read_only=not write), "connect_timeout": CONNECT_TIMEOUT_SECONDS},
        # Writers take turns anyway (the advisory lock): a few connections are all they can use.
        pool_size=WRITE_POOL if write else pool_size,
        max_overflow=OVERFLOW,
        # A server that restarted left the pool's connections dead: the first statement on one
        # fails (that request answers 503) and SQLAlchemy drops the whole pool, so the next
        # requests connect afresh. Checking every checkout would cost a round trip a request.
        pool_pre_ping=False,
    )
    event.listen(engine, "connect", _remember_wrapper)
    if write:
        event.listen(engine, "begin", _take_writers_lock)
    return engine


def ping(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.exec_driver_sql("SELECT 1").fetchone()


def facts(connection, _path=None) -> dict:
    """The database's engine, size and the server's version, for the installation's status."""
    size, version = connection.exec_driver_sql(
        "SELECT pg_database_size(current_database()), current_setting('server_version')").one()
    return {"engine": NAME, "size_bytes": size, "postgresql_version": version}


def is_busy(driver_error: BaseException) -> bool:
    """The writers' lock (or another lock) waited out its time, or the server chose this
    transaction to undo (a deadlock, a serialization failure): the request may be tried again."""
    if isinstance(driver_error, (pg_errors.LockNotAvailable, pg_errors.QueryCanceled)):
        return True
    return isinstance(driver_error, psycopg.Error) and (sqlstate(driver_error) or "").startswith("40")


# SQLSTATE classes and codes that mean the server is not there for us right now: 08 the connection
# (refused, cut), 57P01-57P03 an operator or a crash ended it or it is starting, 53300 it is full.
_UNREACHABLE_CLASSES = ("08",)
_UNREACHABLE_CODES = ("57P01", "57P02", "57P03", "53300")


def is_unreachable(driver_error: BaseException) -> bool:
    """The server went away or cannot be reached (restarting, network, full): a 503 until it is
    back. A connection that failed before the server said anything has no SQLSTATE at all. Other
    operational errors (out of memory, disk full) are not this: they are logged as faults."""
    if not isinstance(driver_error, psycopg.OperationalError) or is_busy(driver_error):
        return False
    state = sqlstate(driver_error)
    return state is None or state.startswith(_UNREACHABLE_CLASSES) or state in _UNREACHABLE_CODES


def sqlstate(driver_error: BaseException) -> str | None:
    """The five-character SQLSTATE the server answered with, if it answered (for logs)."""
    return getattr(driver_error, "sqlstate", None)


class ThreadReaders:
    """One long-lived read-only connection per thread, in autocommit, for hot-path reads: what
    sqlite_engine.ThreadReaders is for SQLite. A connection the server dropped is replaced on the
    next use."""

    def __init__(self, url: str):
        self._url = url
        self._local = threading.local()
        self._all: list = []
        self._lock = threading.Lock()

    def connection(self) -> QmarkConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None or connection.raw.closed or connection.raw.broken:
            connection = QmarkConnection(connect(self._url, read_only=True, application_name="appliance reader"))
            self._local.connection = connection
            with self._lock:
                self._all = [c for c in self._all if not c.raw.closed] + [connection]
        return connection

    def close(self) -> None:
        with self._lock:
            for connection in self._all:
                connection.raw.close()
            self._all.clear()
        self._local = threading.local()


def check_runtime(url: str, threads: int = 8) -> tuple[str, list[str]]:
    """(server version, extensions it offers) or StartupError saying what is wrong, in words; a
    warning when the server has fewer free connections than a process of `threads` may open."""
    where = describe(url)
    try:
        with psycopg.connect(libpq_url(url), connect_timeout=CONNECT_TIMEOUT_SECONDS, autocommit=True) as connection:
            number = connection.info.server_version
            version = connection.execute("SHOW server_version").fetchone()[0]
            offered = {name for name, in connection.execute(
                "SELECT name FROM pg_available_extensions WHERE name = ANY(%s)", (list(EXTENSIONS),))}
            room = connection.execute("SELECT current_setting('max_connections')::int - "
                                      "(SELECT count(*) FROM pg_stat_activity)").fetchone()[0]
    except psycopg.OperationalError as exc:
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise StartupError(f"PostgreSQL at {where} could not be reached ({reason}). Check that the server runs "
                           "and that APPLIANCE_DATABASE_URL names its host, port, database, user and password.") from exc
    if number < MIN_SERVER:
        raise StartupError(f"PostgreSQL {version} at {where} is too old: the appliance needs PostgreSQL 16 or newer.")
    missing = [name for name in EXTENSIONS if name not in offered]
    if missing:
        raise StartupError(f"PostgreSQL at {where} lacks the extension(s) {', '.join(missing)}: install them "
                           "(pgvector's package, e.g. postgresql-16-pgvector, and the contrib package) and start again.")
    if room < connections_needed(threads):
        log.warning("PostgreSQL at %s has room for %d more connections; this process may open up to %d "
                    "(APPLIANCE_THREADS=%d). Raise max_connections or lower APPLIANCE_THREADS "
                    "(docs/postgresql.md, \"Connections\").", where, room, connections_needed(threads), threads)
    return version, sorted(offered)


def connections_needed(threads: int) -> int:
    """The most connections one process opens: a hot reader per thread that reads (the request
    threads and ~16 workers'), the read pool (pool and overflow) and the write pool, plus the
    workers' lease, the commit listener and the queue's."""
    return threads + 16 + (read_pool_size(threads) + OVERFLOW) + (WRITE_POOL + OVERFLOW) + 4


def read_pool_size(threads: int) -> int:
    return max(5, threads)
