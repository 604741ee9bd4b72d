"""SQLite storage: the engine, its pragmas, and the unit of work.

Every connection is pysqlite3 (a bundled, recent SQLite) with sqlite-vec loaded, WAL, a busy
timeout and foreign keys on. We issue BEGIN ourselves (the driver's implicit transactions are
turned off) so that a writing unit of work starts with BEGIN IMMEDIATE: it takes the write lock
up front instead of failing half-way with SQLITE_BUSY on a lock upgrade. Documented in
docs/architecture.md.
"""

from __future__ import annotations

import json
import logging
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Callable, Iterator

import pysqlite3.dbapi2 as sqlite
import sqlite_vec
from sqlalchemy import JSON, Boolean, Table, create_engine, event, types
from sqlalchemy.engine import Engine
from sqlmodel import Session

log = logging.getLogger(__name__)

MIN_SQLITE = (3, 51, 3)  # 3.51.3 fixed the WAL-reset corruption bug
_PRAGMAS = (
    "journal_mode=WAL",
    "busy_timeout=5000",
    "foreign_keys=ON",
    # FULL: a committed transaction survives power loss too, not only a process crash.
    "synchronous=FULL",
)


class StartupError(Exception):
    """The runtime cannot work on this machine; the message says what to do."""


def check_sqlite_runtime(version: str = sqlite.sqlite_version) -> tuple[str, str]:
    """Return (sqlite version, sqlite-vec version), or raise StartupError with a clear message."""
    parts = tuple(int(p) for p in version.split(".")[:3])
    if parts < MIN_SQLITE:
        need = ".".join(map(str, MIN_SQLITE))
        raise StartupError(
            f"SQLite {version} is too old: the appliance needs {need} or newer "
            "(older versions can corrupt a WAL database). Reinstall the pysqlite3 package.")
    conn = sqlite.connect(":memory:")
    try:
        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        (vec_version,) = conn.execute("select vec_version()").fetchone()
    except Exception as exc:  # any failure here means vector search cannot work
        raise StartupError(f"the sqlite-vec extension could not be loaded ({exc}). "
                           "Reinstall the sqlite-vec package.") from exc
    finally:
        conn.close()
    return version, vec_version


class UTCDateTime(types.TypeDecorator):
    """Aware UTC datetimes in, aware UTC datetimes out (SQLite itself stores naive text)."""

    impl = types.DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTCDateTime column")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect):
        return value.replace(tzinfo=timezone.utc) if value is not None else None


def _on_connect(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None  # we emit BEGIN in _on_begin
    dbapi_conn.enable_load_extension(True)
    sqlite_vec.load(dbapi_conn)
    dbapi_conn.enable_load_extension(False)
    cursor = dbapi_conn.cursor()
    for pragma in _PRAGMAS:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _on_begin(conn) -> None:
    # Straight to the driver: through exec_driver_sql these cost ~0.1 ms a request.
    driver = conn.connection.driver_connection
    if conn.get_execution_options().get("write"):
        driver.execute("PRAGMA query_only=OFF")
        driver.execute("BEGIN IMMEDIATE")
    else:
        # Reading units end by closing, not committing: query_only makes a stray write fail
        # loudly instead of being rolled back unnoticed.
        driver.execute("PRAGMA query_only=ON")
        driver.execute("BEGIN")


def make_engine(path: Path | str, *, pool_size: int = 5) -> Engine:
    engine = create_engine(
        f"sqlite:///{path}",
        module=sqlite,
        connect_args={"check_same_thread": False},
        pool_size=pool_size,
        max_overflow=8,
        pool_pre_ping=False,
    )
    event.listen(engine, "connect", _on_connect)
    event.listen(engine, "begin", _on_begin)
    return engine


Hook = Callable[[], None]
IndependentWork = Callable[[Session], None]


class UnitOfWork:
    """One transaction: opened at a boundary (a request, a task), committed or rolled back there.

    Services only flush. Two kinds of follow-up work can be attached to the session:
    `after_commit` hooks run once the change is durable (enqueue tasks, wake dispatchers), and
    `run_after` work runs in its own transaction whether this one committed or not (a failed
    login must be counted even though the request fails).
    """

    def __init__(self, database: "Database", *, write: bool):
        self.database = database
        self.write = write
        self.session = Session(bind=database.writer if write else database.engine,
                               expire_on_commit=False)
        self.session.info["after_commit"] = []
        self.session.info["run_after"] = []
        self._done = False

    def commit(self) -> None:
        if self._done:
            return
        try:
            if self.write:
                self.session.commit()
            # A reading unit has nothing to commit: closing ends its read transaction (the pool
            # rolls back on return), at a fraction of the cost of the session's commit.
        except BaseException:
            self.rollback()
            raise
        hooks = self._close()
        for hook in hooks["after_commit"]:
            _run_hook(hook)
        self._run_independent(hooks["run_after"])

    def rollback(self) -> None:
        if self._done:
            return
        self.session.rollback()
        hooks = self._close()
        self._run_independent(hooks["run_after"])

    def _close(self) -> dict:
        hooks = {k: list(self.session.info.get(k, ())) for k in ("after_commit", "run_after")}
        self.session.close()
        self._done = True
        return hooks

    def _run_independent(self, work: list[IndependentWork]) -> None:
        if not work:
            return
        try:
            with self.database.unit_of_work(write=True) as session:
                for item in work:
                    item(session)
        except Exception:
            log.exception("independent follow-up work failed")


def _run_hook(hook: Hook) -> None:
    try:
        hook()
    except Exception:  # the change is committed; a failing hook must not turn it into an error
        log.exception("after-commit hook failed")


def after_commit(session: Session, hook: Hook) -> None:
    """Run `hook` after the session's transaction commits; never if it rolls back."""
    session.info.setdefault("after_commit", []).append(hook)


def run_after(session: Session, work: IndependentWork) -> None:
    """Run `work(session)` in its own transaction after this one ends, committed or not."""
    session.info.setdefault("run_after", []).append(work)


class Database:
    def __init__(self, path: Path | str, *, pool_size: int = 5):
        self.path = Path(path)
        self.engine = make_engine(path, pool_size=pool_size)
        self.writer = self.engine.execution_options(write=True)

    def begin(self, *, write: bool) -> UnitOfWork:
        return UnitOfWork(self, write=write)

    @contextmanager
    def unit_of_work(self, *, write: bool) -> Iterator[Session]:
        uow = self.begin(write=write)
        try:
            yield uow.session
        except BaseException:
            uow.rollback()
            raise
        uow.commit()

    def ping(self) -> None:
        """Touch the database file itself (not only the pool) so a broken file shows."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT count(*) FROM sqlite_schema").fetchone()

    def dispose(self) -> None:
        self.engine.dispose()


# Hot-path reads. The ORM costs ~0.7 ms to load one row on these machines, the driver ~0.02 ms;
# code that runs on every request (authentication, the tenant record) reads through here.

@cache
def _row_reader(table: Table, key_columns: tuple[str, ...]):
    columns = list(table.columns)
    where = " AND ".join(f"{table.columns[k].name} = ?" for k in key_columns)
    sql = f"SELECT {', '.join(c.name for c in columns)} FROM {table.name} WHERE {where}"
    converters = []
    for column in columns:
        if isinstance(column.type, UTCDateTime):
            converters.append(_utc_from_text)
        elif isinstance(column.type, JSON):
            converters.append(lambda v: json.loads(v) if isinstance(v, str) else v)
        elif isinstance(column.type, Boolean):
            converters.append(lambda v: None if v is None else bool(v))
        else:
            converters.append(None)
    names = [c.key for c in columns]
    return sql, names, converters


def _utc_from_text(value):
    if value is None or isinstance(value, datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=timezone.utc)
    return datetime.fromisoformat(value).replace(tzinfo=timezone.utc)


def read_row(session: Session, table: Table, **keys) -> SimpleNamespace | None:
    """One row by unique column values (`id=...`, or `organization_id=..., user_id=...`), in the
    session's transaction, as plain attributes.

    A read-only snapshot, remembered for the rest of the unit of work (authorization and the view
    often need the same tenant row): code that changes a row loads it through the ORM instead.
    """
    remembered = session.info.setdefault("read_rows", {})
    cache_key = (table.name, tuple(sorted(keys.items())))
    if cache_key not in remembered:
        remembered[cache_key] = _read_row(session, table, keys)
    return remembered[cache_key]


def _read_row(session: Session, table: Table, keys: dict) -> SimpleNamespace | None:
    key_columns = tuple(sorted(keys))
    sql, names, converters = _row_reader(table, key_columns)
    cursor = session.connection().connection.driver_connection.cursor()
    try:
        row = cursor.execute(sql, tuple(keys[k] for k in key_columns)).fetchone()
    finally:
        cursor.close()
    if row is None:
        return None
    return SimpleNamespace(**{name: (convert(value) if convert and value is not None else value)
                              for name, convert, value in zip(names, converters, row, strict=True)})
