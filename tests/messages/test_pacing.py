"""The pacing that keeps the appliance under the network's limits (130429, 131056)."""

import threading
import time

from appliance.messages.sending.pacing import PairRate, ThroughputGate


def test_a_request_waits_while_rate_requests_are_in_the_air_or_answered_within_a_second():
    gate, stop = ThroughputGate(3), threading.Event()
    for _ in range(3):
        assert gate.acquire(stop=stop)
    stop.set()
    assert gate.acquire(stop=stop) is False  # three in the air: no fourth
    for _ in range(3):
        gate.release()
    assert gate.acquire(stop=stop) is False  # answered less than a second ago: they still count
    stop.clear()
    started = time.monotonic()
    assert gate.acquire(stop=stop)
    assert 0.9 <= time.monotonic() - started < 1.5


def test_pair_rate_allows_a_burst_then_one_per_interval():
    pairs = PairRate(burst=3, interval=10.0)
    assert [pairs.take("n1", "5215500000001") for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = pairs.take("n1", "5215500000001")
    assert 9.0 < wait <= 10.0  # the next token in ~one interval
    assert pairs.take("n1", "5215500000002") == 0.0  # another customer has their own bucket
    assert pairs.take("n2", "5215500000001") == 0.0  # and so does another number
