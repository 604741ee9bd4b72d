"""Pacing of sends, so the appliance never provokes the network's own limits: a number's throughput
(130429) and the pair rate to one person (131056). In memory, per process: the limits are Meta's
per number, and one process sends for a number (see lanes.py).

Throughput is counted the way the network counts it: requests arriving within any one second.
A request arrives somewhere between the moment we start it and the moment its answer is back, so a
new request may start only while fewer than `rate` requests are in the air or were answered less
than a second ago. That holds whatever the latency and its jitter, without a safety margin.
"""

from __future__ import annotations

import threading
import time
from collections import deque

PAIR_BURST = 40  # Meta allows 45 in a burst; a margin for clock differences
PAIR_INTERVAL_SECONDS = 6.5  # Meta: one message per 6 s to the same person, sustained


class ThroughputGate:
    """At most `rate` requests may reach the network in any second."""

    def __init__(self, rate: int):
        self.rate = max(1, int(rate))
        self._answered: deque[float] = deque()  # monotonic times answers came back, last second
        self._in_flight = 0
        self._changed = threading.Condition()

    def acquire(self, *, stop: threading.Event | None = None) -> bool:
        """Wait for a turn; False if `stop` was set meanwhile."""
        with self._changed:
            while True:
                now = time.monotonic()
                while self._answered and now - self._answered[0] >= 1.0:
                    self._answered.popleft()
                if self._in_flight + len(self._answered) < self.rate:
                    self._in_flight += 1
                    return True
                if stop is not None and stop.is_set():
                    return False
                wait = 1.0 - (now - self._answered[0]) if self._answered else 0.05
                self._changed.wait(max(0.001, min(wait, 0.25)))

    def release(self) -> None:
        with self._changed:
            self._in_flight -= 1
            self._answered.append(time.monotonic())
            self._changed.notify()

    def set_rate(self, rate: int) -> None:
        with self._changed:
            self.rate = max(1, int(rate))
            self._changed.notify_all()


class PairRate:
    """Per (number, recipient) token buckets: a burst, then one message per interval."""

    def __init__(self, *, burst: int = PAIR_BURST, interval: float = PAIR_INTERVAL_SECONDS, max_pairs: int = 100_000):
        self.burst, self.interval, self.max_pairs = float(burst), interval, max_pairs
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # pair -> (tokens, at)
        self._lock = threading.Lock()

    def take(self, number: str, recipient: str) -> float:
        """Take a token: 0.0 if the message may go now, else the seconds until it may."""
        now = time.monotonic()
        key = (number, recipient)
        with self._lock:
            tokens, at = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) / self.interval)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return (1.0 - tokens) * self.interval
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self.max_pairs:
                self._forget_full(now)
            return 0.0

    def _forget_full(self, now: float) -> None:
        """Buckets that refilled completely carry no information."""
        full_after = self.burst * self.interval
        for key, (_, at) in list(self._buckets.items()):
            if now - at >= full_after:
                del self._buckets[key]


class Pacer:
    """The gates of every number this process sends for, and the pair buckets."""

    def __init__(self):
        self._gates: dict[str, ThroughputGate] = {}
        self._lock = threading.Lock()
        self.pairs = PairRate()

    def gate(self, phone_number_pk: str, rate: int) -> ThroughputGate:
        with self._lock:
            gate = self._gates.get(phone_number_pk)
            if gate is None:
                gate = self._gates[phone_number_pk] = ThroughputGate(rate)
            elif gate.rate != rate:
                gate.set_rate(rate)
            return gate


pacer = Pacer()
