"""The limits of calls to systems outside the appliance made for a request: an AI provider's
connection check and model list, the probador, the configurador, Google's code exchange when a
calendar is connected. One organization must not stall every other through the request threads
(70 checks against a provider that answered slowly made another organization's contact list take
22 s), so each such call:

- runs on a thread of its own, and the request waits for it at most `LIMIT_SECONDS` (10 s), then
  answers 504 `outside_call_timeout` (a client's own timeouts count a read at a time: a server that
  trickles its answer never trips them);
- counts against its organization's `PER_ORGANIZATION` (2) calls at once; beyond, 429
  `outside_calls_busy` at once, without waiting.

A call the request stopped waiting for keeps its place until it really ends (its client's own
timeout), so an organization never holds more than two such threads. Counted in this process's
memory, as the server is one process (server.py)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Callable, TypeVar

from appliance.core.errors import GatewayTimeout, TooMany

LIMIT_SECONDS = 10.0
PER_ORGANIZATION = 2

T = TypeVar("T")
_running: Counter[str] = Counter()
_lock = threading.Lock()


def call(organization_id: str, fn: Callable[..., T], *args, **kwargs) -> T:
    """`fn(*args, **kwargs)` within the limits above; its answer, or what it raised."""
    with _lock:
        if _running[organization_id] >= PER_ORGANIZATION:
            raise TooMany(f"At most {PER_ORGANIZATION} calls to outside services at once per organization: "
                          "wait for the ones in progress.", code="outside_calls_busy", retry_after=int(LIMIT_SECONDS))
        _running[organization_id] += 1
    outcome: dict = {}
    finished = threading.Event()

    def run() -> None:
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the request's thread, which raises it
            outcome["error"] = exc
        finally:
            with _lock:
                _running[organization_id] -= 1
                if not _running[organization_id]:
                    del _running[organization_id]
            finished.set()

    threading.Thread(target=run, name="outside-call", daemon=True).start()
    if not finished.wait(LIMIT_SECONDS):
        raise GatewayTimeout(f"The outside service did not answer within {LIMIT_SECONDS:g} seconds.",
                             code="outside_call_timeout")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def running(organization_id: str) -> int:
    """How many calls of the organization are in progress (what tests wait for)."""
    with _lock:
        return _running[organization_id]
