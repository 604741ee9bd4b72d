"""The task queue on PostgreSQL (core/queue_postgres.py), the proof that several processes can
share it: a task is taken by one of them only, due scheduled tasks are claimed once, the slow lane's
lines work, and a dropped connection is replaced. (One process consumes the queue, and so
enqueues its periodic tasks: the workers' lease, tests/core/test_postgres_engine.py.)

These run in every suite, SQLite's too: they use the tests' PostgreSQL server directly
(tests/fixtures/engines.py), in a database of their own. Two storages stand for two processes
(each holds its own connection, as each process's lane does). Time is given to the calls that
read it (`read_schedule`), never waited for."""

from __future__ import annotations

import logging
import os
import threading
from datetime import datetime, timedelta

import psycopg
import pytest
from huey.constants import EmptyData

from appliance import migrations
from appliance.core import queue, queue_postgres
from appliance.core.postgres_engine import libpq_url
from appliance.core.queue_postgres import PostgresQueueStorage
from tests.fixtures import engines
from tests.waiting import eventually

T0 = datetime(2030, 1, 7, 12, 0)  # Huey's times are naive UTC


def _admin(sql: str, params=()) -> list:
    with psycopg.connect(engines.server_url(), autocommit=True) as connection:
        cursor = connection.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def _new_database(suffix: str) -> str:
    name = f"queue_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}_{suffix}".replace("-", "_")
    _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _admin(f"CREATE DATABASE {name}")
    return engines.database_url(name)


@pytest.fixture(scope="module")
def database():
    url = _new_database("m")
    PostgresQueueStorage("setup", url=url).close()  # the tables
    yield url
    engines.drop(url)


@pytest.fixture
def url(database):
    with psycopg.connect(libpq_url(database), autocommit=True) as connection:
        connection.execute("TRUNCATE " + ", ".join(queue_postgres.TABLES) + " RESTART IDENTITY")
    return database


@pytest.fixture
def storages(url):
    """`make(name)`: a storage of lane `name`, as a process of its own would hold it."""
    made = []

    def make(name="lane", cls=PostgresQueueStorage):
        storage = cls(name, url=url)
        made.append(storage)
        return storage

    yield make
    for storage in made:
        storage.close()


def _terminate(storage: PostgresQueueStorage, connection=None) -> None:
    """End the storage's session from the server's side, as a restart does; back once it is gone."""
    pid = (connection or storage.conn).info.backend_pid
    assert _admin("SELECT pg_terminate_backend(%s)", (pid,))[0][0]
    eventually(lambda: _admin("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,))[0][0], lambda n: n == 0)


def _drain(takers, threads: int) -> list[bytes]:
    """`threads` threads spread over the `takers` (callables answering a task or None), all
    taking until nothing is left; everything taken, from all of them."""
    taken: list[list[bytes]] = [[] for _ in range(threads)]
    start = threading.Barrier(threads)
    errors = []

    def run(i):
        take = takers[i % len(takers)]
        start.wait()
        try:
            while (data := take()) is not None:
                taken[i].append(data)
        except Exception as exc:  # noqa: BLE001 -- reported below
            errors.append(exc)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert not errors
    return [data for some in taken for data in some], taken


def test_the_tables_are_skipped_by_alembic_and_their_lines_compare_bytes(storages, url):
    storages()
    assert migrations.QUEUE_TABLES == set(queue_postgres.TABLES)
    assert not any(migrations.include_object(None, name, "table", True, None) for name in queue_postgres.TABLES)
    with psycopg.connect(libpq_url(url)) as connection:
        collations = dict(connection.execute(
            "SELECT table_name, collation_name FROM information_schema.columns WHERE column_name = 'queue'").fetchall())
    assert collations == {name: "C" for name in queue_postgres.TABLES}


def test_tasks_leave_by_priority_then_age(storages):
    storage, other_lane = storages("lane"), storages("other")
    for data, priority in ((b"a", None), (b"b", 5), (b"c", 0), (b"d", 5)):
        storage.enqueue(data, priority)
    other_lane.enqueue(b"x")
    assert storage.queue_size() == 4
    assert storage.enqueued_items() == [b"b", b"d", b"a", b"c"]
    assert storage.enqueued_items(limit=1) == [b"b"]
    assert [storage.dequeue() for _ in range(5)] == [b"b", b"d", b"a", b"c", None]
    assert other_lane.dequeue() == b"x"
    storage.enqueue(b"e")
    storage.flush_queue()
    assert storage.queue_size() == 0


def test_two_processes_take_every_task_exactly_once(storages):
    first, second = storages(), storages()
    tasks = [f"task {i}".encode() for i in range(2000)]
    for data in tasks:
        first.enqueue(data)
    everything, by_thread = _drain([first.dequeue, second.dequeue], threads=8)
    assert len(everything) == len(tasks)  # none twice
    assert set(everything) == set(tasks)  # none lost
    assert any(by_thread[0::2]) and any(by_thread[1::2]), "both storages took tasks"
    assert first.queue_size() == 0


def test_due_scheduled_tasks_are_claimed_once(storages):
    first, second = storages(), storages()
    for i in range(400):
        first.add_to_schedule(f"at {i}".encode(), T0 + timedelta(seconds=i / 2))
    assert first.schedule_size() == 400
    assert first.scheduled_items(limit=2) == [b"at 0", b"at 1"]
    assert first.read_schedule(T0 - timedelta(seconds=1)) == []
    assert first.read_schedule(T0 + timedelta(seconds=1)) == [b"at 0", b"at 1", b"at 2"]  # in their order
    assert second.read_schedule(T0 + timedelta(seconds=1)) == []

    def reader(storage):
        """A thread's scheduler: at each next second, what became due and nobody claimed yet."""
        moments = iter(T0 + timedelta(seconds=s) for s in range(1, 220))

        def read():
            for moment in moments:
                if got := storage.read_schedule(moment):
                    return got
            return None
        return read

    claimed, _ = _drain([reader(first), reader(second), reader(first), reader(second)], threads=4)
    claimed = [data for batch in claimed for data in batch]
    assert sorted(claimed) == sorted(f"at {i}".encode() for i in range(3, 400))
    assert first.schedule_size() == 0
    first.add_to_schedule(b"later", T0)
    first.flush_schedule()
    assert second.schedule_size() == 0


def test_results_and_counters(storages):
    storage, other = storages(), storages("other")
    storage.put_data("k", b"1")
    storage.put_data("k", b"2")
    other.put_data("k", b"other's")
    assert storage.peek_data("k") == b"2" and storage.has_data_for_key("k")
    assert storage.peek_many(["k", "missing"]) == {"k": b"2"}
    assert storage.put_if_empty("k", b"3") is False
    assert storage.put_if_empty("j", b"3") is True
    assert storage.result_store_size() == 2
    assert storage.result_items() == {"k": b"2", "j": b"3"}
    assert storage.pop_data("k") == b"2"
    assert storage.pop_data("k") is EmptyData
    assert storage.delete_data("j") and not storage.delete_data("j")
    assert [storage.incr("c"), storage.incr("c", 2), other.incr("c")] == [1, 3, 1]
    storage.delete_counter("c")
    assert storage.incr("c", 0) == 0
    storage.put_data("k", b"again")
    storage.enqueue(b"t")
    storage.flush_all()
    assert (storage.result_store_size(), storage.queue_size(), storage.incr("c", 0)) == (0, 0, 0)
    assert other.peek_data("k") == b"other's"


def _work(organization, n):
    return organization, n


def _slow_lane(url) -> queue.SlowLane:
    lane = queue.SlowLane("slow", results=False, storage_class=queue.PostgresLaneStorage, url=url, utc=True)
    lane.work = lane.task(name="work")(_work)
    return lane


def test_the_slow_lanes_lines(url):
    lane, elsewhere = _slow_lane(url), queue.Lane("slow-other", storage_class=PostgresQueueStorage, url=url)
    short = PostgresQueueStorage("slow", url=url)  # a lane named like the slow one, without lines
    try:
        elsewhere.storage.enqueue(b"not the slow lane's")
        short.enqueue(b"not a line")
        for organization, n in (("org-b", 1), ("org-a", 1), ("org-a", 2), ("org-b", 2)):
            lane.work(organization, n)
        assert sorted(lane.storage.waiting_lines()) == ["org-a", "org-b"]
        assert lane.storage.queue_size() == 4 and len(lane.storage.enqueued_items()) == 4
        assert len(lane.storage.enqueued_items(limit=3)) == 3

        first, second = lane.dequeue(), lane.dequeue()
        assert [first.args, second.args] == [("org-a", 1), ("org-b", 1)]
        assert lane.dequeue() is None  # each organization runs one at a time
        lane.execute(first)
        assert lane.dequeue().args == ("org-a", 2)

        lane.storage.flush_queue()
        assert lane.storage.queue_size() == 0
        assert elsewhere.storage.queue_size() == 1 and short.queue_size() == 1
    finally:
        for storage in (lane.storage, elsewhere.storage, short):
            storage.close()


def test_two_processes_pop_an_organizations_line_once(url):
    lanes = [_slow_lane(url), _slow_lane(url)]
    try:
        for n in range(500):
            lanes[0].work("org", n)
        everything, _ = _drain([lambda lane=lane: lane.storage.pop("org") for lane in lanes], threads=8)
        assert sorted(lanes[0].deserialize_task(data).args[1] for data in everything) == list(range(500))
        assert lanes[1].storage.waiting_lines() == []
    finally:
        for lane in lanes:
            lane.storage.close()


def test_a_dropped_connection_is_replaced_within_the_call(storages, caplog):
    caplog.set_level(logging.INFO, logger=queue_postgres.__name__)
    storage = storages()
    storage.enqueue(b"before")
    _terminate(storage)
    assert storage.queue_size() == 1  # on a new connection
    _terminate(storage)
    storage.enqueue(b"after")
    _terminate(storage)
    assert [storage.dequeue(), storage.dequeue(), storage.dequeue()] == [b"before", b"after", None]
    assert "connecting again" in caplog.text


def test_a_statement_that_fails_on_a_live_connection_is_not_made_again(storages, monkeypatch):
    storage = storages()
    storage.sql("SET statement_timeout = '1ms'")
    made = []
    sql = storage.sql
    monkeypatch.setattr(storage, "sql", lambda *args, **kwargs: made.append(args) or sql(*args, **kwargs))
    with pytest.raises(psycopg.errors.QueryCanceled):  # an OperationalError, on a connection still alive
        storage._lines_sql("SELECT pg_sleep(0.2)")
    assert len(made) == 1
    storage.sql("SET statement_timeout = 0")
    assert storage.queue_size() == 0


def test_a_new_database_takes_several_processes_starting_at_once():
    url = _new_database("fresh")
    try:
        made, errors = [], []
        start = threading.Barrier(6)

        def open_storage(i):
            start.wait()
            try:
                made.append(PostgresQueueStorage(f"lane {i}", url=url))
            except Exception as exc:  # noqa: BLE001 -- reported below
                errors.append(exc)

        threads = [threading.Thread(target=open_storage, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors and len(made) == 6
        made[0].enqueue(b"x")
        assert made[0].dequeue() == b"x"
        for storage in made:
            storage.close()
    finally:
        engines.drop(url)


_ran: list = []


@queue.huey.task(name="tests.queue_postgres.record")
def _record_short(n):
    _ran.append(("short", n))


@queue.slow.task(name="tests.queue_postgres.record_slow")
def _record_slow(organization, n):
    _ran.append((organization, n))


def test_the_servers_consumers_run_on_postgresql(url, tmp_path, monkeypatch):
    """queue.configure points both lanes at PostgreSQL when the database is there, and the consumers
    the server starts (make_consumer, make_slow_consumer) run their tasks from it."""
    monkeypatch.setattr(queue.slow, "per_organization", queue.slow.per_organization)
    monkeypatch.setattr(queue.huey, "read_periodic", lambda timestamp: [])  # the app's minute checks stay out
    _ran.clear()
    queue.configure(tmp_path / "queue.db", immediate=False, database=url)
    consumers = []
    try:
        assert isinstance(queue.huey.storage, PostgresQueueStorage)
        assert isinstance(queue.slow.storage, queue.PostgresLaneStorage)
        queue.ping()
        _record_short(1)
        _record_short(2)
        _record_slow("org", 3)
        assert (queue.huey.storage.queue_size(), queue.slow.storage.queue_size()) == (2, 1)
        assert not (tmp_path / "queue.db").exists()
        consumers = [queue.make_consumer(2), queue.make_slow_consumer(1, per_organization=1)]
        for consumer in consumers:
            consumer.start()
        eventually(lambda: sorted(_ran), lambda ran: ran == [("org", 3), ("short", 1), ("short", 2)])
    finally:
        for consumer in consumers:
            consumer.stop(graceful=True)
        queue.configure(None, immediate=True)


def test_configure_keeps_queue_db_for_sqlite(tmp_path):
    try:
        queue.configure(tmp_path / "queue.db", immediate=False, database=tmp_path / "appliance.db")
        assert type(queue.huey.storage) is queue.PysqliteStorage and type(queue.slow.storage) is queue.LaneStorage
        queue.ping()
        assert (tmp_path / "queue.db").exists()
    finally:
        queue.configure(None, immediate=True)
