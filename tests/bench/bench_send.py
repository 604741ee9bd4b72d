"""Issue 6's sending target, through the API of the running server against the simulator:

1. a number at 1,000 messages/s: BENCH_MESSAGES (default 20,000) texts posted by 16 concurrent
   connections to BENCH_RECIPIENTS customers who wrote first; all must reach the simulator exactly
   once. Reports accepted requests per second, end-to-end messages per second (first POST to the
   simulator's last acceptance), their ratio to the tier (goal at least 0.9), and p99 POST latency;
2. a number at 80 messages/s sent a burst of 800: zero 130429 provoked, and the rate it kept.

The simulator runs in this process on the load generator's core, the server on its own
(bench_auth.running_server), as in bench_inbound.py.

Run: .venv/bin/python tests/bench/bench_send.py   (BENCH_MESSAGES=4000 for a quick look)
To see where the time goes: BENCH_API_ONLY=1 (the number sends one message a second: the API's own
rate), BENCH_NO_STATUSES=1 (the simulator posts no status webhooks back).
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402
from bench_inbound import _cpu_times, _steal_share  # noqa: E402
from waitress.server import create_server  # noqa: E402

from appliance.netsim.app import create_netsim_app  # noqa: E402
from appliance.netsim.simulator import Simulator  # noqa: E402

MESSAGES = int(os.environ.get("BENCH_MESSAGES", "20000"))
RECIPIENTS = int(os.environ.get("BENCH_RECIPIENTS", "1000"))
CONNECTIONS = 16
TIER, SLOW_TIER, SLOW_BURST = 1000, 80, 800
TARGET_RATIO = 0.9


def _post_all(port: int, key: str, org_id: str, number_id: str, recipients: list[str], count: int, tag: str):
    """`count` texts over CONNECTIONS keep-alive connections; (latencies, accepted ids, errors, wall)."""
    latencies: list[float] = []
    accepted: list[str] = []
    errors: Counter = Counter()
    lock = threading.Lock()
    next_index = iter(range(count))

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json", "X-Api-Key": key}
        for i in next_index:  # shared iterator: each index taken once (the GIL makes next() atomic)
            body = json.dumps({"phoneNumberId": number_id, "to": recipients[i % len(recipients)], "type": "text",
                               "payload": {"body": f"{tag} {i}"}, "clientId": f"{tag}-{i}"})
            started = time.perf_counter()
            conn.request("POST", f"/organizations/{org_id}/messages", body, headers)
            answer = conn.getresponse()
            data = answer.read()
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                if answer.status == 201:
                    accepted.append(json.loads(data)["data"]["id"])
                else:
                    errors[answer.status] += 1

    started = time.perf_counter()
    pool = [threading.Thread(target=client) for _ in range(CONNECTIONS)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies, accepted, errors, time.perf_counter() - started


def _wait_sent(simulator: Simulator, number_id: str, expected: int, timeout: float) -> float:
    """Until the simulator accepted `expected` messages from the number; answers when the last came."""
    deadline = time.monotonic() + timeout
    while True:
        with simulator.network.lock:
            mine = [m for m in simulator.network.sent if m["phone_number_id"] == number_id]
        if len(mine) >= expected or time.monotonic() > deadline:
            return max((m["at"] for m in mine), default=time.time())
        time.sleep(0.2)


def main() -> int:
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=16)
    threading.Thread(target=netsim.run, daemon=True).start()
    graph_url = f"http://127.0.0.1:{netsim.effective_port}"
    network = simulator.network
    account = network.create_account(name="Bench", numbers=[
        {"displayPhoneNumber": "+1 555 000 0001", "messagesPerSecond": TIER},
        {"displayPhoneNumber": "+1 555 000 0002", "messagesPerSecond": SLOW_TIER}])
    fast_id, slow_id = account.numbers
    data_dir = scratch_dir("bench-send-")
    env = {"APPLIANCE_GRAPH_API_URL": graph_url, **{k: v for k, v in os.environ.items() if k.startswith("APPLIANCE_")}}
    with running_server(env=env, data_dir=data_dir) as port:
        account.webhook_url = f"http://127.0.0.1:{port}/webhooks/whatsapp"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, signup = _call(conn, "POST", "/auth/signup", {"email": "b@example.com", "password": "bench password", "name": "B"})
        jwt = signup["data"]["tokens"]["accessToken"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@b.test"}, token=jwt)
        org_id = org["data"]["id"]
        status, _ = _call(conn, "POST", f"/organizations/{org_id}/wabas", {
            "wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret}, token=jwt)
        assert status == 201, status
        _, key = _call(conn, "POST", f"/organizations/{org_id}/api-keys", {"name": "bench"}, token=jwt)
        _, numbers = _call(conn, "GET", f"/organizations/{org_id}/phone-numbers", token=jwt)
        ours = {n["phoneNumberId"]: n for n in numbers["data"]}
        assert ours[fast_id]["messagesPerSecond"] == TIER and ours[slow_id]["messagesPerSecond"] == SLOW_TIER
        recipients = [f"5215{i:08d}" for i in range(RECIPIENTS)]
        for wa_id in recipients:  # each customer writes first: the 24-hour window is open
            simulator.customer_writes(fast_id, wa_id, {"type": "text", "text": {"body": "hola"}})
            simulator.customer_writes(slow_id, wa_id, {"type": "text", "text": {"body": "hola"}})
        assert simulator.deliverer.wait_idle(timeout=300)
        if os.environ.get("BENCH_API_ONLY"):  # the API alone: the number sends one message a second
            _call(conn, "PATCH", f"/organizations/{org_id}/phone-numbers/{ours[fast_id]['id']}",
                  {"messagesPerSecond": 1}, token=jwt)
        if os.environ.get("BENCH_NO_STATUSES"):  # to see what the status webhooks cost the sending
            account.webhook_url = None

        cpu_before = time.perf_counter(), _cpu_times()
        started_wall = time.time()
        latencies, accepted, errors, post_wall = _post_all(port, key["data"]["secret"], org_id, ours[fast_id]["id"],
                                                           recipients, MESSAGES, "fast")
        last_at = _wait_sent(simulator, fast_id, len(accepted), timeout=MESSAGES / 50)
        steal = _steal_share(cpu_before[1], _cpu_times())
        with network.lock:
            fast_sent = [m for m in network.sent if m["phone_number_id"] == fast_id]
        per_message = Counter(m["biz_opaque_callback_data"] for m in fast_sent)
        once = sum(1 for message_id in accepted if per_message.get(message_id) == 1)
        twice = sum(1 for count in per_message.values() if count > 1)
        end_to_end = len(fast_sent) / max(last_at - started_wall, 1e-9)
        accepted_rate = len(accepted) / post_wall
        latencies.sort()
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000

        refused_before = dict(network.refused)
        slow_started = time.time()
        _, slow_accepted, slow_errors, _ = _post_all(port, key["data"]["secret"], org_id, ours[slow_id]["id"],
                                                     recipients, SLOW_BURST, "slow")
        slow_last = _wait_sent(simulator, slow_id, len(slow_accepted), timeout=60)
        throttled = network.refused.get(130429, 0) - refused_before.get(130429, 0)
        with network.lock:
            slow_sent = sum(1 for m in network.sent if m["phone_number_id"] == slow_id)
        slow_rate = slow_sent / max(slow_last - slow_started, 1e-9)

    print(f"send benchmark: {MESSAGES} texts, {CONNECTIONS} connections, {RECIPIENTS} recipients, tier {TIER}/s")
    print(f"accepted by the API      {len(accepted):8d}   ({accepted_rate:.0f} requests/s); errors {dict(errors)}")
    print(f"reached the simulator    {len(fast_sent):8d}   exactly once: {once}, more than once: {twice}")
    print(f"end-to-end               {end_to_end:8.0f} messages/s = {end_to_end / TIER:.2f} of the tier (goal {TARGET_RATIO})")
    print(f"POST p50 / p99           {latencies[len(latencies) // 2] * 1000:6.1f} / {p99:.1f} ms")
    print(f"CPU steal                {steal:8.0%}")
    print(f"tier {SLOW_TIER}: burst of {SLOW_BURST}: sent {slow_sent} at {slow_rate:.1f}/s, 130429 provoked: {throttled}, "
          f"errors {dict(slow_errors)}")
    print(f"refused by the simulator overall: {dict(network.refused)}")
    ok = (once == len(accepted) == MESSAGES and twice == 0 and end_to_end / TIER >= TARGET_RATIO
          and throttled == 0 and slow_sent == SLOW_BURST)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
