import threading

import pysqlite3.dbapi2 as sqlite
import pytest
from sqlalchemy import text

from appliance.core import db as core_db
from appliance.core import rows as core_rows
from appliance.core import sqlite_engine
from appliance.core.db import Database, StartupError, after_commit, run_after
from appliance.core.sqlite_engine import check_sqlite_runtime


@pytest.fixture
def database(tmp_path):
    database = Database(tmp_path / "t.db")
    with database.unit_of_work(write=True) as session:
        session.exec(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
    yield database
    database.dispose()


def test_every_connection_has_the_pragmas_and_sqlite_vec(database):
    """WAL, foreign keys, busy timeout, synchronous FULL and vec0 on every pooled connection."""
    with database.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
        assert conn.exec_driver_sql("select vec_version()").scalar().startswith("v")


def test_sqlite_is_recent_enough():
    """The bundled SQLite is at least 3.51.3."""
    version, vec = check_sqlite_runtime()
    assert tuple(map(int, version.split("."))) >= (3, 51, 3) and vec


def test_an_old_sqlite_is_refused_with_a_clear_message():
    """SQLite 3.45 is refused, naming the minimum and the fix."""
    with pytest.raises(StartupError, match=r"3\.45\.1 is too old.*3\.51\.3"):
        check_sqlite_runtime("3.45.1")


def test_missing_sqlite_vec_is_refused(monkeypatch):
    """When the extension cannot load, start-up stops with a clear message."""
    def broken(conn):
        raise RuntimeError("no vec0 here")
    monkeypatch.setattr(sqlite_engine, "load_vectors", broken)
    with pytest.raises(StartupError, match="sqlite-vec"):
        check_sqlite_runtime()


def test_the_extension_loaded_is_the_one_sqlite_vec_names():
    """core/db.py finds vec0 without importing the sqlite_vec package (which imports numpy): it must
    be the file the package's own loadable_path() gives."""
    import sqlite_vec

    assert sqlite_engine._vec0_path() == sqlite_vec.loadable_path()


def test_writes_take_the_write_lock_up_front(database):
    """A writing unit of work begins IMMEDIATE: another writer cannot start until it ends."""
    with database.unit_of_work(write=True) as session:
        session.exec(text("SELECT 1"))
        other = sqlite.connect(str(database.path), timeout=0, isolation_level=None)
        with pytest.raises(sqlite.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.close()


def test_rollback_leaves_nothing_and_runs_only_independent_work(database):
    """On error nothing is written, after-commit hooks are skipped, run_after work is kept."""
    calls = []
    with pytest.raises(ValueError):
        with database.unit_of_work(write=True) as session:
            session.exec(text("INSERT INTO t (v) VALUES ('lost')"))
            after_commit(session, lambda: calls.append("after_commit"))
            run_after(session, lambda s: s.exec(text("INSERT INTO t (v) VALUES ('kept')")))
            raise ValueError
    with database.unit_of_work(write=False) as session:
        assert session.exec(text("SELECT v FROM t")).all() == [("kept",)]
    assert calls == []


def test_after_commit_hooks_run_after_commit(database):
    """Hooks see the committed data."""
    seen = []

    def look():
        with database.unit_of_work(write=False) as session:
            seen.append(session.exec(text("SELECT v FROM t")).scalar())
    with database.unit_of_work(write=True) as session:
        session.exec(text("INSERT INTO t (v) VALUES ('committed')"))
        after_commit(session, look)
    assert seen == ["committed"]


def test_concurrent_writers_wait_instead_of_failing(database):
    """Eight threads writing at once all succeed (busy timeout + BEGIN IMMEDIATE)."""
    errors = []

    def write(n):
        try:
            for i in range(20):
                with database.unit_of_work(write=True) as session:
                    session.exec(text("INSERT INTO t (v) VALUES (:v)").bindparams(v=f"{n}-{i}"))
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)
    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with database.unit_of_work(write=False) as session:
        assert session.exec(text("SELECT count(*) FROM t")).scalar() == 160


def test_migrations_match_the_models(app):
    """The migrated schema is exactly what the models declare (no missing revision)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from sqlmodel import SQLModel

    from appliance import migrations
    from appliance.core import runtime

    database = runtime.get().db
    assert migrations.current_revision(database) == migrations.head_revision()
    with database.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(
            conn, opts={"compare_type": True, "include_object": migrations.include_object}), SQLModel.metadata)
    assert diff == []


def test_partial_indexes_are_partial_on_both_engines(app):
    """An index's condition said for one engine only leaves the other indexing every row (alembic's
    comparison above does not look at conditions): every partial index says it for both
    (core/db.partial), and on PostgreSQL the migrated indexes are partial."""
    from sqlmodel import SQLModel

    from appliance.core import runtime

    partial = {}
    for table in SQLModel.metadata.tables.values():
        for index in table.indexes:
            on_sqlite, on_postgres = index.dialect_options["sqlite"]["where"], index.dialect_options["postgresql"]["where"]
            assert str(on_sqlite) == str(on_postgres), index.name
            if on_sqlite is not None:
                partial[index.name] = str(on_sqlite)
    assert {"uq_messages_wamid", "ix_messages_send_queue", "uq_contacts_org_wa_id"} <= set(partial)
    database = runtime.get().db
    if not database.is_sqlite:
        with database.engine.connect() as conn:
            defined = dict(conn.exec_driver_sql(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'").fetchall())
        assert [name for name in partial if " WHERE " not in defined[name]] == []


def test_commands_refuse_an_old_sqlite_with_exit_code_2(tmp_path, monkeypatch, capsys):
    """`appliance migrate` (as serve) stops with a sentence and exit 2 on an old SQLite."""
    from appliance import bootstrap
    from appliance.cli import main

    monkeypatch.setattr(bootstrap, "check_sqlite_runtime", lambda: check_sqlite_runtime("3.40.0"))
    assert main(["--data-dir", str(tmp_path), "migrate"]) == 2
    assert "SQLite 3.40.0 is too old" in capsys.readouterr().err
    assert not (tmp_path / "appliance.db").exists()


def test_a_write_in_a_reading_unit_fails_loudly(database):
    """Reading units are query_only: a write raises instead of being silently rolled back."""
    from sqlalchemy.exc import OperationalError
    with pytest.raises(OperationalError, match="readonly"):
        with database.unit_of_work(write=False) as session:
            session.exec(text("INSERT INTO t (v) VALUES ('sneaky')"))
    with database.unit_of_work(write=True) as session:  # the pooled connection writes again
        session.exec(text("INSERT INTO t (v) VALUES ('fine')"))
    with database.unit_of_work(write=False) as session:
        assert session.exec(text("SELECT v FROM t")).all() == [("fine",)]


def test_a_read_that_changes_a_loaded_row_in_memory_never_writes_it(database):
    """Issue 44, item 12: an agent's attendance page and, now and then, the inbox answered 500
    ("attempt to write a readonly database"): a read set a loaded row's totals up to now, and the
    next query's autoflush wrote them through the reading unit's query_only connection."""
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
    from sqlmodel import select

    class Base(DeclarativeBase):
        pass

    class Row(Base):
        __tablename__ = "t"
        id: Mapped[int] = mapped_column(primary_key=True)
        v: Mapped[str | None]

    with database.unit_of_work(write=True) as session:
        session.add(Row(v="stored"))
    with database.unit_of_work(write=False) as session:
        session.get(Row, 1).v = "drawn up to now"  # what a view computes on the loaded row
        assert session.exec(select(Row.id)).all() == [1]  # the next query of the same read
    with database.unit_of_work(write=False) as session:
        assert session.get(Row, 1).v == "stored"
    with pytest.raises(OperationalError, match="readonly"):  # a service's own flush still fails loudly
        with database.unit_of_work(write=False) as session:
            session.get(Row, 1).v = "sneaky"
            session.flush()


def _hot_tables(database):
    from sqlalchemy import Column, ForeignKey, MetaData, String, Table
    metadata = MetaData()
    parents = Table("parents", metadata, Column("id", String, primary_key=True),
                    Column("created_at", core_db.UTCDateTime()), Column("name", String))
    children = Table("children", metadata, Column("id", String, primary_key=True),
                     Column("parent_id", String, ForeignKey("parents.id")), Column("code", String, unique=True))
    with database.unit_of_work(write=True) as session:
        metadata.create_all(session.connection())
        session.exec(text("INSERT INTO parents VALUES ('p1', '2026-11-21 10:00:00.000000', 'first')"))
        session.exec(text("INSERT INTO children VALUES ('c1', 'p1', 'a'), ('c2', NULL, 'b')"))
    return parents, children


def test_read_row_reads_the_parent_in_the_same_statement_and_remembers_it(database):
    from datetime import datetime, timezone
    parents, children = _hot_tables(database)
    with database.unit_of_work(write=False) as session:
        child = core_rows.read_row(session, children, code="a", with_parent=(parents, "parent_id"))
        assert (child.id, child.parent_id) == ("c1", "p1")
        parent = session.info["read_rows"][("parents", (("id", "p1"),), ())]
        assert parent.name == "first"
        assert parent.created_at == datetime(2026, 11, 21, 10, tzinfo=timezone.utc)
        assert core_rows.read_row(session, parents, id="p1") is parent  # no second read
        orphan = core_rows.read_row(session, children, code="b", with_parent=(parents, "parent_id"))
        assert orphan.parent_id is None
        assert core_rows.read_row(session, children, code="missing") is None


def test_hot_reads_of_a_reading_unit_see_the_newest_commit_and_cannot_write(database):
    """Reading units read hot rows in autocommit on the thread's query_only connection."""
    parents, _ = _hot_tables(database)
    with database.unit_of_work(write=False) as session:
        assert core_rows.read_row(session, parents, id="p2") is None
        with database.unit_of_work(write=True) as writer:  # committed meanwhile, by another unit
            writer.exec(text("INSERT INTO parents (id, name) VALUES ('p2', 'second')"))
        assert core_rows.read_row(session, parents, id="p2") is None  # remembered for the unit
        assert core_rows.read_row(session, parents, id="p2", name="second").name == "second"
        with pytest.raises(sqlite.OperationalError, match="readonly"):
            session.info["hot_reader"]().execute("DELETE FROM parents")
    with database.unit_of_work(write=True) as session:  # in a writing unit: its own transaction
        session.exec(text("UPDATE parents SET name = 'renamed' WHERE id = 'p1'"))
        assert core_rows.read_row(session, parents, id="p1").name == "renamed"
        session.rollback()


def test_rows_written_through_the_driver_read_back_as_sqlalchemy_writes_them(database):
    """insert_many / update_many convert values as SQLAlchemy's own statements do: a UTC time as
    the same text (whatever its zone, and the same object twice), JSON, booleans; `add` increases."""
    from datetime import datetime, timedelta, timezone
    from sqlalchemy import JSON, Boolean, Column, Integer, MetaData, String, Table, insert, select
    from sqlalchemy.dialects import sqlite as sqlite_dialect
    metadata = MetaData()
    table = Table("things", metadata, Column("id", String, primary_key=True), Column("at", core_db.UTCDateTime()),
                  Column("data", JSON), Column("flag", Boolean), Column("count", Integer))
    moment = datetime(2026, 11, 26, 12, 30, 1, 5, tzinfo=timezone.utc)
    elsewhere = datetime(2026, 11, 26, 7, 30, 1, 5, tzinfo=timezone(timedelta(hours=-5)))  # the same instant
    with database.unit_of_work(write=True) as session:
        metadata.create_all(session.connection())
        session.execute(insert(table).values(id="core", at=moment, data={"a": [1, "é"]}, flag=True, count=1))
        core_rows.insert_many(session, table, [
            {"id": "driver", "at": moment, "data": {"a": [1, "é"]}, "flag": True, "count": 1},
            {"id": "zone", "at": elsewhere, "data": None, "flag": False, "count": 0}])
        stored = dict(session.connection().exec_driver_sql("SELECT id, at FROM things").fetchall())
        assert stored["driver"] == stored["core"] == stored["zone"] == "2026-11-26 12:30:01.000005"
        core_rows.update_many(session, table, [{"id": "driver", "flag": False}, {"id": "zone", "flag": True}],
                              add={"count": 2})
        rows = {row.id: row for row in session.execute(select(table)).all()}
    assert rows["driver"].at == moment and rows["driver"].data == {"a": [1, "é"]}
    assert (rows["driver"].flag, rows["driver"].count, rows["zone"].flag, rows["zone"].count) == (False, 3, True, 2)
    processor = core_db.UTCDateTime().dialect_impl(sqlite_dialect.dialect()).bind_processor(sqlite_dialect.dialect())
    for value in (moment, elsewhere, moment, datetime(999, 1, 1, tzinfo=timezone.utc)):
        assert core_rows._sqlite_utc_text(value) == processor(value)
    with pytest.raises(ValueError, match="naive"):
        core_rows._sqlite_utc_text(datetime(2026, 1, 1))


def test_in_list_pads_to_a_few_lengths_and_answers_the_same(database):
    """`IN` lists of any length become a handful of statement texts (PostgreSQL prepares each once);
    the repeated last value changes nothing the statement answers."""
    assert core_rows.in_list(["a"]) == ("?", ["a"])
    assert core_rows.in_list(["a", "b", "c"]) == ("?, ?, ?, ?", ["a", "b", "c", "c"])
    assert {len(core_rows.in_list(list(range(n)))[1]) for n in range(1, 65)} == {1, 2, 4, 8, 16, 32, 64}
    with database.unit_of_work(write=True) as session:
        session.exec(text("INSERT INTO t (id, v) VALUES (1, 'x'), (2, 'y'), (3, 'z')"))
        marks, values = core_rows.in_list([3, 1, 7])
        found = core_rows.driver_connection(session).execute(f"SELECT id FROM t WHERE id IN ({marks})", values).fetchall()
    assert sorted(row[0] for row in found) == [1, 3]
