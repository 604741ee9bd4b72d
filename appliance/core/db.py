"""Storage: the database of either engine and the unit of work.

SQLite is the default (sqlite_engine.py); PostgreSQL when APPLIANCE_DATABASE_URL names one
(postgres_engine.py). Both give the same three things: an engine whose transactions write (one
writer at a time), an engine whose transactions only read, and a read-only connection per thread
for hot-path reads (rows.py). The unit of work below is the same on both. Documented in
docs/architecture.md ("Two engines").
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

from sqlalchemy import text, types
from sqlmodel import Session

from appliance.core import postgres_engine, sqlite_engine
from appliance.core.errors import StartupError

log = logging.getLogger(__name__)

__all__ = ["Database", "StartupError", "UTCDateTime", "UnitOfWork", "after_commit", "run_after"]


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



Hook = Callable[[], None]
IndependentWork = Callable[[Session], None]


def partial(condition: str) -> dict:
    """An index's condition, the same on both engines: `Index(name, *columns, **partial("x IS NOT
    NULL"))`. (SQLAlchemy takes it per dialect; said for one only, the other indexes every row.)"""
    return {"sqlite_where": text(condition), "postgresql_where": text(condition)}


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
        # Both sessions begin on first use: a request that fails validation never takes the
        # write lock, and a read that only needs hot rows never builds an ORM transaction.
        # A reading unit never autoflushes: a read that changes a loaded row in memory (a total
        # drawn up to now, say) would otherwise be written by the next query, and fail on the
        # query_only connection as a 500, only when the value differed ("now and then"). A
        # service's explicit flush still fails loudly there.
        self.session = Session(bind=database.writer if write else database.engine,
                               expire_on_commit=False, autoflush=write)
        self.session.info["after_commit"] = []
        self.session.info["run_after"] = []
        if not write:
            self.session.info["hot_reader"] = database.readers.connection
        else:
            # Until a writing unit's transaction begins, its remembered reads (authentication,
            # the tenant's rows) use the thread's reader: the write lock is then taken by the
            # first statement that needs the transaction, not by the request's authentication.
            self.session.info["reader_before_begin"] = database.readers.connection
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
        session = self.session
        # A unit that only read hot rows never touched the ORM; closing an empty session still
        # walks its identity map and transaction machinery (~15 µs a request).
        if session.in_transaction() or session.identity_map or session.new:
            session.close()
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
    """The database at `location`: a SQLite file's path, or a PostgreSQL URL."""

    def __init__(self, location: Path | str, *, pool_size: int = 5):
        if postgres_engine.is_url(location):
            self.kind = postgres_engine
            self.url: str | None = str(location)
            self.path: Path | None = None
        else:
            self.kind = sqlite_engine
            self.url = None
            self.path = Path(location)
        self.dialect = self.kind.NAME
        # Two pools: connections that write and connections that only read never trade places,
        # so neither pays for switching read-only on every transaction.
        self.engine = self.kind.make_engine(location, write=False, pool_size=pool_size)
        self.writer = self.kind.make_engine(location, write=True, pool_size=pool_size)
        self.readers = self.kind.ThreadReaders(location)

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is a SQLite file (backups copy it, the checkpointer tends its WAL)."""
        return self.kind is sqlite_engine

    def describe(self) -> str:
        """Where the database is, for people: the file, or host, port and database (no password)."""
        return str(self.path) if self.path is not None else postgres_engine.describe(self.url)

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

    def facts(self, session: Session) -> dict:
        """Engine, size and version, read in the session's unit (the installation's status)."""
        return self.kind.facts(session.connection(), self.path)

    def ping(self) -> None:
        """Reach the database itself (not only the pool) so a broken file or a gone server shows."""
        self.kind.ping(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()
        self.writer.dispose()
        self.readers.close()
