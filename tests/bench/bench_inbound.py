"""Issue 5's inbound target: signed webhook deliveries over HTTP to the running server (batches of 1
to 20 messages, 10% redelivered, statuses mixed in) for BENCH_SECONDS (default 60): messages stored
per second (goal 1,000), none lost and none duplicated (counted in the database afterwards), p99
acknowledgement (goal under 250 ms); and the raw SQLite insert rate of this machine in the same run,
as the ceiling.

Issue 45's HTTPS target (`--https`): the same deliveries over HTTPS keep at least 85% of the plain
HTTP rate of the same run with p99 under 250 ms, a new TLS connection's handshake has p95 under
20 ms, and live streams over HTTPS hold as over HTTP. With TLS on, plain HTTP answers 308 to the
webhook, so two servers run side by side, alike but for APPLIANCE_TLS (off, and `files` with a
throwaway CA's certificate): both on the same core, each fed in turn, in BENCH_ROUNDS rounds (default
3) of one plain and one HTTPS segment (the order alternates), BENCH_SECONDS of load in all; rates,
their ratio and CPU per delivery are medians of the rounds, so a noisy second of the machine slows
both alike. Besides: BENCH_HANDSHAKES (default 200) fresh connections, one after another, on the
idle server (handshake only, after TCP's connect), and one more every 50 ms during every segment;
an SSE stream on each server (of an organization without traffic, APPLIANCE_LIVE_HEARTBEAT_SECONDS
0.5) whose heartbeats' spacing is compared.

Run: .venv/bin/python tests/bench/bench_inbound.py   (BENCH_SECONDS=20 for a quick look)
     .venv/bin/python tests/bench/bench_inbound.py --https   (~1.5 minutes)
"""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import socket
import sqlite3
import ssl
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import SERVER_PIDS, _call, _free_port, running_server, scratch_dir  # noqa: E402
from waitress.server import create_server  # noqa: E402

from appliance.netsim import webhooks  # noqa: E402
from appliance.netsim.app import create_netsim_app  # noqa: E402
from appliance.netsim.simulator import Simulator  # noqa: E402
from tests.fixtures.tls import make_ca  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "8"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
HANDSHAKES = int(os.environ.get("BENCH_HANDSHAKES", "200"))
WARM_UP_SECONDS = 3.0  # each server's first deliveries (its caches, the database's first pages), not counted
HEARTBEAT_SECONDS = 0.5
HANDSHAKE_EVERY = 0.05  # a new TLS connection this often while a segment runs
TARGET_RATE, TARGET_P99_MS = 1000, 250
TARGET_HTTPS_SHARE, TARGET_HANDSHAKE_P95_MS = 0.85, 20


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


def _process_cpu_seconds(pid: int) -> float:
    """User + system CPU a process has used (/proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)] if ordered else float("nan")


def _print_timeline(timeline: list[tuple[float, float, int]], origin: float, step: float = 5.0) -> None:
    """Messages acknowledged and the slowest acknowledgement per `step` seconds: a dip shows when."""
    buckets: dict[int, list[tuple[float, int]]] = {}
    for at, seconds, count in timeline:
        buckets.setdefault(int((at - origin) // step), []).append((seconds, count))
    cells = [f"{sum(c for _, c in b) / step:.0f}/s max {max(s for s, _ in b) * 1000:.0f} ms"
             for _, b in sorted(buckets.items())]
    print(f"per {step:.0f} s: " + " | ".join(cells))


@dataclass
class Target:
    """A running server as the load sees it: where webhooks go (over TLS when `tls` is set) and the
    simulator's account whose number it has connected."""
    port: int
    account: object
    number: object
    tls: ssl.SSLContext | None = None
    pid: int = 0
    data_dir: str = ""
    sent_wamids: set[str] = field(default_factory=set)

    def connect(self, timeout: float = 30) -> http.client.HTTPConnection:
        if self.tls is None:
            return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, context=self.tls)


def _connect_account(target: Target) -> tuple[str, str]:
    """Sign up, make the organization "bench" and connect the target's account: (access token, org id)."""
    conn = target.connect(timeout=10)
    _, signup = _call(conn, "POST", "/auth/signup", {"email": "b@example.com", "password": "bench password", "name": "B"})
    jwt = signup["data"]["tokens"]["accessToken"]
    _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@b.test"}, token=jwt)
    status, _ = _call(conn, "POST", f"/organizations/{org['data']['id']}/wabas", {
        "wabaId": target.account.waba_id, "accessToken": target.account.access_token,
        "appSecret": target.account.app_secret}, token=jwt)
    assert status == 201, status
    return jwt, org["data"]["id"]


@dataclass
class Load:
    wall: float = 0.0
    acked: int = 0  # new messages acknowledged (redeliveries carry none)
    latencies: list[float] = field(default_factory=list)
    timeline: list[tuple[float, float, int]] = field(default_factory=list)  # (start, seconds, new messages)
    errors: list[int] = field(default_factory=list)


def _deliver(target: Target, seconds: float, seed_base: int = 0) -> Load:
    """CLIENTS keep-alive connections posting signed deliveries for `seconds`; each seed makes its
    own wamids, so segments on one server must use distinct `seed_base`s."""
    load, lock = Load(), threading.Lock()
    deadline = time.perf_counter() + seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        conn = target.connect()
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
                customer = f"52155{seed % 100:02d}{rng.randint(0, 999):04d}"
                messages = [{"from": customer, "id": w, "timestamp": str(int(time.time())), "type": "text",
                             "text": {"body": f"hola {w}"}} for w in wamids]
                statuses = [{"id": f"wamid.unknown{rng.random()}", "status": "delivered",
                             "timestamp": str(int(time.time())), "recipient_id": customer}] if rng.random() < 0.3 else []
                change = webhooks.messages_change(target.number, contacts=[{"profile": {"name": "C"}, "wa_id": customer}],
                                                  messages=messages, statuses=statuses)
                body = webhooks.encode(webhooks.envelope(target.account.waba_id, [change]))
                previous.append(body)
            started = time.perf_counter()
            conn.request("POST", "/webhooks/whatsapp", body, {
                "Content-Type": "application/json", "X-Hub-Signature-256": webhooks.sign(target.account.app_secret, body)})
            answer = conn.getresponse()
            answer.read()
            elapsed = time.perf_counter() - started
            with lock:
                load.latencies.append(elapsed)
                load.timeline.append((started, elapsed, len(wamids)))
                if answer.status == 200:
                    load.acked += len(wamids)
                    target.sent_wamids.update(wamids)
                else:
                    load.errors.append(answer.status)
        conn.close()

    started = time.perf_counter()
    pool = [threading.Thread(target=client, args=(seed_base + i,)) for i in range(CLIENTS)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    load.wall = time.perf_counter() - started
    return load


def _stored(data_dir: str) -> tuple[int, int, list[str]]:
    database = sqlite3.connect(Path(data_dir) / "appliance.db")
    stored = [row[0] for row in database.execute("SELECT wamid FROM messages WHERE direction = 'in'")]
    database.close()
    return len(stored), len(stored) - len(set(stored)), stored


def main() -> int:
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=netsim.run, daemon=True).start()
    graph_url = f"http://127.0.0.1:{netsim.effective_port}"
    account = simulator.network.create_account(name="Bench", numbers=[{"displayPhoneNumber": "+1 555 000 0001"}])
    number = simulator.network.numbers[account.numbers[0]]
    data_dir = scratch_dir("bench-inbound-")
    with running_server(env={"APPLIANCE_GRAPH_API_URL": graph_url}, data_dir=data_dir) as port:
        target = Target(port, account, number)
        _connect_account(target)
        started, cpu_before = time.perf_counter(), _cpu_times()
        load = _deliver(target, SECONDS)
        wall, steal = time.perf_counter() - started, _steal_share(cpu_before, _cpu_times())
    count, duplicated, stored = _stored(data_dir)
    lost = len(target.sent_wamids - set(stored))
    latencies = sorted(load.latencies)
    p99 = _quantile(latencies, 0.99) * 1000
    rate = count / wall
    ceiling = _sqlite_ceiling()
    print(f"inbound benchmark: {CLIENTS} clients, {wall:.0f} s, {len(latencies)} deliveries, "
          f"errors {len(load.errors)} {sorted(set(load.errors))}")
    print(f"messages stored          {count:8d}   ({rate:.0f}/s, goal {TARGET_RATE}/s)")
    print(f"lost / duplicated        {lost:8d} / {duplicated}")
    print(f"ack p50 / p99            {latencies[len(latencies) // 2] * 1000:6.1f} / {p99:.1f} ms (goal p99 < {TARGET_P99_MS} ms)")
    print(f"CPU steal                {steal:8.0%}   (time the hypervisor gave other VMs; the target assumes ~0)")
    print(f"raw SQLite inserts       {ceiling:8.0f} rows/s; stored rate is {rate / ceiling:.1%} of it")
    _print_timeline(load.timeline, started)
    ok = rate >= TARGET_RATE and lost == 0 and duplicated == 0 and p99 < TARGET_P99_MS and not load.errors
    return 0 if ok else 1


# --- --https ----------------------------------------------------------------------------------------

def _handshake_ms(port: int, context: ssl.SSLContext) -> float:
    """A new connection's TLS handshake (after TCP's connect), as a browser or Meta opens one."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        started = time.perf_counter()
        with context.wrap_socket(raw, server_hostname="localhost"):
            return (time.perf_counter() - started) * 1000


class _HeartbeatWatch(threading.Thread):
    """A live stream (GET /organizations/{id}/events) of an organization nothing happens in: when
    each `: heartbeat` arrived, and whether the stream broke before `stop()`."""

    def __init__(self, target: Target, org_id: str, jwt: str):
        super().__init__(daemon=True)
        self.target, self.org_id, self.jwt = target, org_id, jwt
        self.arrivals: list[float] = []
        self.broke: str | None = None
        self._conn: http.client.HTTPConnection | None = None
        self._stopping = False

    def run(self) -> None:
        self._conn = self.target.connect(timeout=30)
        try:
            self._conn.request("GET", f"/organizations/{self.org_id}/events",
                               headers={"Authorization": f"Bearer {self.jwt}", "Accept": "text/event-stream"})
            answer = self._conn.getresponse()
            if answer.status != 200:
                self.broke = f"answered {answer.status}"
                return
            while line := answer.readline():
                if line.startswith(b": heartbeat"):
                    self.arrivals.append(time.perf_counter())
            self.broke = None if self._stopping else "the server closed it"
        except (OSError, ValueError, http.client.HTTPException) as exc:
            self.broke = None if self._stopping else repr(exc)

    def stop(self) -> None:
        self._stopping = True
        with contextlib.suppress(OSError, AttributeError):
            self._conn.sock.shutdown(socket.SHUT_RDWR)
        self.join(5)

    def gaps(self, since: float, until: float) -> list[float]:
        within = [at for at in self.arrivals if since <= at <= until]
        return [b - a for a, b in zip(within, within[1:])]


@dataclass
class Segment:
    scheme: str
    load: Load
    server_cpu_ms: float  # per delivery
    client_cpu_ms: float
    handshakes: list[float]

    @property
    def rate(self) -> float:
        return self.load.acked / self.load.wall


def _segment(scheme: str, target: Target, seed_base: int, seconds: float, tls_port: int,
             tls_context: ssl.SSLContext) -> Segment:
    """One segment of deliveries to `target`, while a new TLS connection opens every HANDSHAKE_EVERY on
    the HTTPS server (in plain segments too: both kinds then carry the same extra work)."""
    handshakes: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(HANDSHAKE_EVERY):
            handshakes.append(_handshake_ms(tls_port, tls_context))

    sampler = threading.Thread(target=sample, daemon=True)
    server_cpu, client_cpu = _process_cpu_seconds(target.pid), time.process_time()
    sampler.start()
    load = _deliver(target, seconds, seed_base)
    done.set()
    sampler.join()
    deliveries = max(1, len(load.latencies))
    return Segment(scheme, load, (_process_cpu_seconds(target.pid) - server_cpu) * 1000 / deliveries,
                   (time.process_time() - client_cpu) * 1000 / deliveries, handshakes)


def main_https() -> int:
    folder = Path(scratch_dir("bench-tls-"))
    ca = make_ca("bench CA")
    chain, key = ca.leaf(("localhost",))
    (folder / "chain.pem").write_bytes(chain)
    (folder / "key.pem").write_bytes(key)
    tls_context = ssl.create_default_context(cadata=ca.pem.decode())
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=netsim.run, daemon=True).start()
    env = {"APPLIANCE_GRAPH_API_URL": f"http://127.0.0.1:{netsim.effective_port}",
           "APPLIANCE_LIVE_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS)}

    def account_of(name: str) -> tuple[object, object]:
        account = simulator.network.create_account(name=name, numbers=[{"displayPhoneNumber": "+1 555 000 0001"}])
        return account, simulator.network.numbers[account.numbers[0]]

    segment_seconds = SECONDS / (2 * ROUNDS)
    cores = os.sched_getaffinity(0)
    with contextlib.ExitStack() as servers:
        plain_dir, secure_dir, https_port = scratch_dir("bench-inbound-http-"), scratch_dir("bench-inbound-https-"), _free_port()
        plain_port = servers.enter_context(running_server(env=env, data_dir=plain_dir))
        # running_server moved this process off the server's core: given all cores back, the second
        # server is pinned to that same core (and this process leaves it again)
        os.sched_setaffinity(0, cores)
        secure_http_port = servers.enter_context(running_server(env={
            **env, "APPLIANCE_TLS": "files", "APPLIANCE_TLS_CERT": str(folder / "chain.pem"),
            "APPLIANCE_TLS_KEY": str(folder / "key.pem"), "APPLIANCE_HTTPS_PORT": str(https_port)}, data_dir=secure_dir))
        plain = Target(plain_port, *account_of("Plain"), pid=SERVER_PIDS[plain_port], data_dir=plain_dir)
        secure = Target(https_port, *account_of("Secure"), tls=tls_context, pid=SERVER_PIDS[secure_http_port],
                        data_dir=secure_dir)
        watches = {}
        for scheme, target in (("http", plain), ("https", secure)):
            jwt, _ = _connect_account(target)
            _, quiet = _call(target.connect(10), "POST", "/organizations",
                             {"name": "Quiet", "slug": "quiet", "billingEmail": "q@b.test"}, token=jwt)
            watches[scheme] = _HeartbeatWatch(target, quiet["data"]["id"], jwt)
            watches[scheme].start()

        idle_handshakes = [_handshake_ms(https_port, tls_context) for _ in range(HANDSHAKES)]
        for n, target in enumerate((plain, secure)):
            _deliver(target, WARM_UP_SECONDS, seed_base=900 + n * CLIENTS)
        print(f"inbound benchmark over HTTP and HTTPS: {CLIENTS} clients, {ROUNDS} rounds of "
              f"{segment_seconds:.0f} s + {segment_seconds:.0f} s, two servers on one core (TLS off / on)")
        segments: list[Segment] = []
        load_began, cpu_before = time.perf_counter(), _cpu_times()
        for round_ in range(ROUNDS):
            for scheme in (("http", "https") if round_ % 2 == 0 else ("https", "http")):
                found = _segment(scheme, plain if scheme == "http" else secure, seed_base=round_ * CLIENTS,
                                 seconds=segment_seconds, tls_port=https_port, tls_context=tls_context)
                segments.append(found)
                latencies = found.load.latencies
                print(f"  round {round_ + 1} {scheme:5}: {found.rate:6.0f} msg/s, {len(latencies)} deliveries, "
                      f"ack p50 {statistics.median(latencies) * 1000:5.1f} ms p99 {_quantile(latencies, 0.99) * 1000:5.1f} ms, "
                      f"errors {len(found.load.errors)}; CPU per delivery: server {found.server_cpu_ms:.2f} ms, "
                      f"load generator {found.client_cpu_ms:.2f} ms", flush=True)
        load_ended, steal = time.perf_counter(), _steal_share(cpu_before, _cpu_times())
        for watch in watches.values():
            watch.stop()
    outcome = {}
    for scheme, target in (("http", plain), ("https", secure)):
        _, duplicated, stored = _stored(target.data_dir)
        mine = [s for s in segments if s.scheme == scheme]
        outcome[scheme] = {
            "rate": statistics.median(s.rate for s in mine),
            "latencies": [x for s in mine for x in s.load.latencies],
            "errors": [e for s in mine for e in s.load.errors],
            "server_cpu": statistics.median(s.server_cpu_ms for s in mine),
            "client_cpu": statistics.median(s.client_cpu_ms for s in mine),
            "handshakes": [h for s in mine for h in s.handshakes],
            "gaps": watches[scheme].gaps(load_began, load_ended),
            "broke": watches[scheme].broke,
            "lost": len(target.sent_wamids - set(stored)), "duplicated": duplicated}
    http_, https_ = outcome["http"], outcome["https"]
    ratios = [b.rate / a.rate for a, b in zip([s for s in segments if s.scheme == "http"],
                                               [s for s in segments if s.scheme == "https"])]
    share = statistics.median(ratios)
    p99 = {scheme: _quantile(o["latencies"], 0.99) * 1000 for scheme, o in outcome.items()}
    idle_p95 = _quantile(idle_handshakes, 0.95)
    gap_max = {scheme: max(o["gaps"], default=float("inf")) for scheme, o in outcome.items()}

    def row(label: str, plain_cell: str, secure_cell: str, note: str = "") -> None:
        print(f"{label:34s} {plain_cell:>16s} {secure_cell:>16s}   {note}")

    row("", "plain HTTP", "HTTPS")
    row("messages/s (median of rounds)", f"{http_['rate']:.0f}", f"{https_['rate']:.0f}",
        f"HTTPS/HTTP per round {', '.join(f'{r:.0%}' for r in ratios)}: median {share:.0%} "
        f"(goal >= {TARGET_HTTPS_SHARE:.0%})")
    row("ack p50 / p99 ms (all deliveries)", *(f"{statistics.median(o['latencies']) * 1000:.1f} / {p99[s]:.1f}"
                                              for s, o in outcome.items()), f"(goal p99 < {TARGET_P99_MS} ms)")
    row("errors / lost / duplicated", *(f"{len(o['errors'])} / {o['lost']} / {o['duplicated']}" for o in outcome.values()))
    row("server CPU ms per delivery", *(f"{o['server_cpu']:.2f}" for o in outcome.values()),
        f"HTTPS {https_['server_cpu'] / http_['server_cpu'] - 1:+.0%}")
    row("load generator CPU ms per delivery", *(f"{o['client_cpu']:.2f}" for o in outcome.values()))
    row("live stream heartbeat gap p50/max s", *(f"{statistics.median(o['gaps'] or [float('nan')]):.2f} / {gap_max[s]:.2f}"
                                                 for s, o in outcome.items()),
        f"(every {HEARTBEAT_SECONDS} s; {len(http_['gaps'])} / {len(https_['gaps'])} gaps under load"
        + "".join(f"; {s} stream broke: {o['broke']}" for s, o in outcome.items() if o["broke"]) + ")")
    row("TLS handshake p50 / p95 ms", "", f"{statistics.median(idle_handshakes):.1f} / {idle_p95:.1f}",
        f"{len(idle_handshakes)} new connections, idle (goal p95 < {TARGET_HANDSHAKE_P95_MS} ms)")
    row("  while the plain server is fed", "", f"{statistics.median(http_['handshakes']):.1f} / "
        f"{_quantile(http_['handshakes'], 0.95):.1f}", f"{len(http_['handshakes'])} connections (same core)")
    row("  while the HTTPS server is fed", "", f"{statistics.median(https_['handshakes']):.1f} / "
        f"{_quantile(https_['handshakes'], 0.95):.1f}", f"{len(https_['handshakes'])} connections")
    print(f"CPU steal {steal:.0%} (time the hypervisor gave other VMs; the targets assume ~0)")
    # A stream holds over HTTPS as over HTTP: it never broke, and no heartbeat came later than twice
    # its interval or than a quarter beyond the plain stream's latest.
    stream_holds = not https_["broke"] and https_["gaps"] and \
        gap_max["https"] <= max(2 * HEARTBEAT_SECONDS, 1.25 * gap_max["http"])
    ok = (share >= TARGET_HTTPS_SHARE and p99["https"] < TARGET_P99_MS and idle_p95 < TARGET_HANDSHAKE_P95_MS
          and stream_holds and not any(o["errors"] or o["lost"] or o["duplicated"] for o in outcome.values()))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main_https() if "--https" in sys.argv[1:] else main())
