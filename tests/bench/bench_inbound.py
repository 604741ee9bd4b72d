"""Issue 5's inbound target: signed webhook deliveries over HTTP to the running server (batches of 1
to 20 messages, 10% redelivered, statuses mixed in) for BENCH_SECONDS (default 60): messages stored
per second (goal 1,000), none lost and none duplicated (counted in the database afterwards), p99
acknowledgement (goal under 250 ms); and the raw SQLite insert rate of this machine in the same run,
as the ceiling.

Run: .venv/bin/python tests/bench/bench_inbound.py   (BENCH_SECONDS=20 for a quick look)
"""

from __future__ import annotations

import http.client
import os
import random
import sqlite3
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402
from waitress.server import create_server  # noqa: E402

from appliance.netsim import webhooks  # noqa: E402
from appliance.netsim.app import create_netsim_app  # noqa: E402
from appliance.netsim.simulator import Simulator  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "8"))
TARGET_RATE, TARGET_P99_MS = 1000, 250


def _sqlite_ceiling(seconds: float = 3.0) -> float:
    """Rows per second SQLite takes here: batches of 10 rows of a message-like table, one
    transaction each, WAL and synchronous=FULL as the appliance runs."""
    path = Path(scratch_dir("ceiling-")) / "c.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE m (id TEXT PRIMARY KEY, wamid TEXT UNIQUE, conversation TEXT, payload TEXT, at TEXT)")
    rows, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        db.execute("BEGIN IMMEDIATE")
        db.executemany("INSERT INTO m VALUES (?, ?, ?, ?, ?)", [
            (f"id{rows + i}", f"wamid.{rows + i}", "c", '{"text":{"body":"hola"}}', "2026-11-21") for i in range(10)])
        db.execute("COMMIT")
        rows += 10
    return rows / (time.perf_counter() - started)


def _cpu_times() -> list[int]:
    """The machine's CPU counters (user nice system idle iowait irq softirq steal), from /proc/stat."""
    with open("/proc/stat") as stat:
        return [int(v) for v in stat.readline().split()[1:9]]


def _steal_share(before: list[int], after: list[int]) -> float:
    """Share of CPU time the hypervisor took from this VM between two readings (`st` in vmstat)."""
    spent = [b - a for a, b in zip(before, after)]
    return spent[7] / max(1, sum(spent))


def _print_timeline(timeline: list[tuple[float, float, int]], origin: float, step: float = 5.0) -> None:
    """Messages acknowledged and the slowest acknowledgement per `step` seconds: a dip shows when."""
    buckets: dict[int, list[tuple[float, int]]] = {}
    for at, seconds, count in timeline:
        buckets.setdefault(int((at - origin) // step), []).append((seconds, count))
    cells = [f"{sum(c for _, c in b) / step:.0f}/s max {max(s for s, _ in b) * 1000:.0f} ms"
             for _, b in sorted(buckets.items())]
    print(f"per {step:.0f} s: " + " | ".join(cells))


def main() -> int:
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=netsim.run, daemon=True).start()
    graph_url = f"http://127.0.0.1:{netsim.effective_port}"
    account = simulator.network.create_account(name="Bench", numbers=[{"displayPhoneNumber": "+1 555 000 0001"}])
    number = simulator.network.numbers[account.numbers[0]]
    data_dir = scratch_dir("bench-inbound-")
    with running_server(env={"APPLIANCE_GRAPH_API_URL": graph_url}, data_dir=data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        _, signup = _call(conn, "POST", "/auth/signup", {"email": "b@example.com", "password": "bench password", "name": "B"})
        jwt = signup["data"]["tokens"]["accessToken"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@b.test"}, token=jwt)
        status, _ = _call(conn, "POST", f"/organizations/{org['data']['id']}/wabas", {
            "wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret}, token=jwt)
        assert status == 201, status
        sent_wamids: set[str] = set()
        latencies: list[float] = []
        timeline: list[tuple[float, float, int]] = []  # (start, seconds, new messages) per delivery
        errors: list[int] = []
        lock = threading.Lock()
        deadline = time.perf_counter() + SECONDS

        def client(seed: int) -> None:
            rng = random.Random(seed)
            http_conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            previous: list[bytes] = []
            counter = 0
            while time.perf_counter() < deadline:
                if previous and rng.random() < 0.10:
                    body = rng.choice(previous)  # a redelivery
                    wamids = []
                else:
                    size = rng.randint(1, 20)
                    wamids = [f"wamid.bench{seed}.{counter + i}" for i in range(size)]
                    counter += size
                    customer = f"52155{seed:02d}{rng.randint(0, 999):04d}"
                    messages = [{"from": customer, "id": w, "timestamp": str(int(time.time())), "type": "text",
                                 "text": {"body": f"hola {w}"}} for w in wamids]
                    statuses = [{"id": f"wamid.unknown{rng.random()}", "status": "delivered",
                                 "timestamp": str(int(time.time())), "recipient_id": customer}] if rng.random() < 0.3 else []
                    change = webhooks.messages_change(number, contacts=[{"profile": {"name": "C"}, "wa_id": customer}],
                                                      messages=messages, statuses=statuses)
                    body = webhooks.encode(webhooks.envelope(account.waba_id, [change]))
                    previous.append(body)
                started = time.perf_counter()
                http_conn.request("POST", "/webhooks/whatsapp", body, {
                    "Content-Type": "application/json", "X-Hub-Signature-256": webhooks.sign(account.app_secret, body)})
                answer = http_conn.getresponse()
                answer.read()
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    timeline.append((started, elapsed, len(wamids)))
                    if answer.status == 200:
                        sent_wamids.update(wamids)
                    else:
                        errors.append(answer.status)

        started, cpu_before = time.perf_counter(), _cpu_times()
        pool = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        wall, steal = time.perf_counter() - started, _steal_share(cpu_before, _cpu_times())
    database = sqlite3.connect(Path(data_dir) / "appliance.db")
    stored = [row[0] for row in database.execute("SELECT wamid FROM messages WHERE direction = 'in'")]
    lost = len(sent_wamids - set(stored))
    duplicated = len(stored) - len(set(stored))
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan")
    rate = len(stored) / wall
    ceiling = _sqlite_ceiling()
    print(f"inbound benchmark: {CLIENTS} clients, {wall:.0f} s, {len(latencies)} deliveries, "
          f"errors {len(errors)} {sorted(set(errors))}")
    print(f"messages stored          {len(stored):8d}   ({rate:.0f}/s, goal {TARGET_RATE}/s)")
    print(f"lost / duplicated        {lost:8d} / {duplicated}")
    print(f"ack p50 / p99            {latencies[len(latencies) // 2] * 1000:6.1f} / {p99:.1f} ms (goal p99 < {TARGET_P99_MS} ms)")
    print(f"CPU steal                {steal:8.0%}   (time the hypervisor gave other VMs; the target assumes ~0)")
    print(f"raw SQLite inserts       {ceiling:8.0f} rows/s; stored rate is {rate / ceiling:.1%} of it")
    _print_timeline(timeline, started)
    ok = rate >= TARGET_RATE and lost == 0 and duplicated == 0 and p99 < TARGET_P99_MS and not errors
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
