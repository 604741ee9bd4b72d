"""Commits of other processes heard at once on PostgreSQL (core/commit_listener.py), whichever
engine the suite runs on: a transaction that emits events notifies at its commit, once, and never
when it rolls back; a listener whose connection is cut connects again and says it may have missed
some. Two Database objects on one database stand for two processes."""

from __future__ import annotations

import queue

import psycopg
import pytest

from appliance.core import events, postgres_engine
from appliance.core.commit_listener import APPLICATION_NAME, CommitListener
from appliance.core.db import Database
from tests.fixtures import engines

HEARD_WITHIN = 10.0  # seconds: a bound for a slow machine, not a wait (the queue answers at once)


@pytest.fixture
def shared_database(request):
    """An empty database on the tests' server with the outbox's table; its URL."""
    url = engines.empty_database(f"listener_{request.node.name[:30].lower()}")
    database = Database(url)
    events.OutboxEvent.__table__.create(database.writer)
    database.dispose()
    yield url
    engines.drop(url)


@pytest.fixture
def heard(shared_database):
    """The listener of one process, started; what it hears lands in the queue."""
    calls: queue.Queue = queue.Queue()
    listener = CommitListener(shared_database, lambda: calls.put("commit"))
    listener.start()
    assert listener.listening(HEARD_WITHIN)
    yield calls
    listener.stop()


def _emit(database: Database, *, commit: bool, count: int = 1) -> None:
    with database.unit_of_work(write=True) as session:
        for number in range(count):
            events.emit(session, events.CONVERSATION_UPDATED, organization_id="o1", conversationId=f"c{number}")
        if not commit:
            session.rollback()


def test_another_process_commit_is_heard_once_and_a_rollback_never(shared_database, heard):
    other_process = Database(shared_database)
    try:
        _emit(other_process, commit=False)  # rolled back: nothing is said
        _emit(other_process, commit=True, count=3)  # three events, one commit: said once
        assert heard.get(timeout=HEARD_WITHIN) == "commit"
        _emit(other_process, commit=True)
        assert heard.get(timeout=HEARD_WITHIN) == "commit"
        # A last notification sent by hand: notifications arrive in order, so once it is heard,
        # anything more the rollback or the three events had said would have been heard before.
        with postgres_engine.connect(shared_database) as admin:
            admin.execute(f"NOTIFY {postgres_engine.EVENTS_CHANNEL}")
        assert heard.get(timeout=HEARD_WITHIN) == "commit"
        assert heard.empty()
    finally:
        other_process.dispose()


def test_a_listener_whose_connection_is_cut_connects_again_and_hears_on(shared_database, heard):
    with psycopg.connect(engines.server_url(), autocommit=True) as admin:
        # Only this test's database: other test processes share the server and have listeners too.
        ended = admin.execute("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE application_name = %s AND datname = %s) AS cut",
                              (APPLICATION_NAME, engines.database_name(shared_database))).fetchone()[0]
    assert ended == 1
    # Back, it says commits may have been missed (the streams look again)...
    assert heard.get(timeout=HEARD_WITHIN) == "commit"
    other_process = Database(shared_database)
    try:
        _emit(other_process, commit=True)
        assert heard.get(timeout=HEARD_WITHIN) == "commit"  # ...and hears the next ones
    finally:
        other_process.dispose()
