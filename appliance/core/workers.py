"""The server's background workers: threads that do its work off requests' paths (sending, the
queue's consumers, the bots, broadcasts, webhooks, the outbox's dispatcher...). Each is declared
once as a `Worker` (its name, how it starts given the runtime, how it stops) in one ordered list,
appliance/worker_registry.py, which knows the domains (this module knows none).

`start(workers, runtime)` starts them in the list's order and answers them `Started`; `stop()`
stops them in reverse. The order is the list's one rule: a worker starts before those that hand it
work, so it stops after them and nothing handed over is left without it. server.py starts them
all; tests start the same ones (tests/fixtures/workers.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from appliance.core.runtime import Runtime

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Worker:
    name: str
    start: Callable[[Runtime], Any]  # starts it; answers what `stop` is given (the worker's object)
    stop: Callable[[Any], None]  # finishes what is in hand (each says how long at most) and ends
    # Runs in every process that serves (batching what its own requests noted), not only in the one
    # holding the workers' lease (core/worker_lease.py).
    every_process: bool = False


class Started:
    """Workers started, in their order."""

    def __init__(self):
        self._started: list[tuple[Worker, Any]] = []

    def add(self, worker: Worker, started: Any) -> None:
        self._started.append((worker, started))

    @property
    def names(self) -> list[str]:
        return [worker.name for worker, _ in self._started]

    def objects(self) -> list[Any]:
        """What each worker's start answered, in order (tests look at the threads)."""
        return [started for _, started in self._started]

    def stop(self) -> None:
        """In reverse order; a worker that fails to stop is logged and the others still stop."""
        while self._started:
            worker, started = self._started.pop()
            try:
                worker.stop(started)
            except Exception:
                log.exception("stopping %s failed", worker.name)


def start(workers: Sequence[Worker], runtime: Runtime, *, only: Iterable[str] | None = None) -> Started:
    """Start `workers` (those named in `only`, when given) in order. Should one fail to start,
    those already started stop again and the error is raised."""
    wanted = None if only is None else set(only)
    unknown = (wanted or set()) - {worker.name for worker in workers}
    if unknown:
        raise ValueError(f"no such workers: {', '.join(sorted(unknown))}")
    started = Started()
    try:
        for worker in workers:
            if wanted is None or worker.name in wanted:
                started.add(worker, worker.start(runtime))
    except BaseException:
        started.stop()
        raise
    return started
