"""Writers of one process take turns at a lock before BEGIN IMMEDIATE; the turn is given back when
the connection returns to the pool, whatever happened; a wait that times out is a 503."""

import threading
import time

import pytest
from sqlalchemy import text

from appliance.core import db as core_db
from appliance.core.db import Database
from tests.problems import assert_problem


@pytest.fixture
def database(tmp_path):
    database = Database(tmp_path / "gate.db")
    with database.writer.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE t (n INTEGER)")
    yield database
    database.dispose()


def test_writers_take_turns_in_arrival_order(database):
    order, inside, overlaps = [], [], []

    def writer(n):
        with database.unit_of_work(write=True) as session:
            session.exec(text("INSERT INTO t VALUES (:n)").bindparams(n=n))  # the transaction begins here
            inside.append(n)
            if len(inside) > 1:
                overlaps.append(list(inside))  # another writer of this process inside at once
            time.sleep(0.02)
            order.append(n)
            inside.remove(n)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(order) == list(range(6)) and overlaps == []
    with database.unit_of_work(write=False) as session:
        assert session.exec(text("SELECT count(*) FROM t")).one()[0] == 6


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
    monkeypatch.setattr(core_db, "WRITE_WAIT_SECONDS", 0.2)
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
        busy = handle_exception(core_db.sqlite.OperationalError("database is locked"))
        assert_problem(busy, 503, "storage_busy")
        assert busy.headers["Retry-After"] == "1"
        assert handle_exception(core_db.sqlite.OperationalError("no such table: x")).status_code == 500
