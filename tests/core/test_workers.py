"""The server's background workers: one registry (appliance/worker_registry.py), started in its
order and stopped in reverse (core/workers.py), by the server and by tests alike."""

import importlib
import sys

import pytest

from appliance.core import workers
from appliance.core.background import WakeableThread
from appliance.core.dispatcher import dispatcher
from appliance.worker_registry import WORKERS


def _recording(log: list, name: str, fails: bool = False) -> workers.Worker:
    def start(runtime):
        if fails:
            raise RuntimeError(f"{name} cannot start")
        log.append(f"start {name}")
        return name

    return workers.Worker(name, start, lambda started: log.append(f"stop {started}"))


def test_workers_start_in_their_order_and_stop_in_reverse():
    log = []
    started = workers.start([_recording(log, "first"), _recording(log, "second"), _recording(log, "third")], None,
                            only=["first", "third"])
    assert started.names == ["first", "third"]
    started.stop()
    assert log == ["start first", "start third", "stop third", "stop first"]


def test_a_worker_that_cannot_start_stops_those_started_before_it():
    log = []
    with pytest.raises(RuntimeError, match="second cannot start"):
        workers.start([_recording(log, "first"), _recording(log, "second", fails=True), _recording(log, "third")], None)
    assert log == ["start first", "stop first"]
    with pytest.raises(ValueError, match="no such workers: fourth"):
        workers.start([_recording(log, "first")], None, only=["fourth"])


def test_the_registry_names_each_worker_once():
    names = [worker.name for worker in WORKERS]
    assert len(names) == len(set(names))
    # The orders its comments explain: what hands a worker work starts after it.
    assert names.index("checkpointer") == 0
    assert names.index("webhooks") < names.index("outbox dispatcher") < names.index("sender") < names.index("queue")
    assert names.index("ai workers") < names.index("bot runner")
    assert names.index("sender") < names.index("broadcast runner")


def test_every_thread_that_sleeps_by_the_clock_is_a_registered_worker(start_workers):
    """A thread of the package's that the registry misses would run in no server (and in no test
    of the threads)."""
    importlib.import_module("appliance.handler_registry")  # every module with work of its own
    sleepers = {id(value): value for module in list(sys.modules.values())
                if getattr(module, "__name__", "").startswith("appliance.")
                for value in list(vars(module).values()) if isinstance(value, WakeableThread)}
    assert len(sleepers) >= 3  # the bots', the broadcasts' and the webhooks'
    running = start_workers()
    assert set(sleepers) <= {id(started) for started in running.objects()}
    assert all(thread.running for thread in sleepers.values()) and dispatcher.running
    assert running.names == [worker.name for worker in WORKERS]
