"""Writers of one process take turns at a lock before BEGIN IMMEDIATE; the turn is given back when
the connection returns to the pool, whatever happened; a wait that times out is a 503."""

import threading

import pytest
from sqlalchemy import text

from appliance.core import sqlite_engine
from appliance.core.db import Database
from tests.problems import assert_problem
from tests.waiting import eventually


@pytest.fixture
def database(tmp_path):
    database = Database(tmp_path / "gate.db")
    with database.writer.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE t (n INTEGER)")
    yield database
    database.dispose()


def test_writers_take_turns_in_arrival_order(tmp_path, monkeypatch):
    """Issue 44, item 19: this test let six writers race and checked only that all six wrote. Now
    one holds the turn while the others arrive one after another (each seen at the gate before the
    next starts); they must get through in that order, never two at once."""
    arrived, through, inside, overlaps = [], [], [], []

    class ArrivalsSeen(sqlite_engine.WriterGate):
        def _begin(self, conn):
            arrived.append(threading.current_thread().name)
            super()._begin(conn)

    monkeypatch.setattr(sqlite_engine, "WriterGate", ArrivalsSeen)
    database = Database(tmp_path / "order.db")
    release = threading.Event()

    def writer(n):
        with database.unit_of_work(write=True) as session:
            session.exec(text("INSERT INTO t VALUES (:n)").bindparams(n=n))  # the transaction begins here
            inside.append(n)
            if len(inside) > 1:
                overlaps.append(list(inside))  # another writer of this process inside at once
            through.append(n)
            if n == 0:
                release.wait(10)
            inside.remove(n)

    try:
        with database.writer.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE t (n INTEGER)")
        arrived.clear()
        threads = [threading.Thread(target=writer, args=(n,), name=f"writer-{n}") for n in range(6)]
        threads[0].start()
        eventually(lambda: list(through), lambda seen: seen == [0])  # the first holds the turn
        for n, thread in enumerate(threads[1:], start=1):
            thread.start()
            eventually(lambda: len(arrived), lambda count: count == n + 1)  # it waits at the gate
        release.set()
        for thread in threads:
            thread.join(10)
        assert arrived == [f"writer-{n}" for n in range(6)]
        assert through == list(range(6)) and overlaps == []
        with database.unit_of_work(write=False) as session:
            assert session.exec(text("SELECT count(*) FROM t")).one()[0] == 6
    finally:
        release.set()
        database.dispose()


def test_the_turn_is_given_back_after_a_failure(database):
    with pytest.raises(ZeroDivisionError):
        with database.unit_of_work(write=True) as session:
            session.exec(text("INSERT INTO t VALUES (1)"))
            1 / 0
    with database.unit_of_work(write=True) as session:  # would wait forever if the turn were kept
        session.exec(text("INSERT INTO t VALUES (2)"))
    with database.writer.begin() as connection:  # a bare engine transaction (migrations) too
        connection.exec_driver_sql("INSERT INTO t VALUES (3)")
    with database.unit_of_work(write=True) as session:
        assert [r[0] for r in session.exec(text("SELECT n FROM t ORDER BY n"))] == [2, 3]


def test_a_wait_past_the_timeout_fails_as_locked_and_is_answered_503(database, monkeypatch, app):
    monkeypatch.setattr(sqlite_engine, "WRITE_WAIT_SECONDS", 0.2)
    held, done = threading.Event(), threading.Event()

    def hold():
        with database.unit_of_work(write=True) as session:
            session.exec(text("INSERT INTO t VALUES (1)"))
            held.set()
            done.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        with pytest.raises(Exception, match="locked"):
            with database.unit_of_work(write=True) as session:
                session.exec(text("INSERT INTO t VALUES (2)"))
    finally:
        done.set()
        holder.join()
    from appliance.http.errors import handle_exception
    with app.test_request_context("/webhooks/whatsapp", method="POST"):
        busy = handle_exception(sqlite_engine.sqlite.OperationalError("database is locked"))
        assert_problem(busy, 503, "storage_busy")
        assert busy.headers["Retry-After"] == "1"
        assert handle_exception(sqlite_engine.sqlite.OperationalError("no such table: x")).status_code == 500
