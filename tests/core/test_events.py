"""The outbox: events reach their listeners once, after commit, never when rolled back; a failing
listener is skipped. Handing over runs twice: inline (a queue task after the commit), and on the
server's dispatcher thread (tests/fixtures/workers.py)."""

import pytest

from appliance.core import dispatcher, events, runtime, tasks
from tests.waiting import eventually


@pytest.fixture
def received(app, monkeypatch):
    monkeypatch.setattr(events, "CATALOG", events.CATALOG | {"test.happened", "test.broken"})  # the outbox alone
    seen = []

    @dispatcher.subscribe("test.happened", "test.broken")
    def record(session, event):
        if event.name == "test.broken":
            raise RuntimeError("listener bug")
        seen.append(event.data["n"])
    yield seen
    dispatcher._listeners.pop(f"{record.__module__}.{record.__qualname__}")


def test_committed_events_reach_listeners_once(received, background):
    """An event emitted in a committed transaction is handed over once, after commit."""
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        events.emit(session, "test.happened", n=1)
        assert received == []  # not before commit
    eventually(lambda: received, lambda seen: seen == [1])
    dispatcher.dispatch_pending(database)  # another dispatcher (the minute's sweep) finds nothing more
    background.advance(0)
    assert received == [1]


def test_rolled_back_events_are_never_announced(received):
    """An event whose transaction rolls back does not exist."""
    database = runtime.get().db
    with pytest.raises(ValueError):
        with database.unit_of_work(write=True) as session:
            events.emit(session, "test.happened", n=2)
            raise ValueError
    dispatcher.dispatch_pending(database)
    assert received == []


def test_a_failing_listener_does_not_stall_later_events(received, background):
    """A listener error is recorded and later events still arrive."""
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        events.emit(session, "test.broken", n=0)
        events.emit(session, "test.happened", n=3)
    background.advance(0)  # every event heard
    assert received == [3]
    with database.unit_of_work(write=False) as session:
        cursor = session.get(dispatcher.OutboxCursor, "tests.core.test_events.received.<locals>.record")
        assert "listener bug" in cursor.last_error


def test_events_survive_a_lost_wake_up(received, monkeypatch):
    """If the process dies between commit and dispatch, the sweep delivers the event later."""
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        events.emit(session, "test.happened", n=4)
        session.info["after_commit"].clear()  # the wake-up is lost, as in a crash
    assert received == []
    tasks.sweep_outbox.call_local()
    assert received == [4]


def test_events_come_from_the_catalog():
    """Every emitted or subscribed name is a constant of core/events.py; an unknown name is refused."""
    import ast
    from pathlib import Path

    import pytest

    from appliance.core import events

    literal = []
    for path in Path(events.__file__).parents[1].rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("emit", "emit_many", "subscribe")
                    and any(isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in node.args)):
                literal.append(f"{path.name}:{node.lineno}")
    assert literal == []
    with pytest.raises(ValueError, match="not in the catalog"):
        events.emit(None, "conversation.exploded")
    assert set(events.LIVE) <= events.CATALOG


@pytest.fixture
def batches(app, monkeypatch):
    monkeypatch.setattr(events, "CATALOG", events.CATALOG | {"test.happened", "test.broken"})
    seen = []

    @dispatcher.subscribe("test.happened", "test.broken", batch=True)
    def hear(session, batch):
        for event in batch:
            if event.name == "test.broken":
                raise RuntimeError("listener bug")
        seen.append([event.data["n"] for event in batch])
    yield seen
    dispatcher._listeners.pop(f"{hear.__module__}.{hear.__qualname__}")


def test_a_batch_listener_hears_a_commit_s_events_together(batches, background):
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        for n in (1, 2, 3):
            events.emit(session, "test.happened", n=n)
    background.advance(0)
    assert batches == [[1, 2, 3]]


def test_a_failing_batch_is_heard_again_one_at_a_time_and_only_the_bad_event_is_skipped(batches):
    database = runtime.get().db
    with database.unit_of_work(write=True) as session:
        events.emit(session, "test.happened", n=1)
        events.emit(session, "test.broken", n=0)
        events.emit(session, "test.happened", n=2)
    assert batches == [[1], [2]]
    with database.unit_of_work(write=False) as session:
        cursor = session.get(dispatcher.OutboxCursor, "tests.core.test_events.batches.<locals>.hear")
        assert "listener bug" in cursor.last_error
    dispatcher.dispatch_pending(database)
    assert batches == [[1], [2]]
