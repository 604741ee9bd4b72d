"""PostgreSQL as the second engine, whichever engine the suite runs on: the start's sentences, the
placeholders of the hot paths, the writers' lock and the workers' lease (core/postgres_engine.py,
core/worker_lease.py), against the tests' PostgreSQL server (fixtures/engines.py)."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from appliance.cli import main
from appliance.core import postgres_engine
from appliance.core.db import Database
from appliance.core.worker_lease import WorkerLease
from tests.fixtures import engines


@pytest.fixture
def empty_postgres(request):
    """A new empty database on the tests' server; its URL."""
    url = engines.empty_database(
        f"engine_{request.node.name[:40].lower().replace('[', '_').replace(']', '').replace('-', '_')}")
    yield url
    engines.drop(url)


def test_an_unreachable_server_stops_the_start_with_a_sentence_and_exit_code_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("APPLIANCE_DATABASE_URL", "postgresql://appliance:s3cret-word@127.0.0.1:1/appliance")
    assert main(["--data-dir", str(tmp_path), "migrate"]) == 2
    said = capsys.readouterr().err
    assert "PostgreSQL at 127.0.0.1:1/appliance could not be reached" in said
    assert "APPLIANCE_DATABASE_URL" in said
    assert "s3cret-word" not in said  # the password is never shown


def test_a_url_that_is_not_postgresql_is_refused_in_words(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("APPLIANCE_DATABASE_URL", "mysql://x@localhost/db")
    with pytest.raises(SystemExit, match="APPLIANCE_DATABASE_URL: must be empty .* or a postgresql:// URL"):
        main(["--data-dir", str(tmp_path), "migrate"])


def test_web_and_worker_roles_need_postgresql(tmp_path, monkeypatch):
    from appliance.core.errors import StartupError
    from appliance.server import serve
    from appliance.settings import load_settings

    with pytest.raises(StartupError, match="APPLIANCE_ROLE=web .* needs PostgreSQL"):
        serve(load_settings({}, data_dir=tmp_path, role="web", database_url=""))


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = %s AND c = %s"),
    ("SELECT '?' || ?, 'it''s 5%' FROM t WHERE x LIKE ?", "SELECT '?' || %s, 'it''s 5%%' FROM t WHERE x LIKE %s"),
    ("SELECT 10 % 3", "SELECT 10 %% 3"),
])
def test_sqlite_placeholders_become_psycopgs(sql, expected):
    assert postgres_engine.to_format_style(sql) == expected


def test_a_migrated_database_takes_the_hot_paths_statements(empty_postgres, tmp_path):
    from appliance import migrations
    from appliance.core.rows import driver_connection

    database = Database(empty_postgres)
    try:
        migrations.upgrade(database)
        assert migrations.at_head(database)
        with database.unit_of_work(write=True) as session:
            connection = driver_connection(session)
            connection.executemany("INSERT INTO throttle_buckets (key, window_started_at, count) VALUES (?, ?, ?)",
                                   [("a", "2026-01-01 00:00:00", 1), ("b", "2026-01-01 00:00:00", 2)])
            assert connection.execute("SELECT sum(count) FROM throttle_buckets WHERE key <> ?", ("c",)).fetchone() == (3,)
        reader = database.readers.connection()
        assert reader.execute("SELECT count(*) FROM throttle_buckets").fetchone() == (2,)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            reader.execute("DELETE FROM throttle_buckets")
    finally:
        database.dispose()


def test_writers_of_two_processes_take_turns(empty_postgres):
    """Two databases (as two processes) on one server: a writing unit waits for the other's commit,
    as SQLite's BEGIN IMMEDIATE does, so a read-then-write never interleaves."""
    first, second = Database(empty_postgres), Database(empty_postgres)
    try:
        with first.writer.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE counter (n integer)")
            connection.exec_driver_sql("INSERT INTO counter VALUES (0)")

        def add_one(database, times):
            for _ in range(times):
                with database.unit_of_work(write=True) as session:
                    (n,) = session.connection().exec_driver_sql("SELECT n FROM counter").fetchone()
                    session.connection().exec_driver_sql(f"UPDATE counter SET n = {n + 1}")

        threads = [threading.Thread(target=add_one, args=(database, 50)) for database in (first, second, first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with first.writer.begin() as connection:
            assert connection.exec_driver_sql("SELECT n FROM counter").scalar() == 200
    finally:
        first.dispose()
        second.dispose()


def test_the_workers_lease_is_one_processes_and_passes_on_when_it_ends(empty_postgres):
    database = Database(empty_postgres)
    first, second = WorkerLease(database), WorkerLease(database)
    stop = threading.Event()
    try:
        assert first.acquire(stop)
        waited: list[bool] = []
        standby = threading.Thread(target=lambda: waited.append(second.acquire(stop)))
        standby.start()
        time.sleep(0.3)  # the second asks at least once and is told to stand by
        assert waited == [] and first.held()
        first.release()  # the holder ends (its connection closes, as at a kill -9)
        standby.join(timeout=5)
        assert waited == [True] and second.held()
        # Its connection cut by the server (a restart): the lease is known lost.
        with psycopg.connect(engines.server_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = 'appliance workers lease' AND datname = %s",
                          (engines.database_name(empty_postgres),))
        assert not second.held()
    finally:
        stop.set()
        first.release()
        second.release()
        database.dispose()


def test_sqlites_lease_is_always_the_servers():
    class OnSqlite:
        is_sqlite = True
        url = None

    lease = WorkerLease(OnSqlite())
    assert not lease.shared and lease.acquire(threading.Event()) and lease.held()


def test_a_server_without_room_for_the_process_connections_is_named_in_the_log(empty_postgres, caplog):
    with caplog.at_level("WARNING", logger="appliance.core.postgres_engine"):
        postgres_engine.check_runtime(empty_postgres, threads=100_000)
    [said] = [record.getMessage() for record in caplog.records if "more connections" in record.getMessage()]
    assert "APPLIANCE_THREADS=100000" in said and "max_connections" in said
    caplog.clear()
    with caplog.at_level("WARNING", logger="appliance.core.postgres_engine"):
        postgres_engine.check_runtime(empty_postgres, threads=0)  # the tests' server has 400
    assert not [record for record in caplog.records if "more connections" in record.getMessage()]


@pytest.mark.parametrize("error, status, code", [
    (psycopg.OperationalError("connection refused"), 503, "storage_unavailable"),  # before any SQLSTATE
    (psycopg.errors.AdminShutdown("terminating connection"), 503, "storage_unavailable"),
    (psycopg.errors.TooManyConnections("too many clients"), 503, "storage_unavailable"),
    (psycopg.errors.DeadlockDetected("deadlock"), 503, "storage_busy"),  # undone: try again
    (psycopg.errors.SerializationFailure("could not serialize"), 503, "storage_busy"),
    (psycopg.errors.LockNotAvailable("lock timeout"), 503, "storage_busy"),
    (psycopg.errors.DiskFull("no space left"), 500, "internal_error"),  # a fault, logged as one
])
def test_the_servers_answers_are_told_apart(app, error, status, code):
    """What PostgreSQL answered decides the problem: gone (come back later), busy (try again now),
    or a fault of ours or the machine's."""
    from sqlalchemy.exc import OperationalError

    from appliance.http.errors import handle_exception
    with app.test_request_context("/contacts", method="POST"):
        answer = handle_exception(OperationalError("INSERT ...", {}, error))
    assert answer.status_code == status and answer.json["code"] == code
