"""SQLite storage: the engine, its pragmas, and the unit of work.

Every connection is pysqlite3 (a bundled, recent SQLite) with sqlite-vec loaded, WAL, a busy
timeout and foreign keys on. We issue BEGIN ourselves (the driver's implicit transactions are
turned off) so that a writing unit of work starts with BEGIN IMMEDIATE: it takes the write lock
up front instead of failing half-way with SQLITE_BUSY on a lock upgrade. Documented in
docs/architecture.md.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Callable, Iterator

import pysqlite3.dbapi2 as sqlite
from sqlalchemy import create_engine, event, types
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
    # The server's checkpointer thread copies the WAL into the database every second, off the
    # request path; SQLite's own checkpoint in the committing request is only the backstop (~40 MB).
    "wal_autocheckpoint=10000",
    # Reads of the first 256 MB through a memory map: pages come from the OS cache without a copy
    # into each connection's 2 MB page cache. A word-index search of 100,000 passages read them
    # again on every query (6 -> 4 ms); the map is shared by all connections, not 2 MB each.
    "mmap_size=268435456",
)


class StartupError(Exception):
    """The runtime cannot work on this machine; the message says what to do."""


@cache
def _vec0_path() -> str:
    # Where sqlite_vec.loadable_path() says, found without importing the package: its __init__
    # imports numpy (for a helper we do not use), ~12 MB and 60 ms of every start that only the
    # knowledge base needs, on first use (issue 46, footprint). installer.spec names the package.
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or spec.origin is None:
        raise ImportError("the sqlite-vec package is not installed")
    return str(Path(spec.origin).parent / "vec0")


def load_vectors(connection) -> None:
    """sqlite-vec into a driver connection (its extension loading is off again afterwards)."""
    connection.enable_load_extension(True)
    try:
        connection.load_extension(_vec0_path())
    finally:
        connection.enable_load_extension(False)


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
        load_vectors(conn)
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
    dbapi_conn.isolation_level = None  # we emit BEGIN in the engine's begin hook
    load_vectors(dbapi_conn)
    cursor = dbapi_conn.cursor()
    for pragma in _PRAGMAS:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _on_connect_reader(dbapi_conn, record) -> None:
    _on_connect(dbapi_conn, record)
    # Reading units end by closing, not committing: query_only makes a stray write fail loudly
    # instead of being rolled back unnoticed. Set once per pooled connection of the read engine.
    dbapi_conn.execute("PRAGMA query_only=ON")


# Straight to the driver: through exec_driver_sql these cost ~0.1 ms a request.
def _begin_immediate(conn) -> None:
    conn.connection.driver_connection.execute("BEGIN IMMEDIATE")


def _begin_deferred(conn) -> None:
    conn.connection.driver_connection.execute("BEGIN")


WRITE_WAIT_SECONDS = 5.0  # as long as SQLite's busy_timeout


class WriterGate:
    """The writers of this process take turns in arrival order before `BEGIN IMMEDIATE`.

    SQLite's own busy handler makes a waiting writer sleep and poll (up to 100 ms a nap), so under
    concurrent writes the unlucky ones wait far longer than the work ahead of them: inbound
    webhooks measured a p99 acknowledgement of 1.6 s that way. A lock hands the turn over at once.
    The gate is taken when a write transaction begins and given back when its connection returns to
    the pool (after COMMIT or ROLLBACK). Other processes still meet SQLite's lock as before.
    """

    def __init__(self):
        self._lock = threading.Lock()

    def install(self, engine: Engine) -> None:
        event.listen(engine, "begin", self._begin)
        event.listen(engine.pool, "checkin", self._release)
        event.listen(engine.pool, "invalidate", lambda dbapi_connection, record, exc: self._release(dbapi_connection, record))

    def _begin(self, conn) -> None:
        if not self._lock.acquire(timeout=WRITE_WAIT_SECONDS):
            raise sqlite.OperationalError("database is locked (waited for the other writers of this process)")
        record_info = conn.connection.info  # the pooled connection record's, seen again at checkin
        try:
            _begin_immediate(conn)
        except BaseException:
            self._lock.release()
            raise
        record_info["holds_writer_gate"] = True

    def _release(self, _dbapi_connection, record) -> None:
        if record is not None and record.info.pop("holds_writer_gate", False):
            self._lock.release()


def make_engine(path: Path | str, *, write: bool, pool_size: int = 5) -> Engine:
    """An engine whose transactions all write (BEGIN IMMEDIATE, one writer of this process at a
    time) or all only read (query_only)."""
    engine = create_engine(
        f"sqlite:///{path}",
        module=sqlite,
        connect_args={"check_same_thread": False},
        pool_size=pool_size,
        max_overflow=8,
        pool_pre_ping=False,
    )
    event.listen(engine, "connect", _on_connect if write else _on_connect_reader)
    if write:
        WriterGate().install(engine)
    else:
        event.listen(engine, "begin", _begin_deferred)
    return engine


class Checkpointer:
    """Moves committed pages from the WAL into the database file once a second (PASSIVE: never
    waits for, nor blocks, readers and writers). Done in a committing request instead, as SQLite
    does by default every 1,000 pages, the copy and its fsyncs stalled that request and the writers
    queued behind it: inbound webhooks saw a p99 above 700 ms on a busy disk."""

    INTERVAL_SECONDS = 1.0

    def __init__(self, path: Path | str):
        self.path = path
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="checkpointer", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stop.set()
            thread.join(timeout)

    def _run(self) -> None:
        conn = sqlite.connect(str(self.path), check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout=5000")
            while not self._stop.wait(self.INTERVAL_SECONDS):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite.Error:
                    log.exception("WAL checkpoint failed; SQLite's own checkpoint remains")
        finally:
            conn.close()


class ThreadReaders:
    """One long-lived read-only driver connection per thread, for hot-path reads (`read_row`).

    Taking a connection from the SQLAlchemy pool and opening a Session transaction costs ~0.2 ms,
    more than the indexed reads that authenticate a request. In a reading unit of work these
    reads run on the thread's own connection in autocommit: each statement sees the newest
    committed state, and none holds a snapshot open (a keyed request costs one statement, and
    every statement also hands the GIL to another request thread and back). What must agree is
    read in one statement (`with_parent`). The ORM of the same unit reads through the pool in
    its own transaction, begun later, as a request arriving a moment later would.
    """

    def __init__(self, path: Path | str):
        self._path = str(path)
        self._local = threading.local()
        self._all: list = []
        self._lock = threading.Lock()

    def connection(self):
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite.connect(self._path, check_same_thread=False)
            _on_connect_reader(connection, None)
            self._local.connection = connection
            with self._lock:
                self._all.append(connection)
        return connection

    def close(self) -> None:
        with self._lock:
            for connection in self._all:
                connection.close()
            self._all.clear()
        self._local = threading.local()


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
    def __init__(self, path: Path | str, *, pool_size: int = 5):
        self.path = Path(path)
        # Two pools: connections that write and connections that only read never trade places,
        # so neither pays for switching query_only on every transaction.
        self.engine = make_engine(path, write=False, pool_size=pool_size)
        self.writer = make_engine(path, write=True, pool_size=pool_size)
        self.readers = ThreadReaders(path)

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
        self.writer.dispose()
        self.readers.close()
