"""SQLite, the default engine: its connections, pragmas, writers' gate, checkpointer and hot readers.

Every connection is pysqlite3 (a bundled, recent SQLite) with sqlite-vec loaded, WAL, a busy
timeout and foreign keys on. We issue BEGIN ourselves (the driver's implicit transactions are
turned off) so that a writing unit of work starts with BEGIN IMMEDIATE: it takes the write lock
up front instead of failing half-way with SQLITE_BUSY on a lock upgrade. The engine-neutral unit
of work is db.py's; PostgreSQL's counterpart of this module is postgres_engine.py. Documented in
docs/architecture.md.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from functools import cache
from pathlib import Path

import pysqlite3.dbapi2 as sqlite
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine

from appliance.core.errors import StartupError

log = logging.getLogger(__name__)

NAME = "sqlite"

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


def ping(engine: Engine) -> None:
    """Touch the database file itself (not only the pool) so a broken file shows."""
    with engine.connect() as conn:
        conn.exec_driver_sql("SELECT count(*) FROM sqlite_schema").fetchone()


def facts(connection, path: Path) -> dict:
    """The database's engine, size (the file and its WAL) and SQLite's version (pysqlite3's own,
    not the one Python was built with), for the installation's status."""
    size = sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    version = connection.exec_driver_sql("select sqlite_version()").scalar()
    return {"engine": NAME, "size_bytes": size, "sqlite_version": version}


def is_busy(driver_error: BaseException) -> bool:
    """Whether a driver error is SQLite's lock waited out (the request may be tried again)."""
    return isinstance(driver_error, sqlite.OperationalError) and "locked" in str(driver_error)


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
