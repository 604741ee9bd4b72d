"""Benchmark of the identity path on the real server (waitress + SQLite), loopback only.

Measures, in one run so that ratios are comparable on a noisy machine:
- GET /health/live (no auth, no database): the floor of a request;
- GET /users/me with a bearer JWT (signature check + session lookup + user read);
- POST /auth/refresh (a write transaction: rotation);
- POST /auth/login (argon2id verification dominates).

Run: make bench   (or .venv/bin/python tests/bench/bench_auth.py)
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import http.client

REQUESTS = 400
THREADS = 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(conn, method, path, body=None, token=None, headers=None):
    headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
    except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
        # The server closes a kept-alive connection idle for 30 s (server.IDLE_SECONDS); a benchmark
        # that waited through a phase finds it closed when it next asks: nothing was read, so again.
        conn.close()
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
    data = response.read()
    return response.status, json.loads(data) if data else None


def _measure(port, label, make_request, count=REQUESTS, threads=THREADS):
    latencies, errors = [], []
    lock = threading.Lock()

    def worker(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for i in range(n):
            started = time.perf_counter()
            status = make_request(conn, i)
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                if status >= 400:
                    errors.append(status)
    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(count // threads,)) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall = time.perf_counter() - started
    latencies.sort()
    result = {"label": label, "requests": len(latencies), "rps": len(latencies) / wall,
              "p50_ms": statistics.median(latencies) * 1000,
              "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000, "errors": len(errors)}
    print(f"{label:28s} {result['rps']:8.0f} req/s   p50 {result['p50_ms']:6.2f} ms   "
          f"p95 {result['p95_ms']:6.2f} ms   errors {result['errors']}")
    return result


def _measure_interleaved(port, variants, slices=40, per_slice=60, threads=THREADS):
    """Requests per second of each variant, measured in alternating slices: on a shared machine
    a noisy second then slows every variant alike, and their ratios stay comparable.

    `variants` maps a label to make_request(conn, i). Each variant keeps its own keep-alive
    connections, one per client thread."""
    connections = {label: [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(threads)]
                   for label in variants}
    wall = dict.fromkeys(variants, 0.0)
    done = dict.fromkeys(variants, 0)
    errors = dict.fromkeys(variants, 0)
    lock = threading.Lock()
    for _ in range(slices):
        for label, make_request in variants.items():
            def worker(conn, n, label=label, make_request=make_request):
                for i in range(n):
                    status = make_request(conn, i)
                    with lock:
                        done[label] += 1
                        errors[label] += status >= 400
            pool = [threading.Thread(target=worker, args=(conn, per_slice // threads))
                    for conn in connections[label]]
            started = time.perf_counter()
            for t in pool:
                t.start()
            for t in pool:
                t.join()
            wall[label] += time.perf_counter() - started
    results = {}
    for label in variants:
        results[label] = {"rps": done[label] / wall[label], "errors": errors[label]}
        print(f"{label:32s} {results[label]['rps']:8.0f} req/s   errors {errors[label]}")
    return results


def owner_with_key(conn) -> tuple[str, str, str]:
    """A person who owns the organization "bench" and an API key of it: (jwt, org id, key secret)."""
    _, signup = _call(conn, "POST", "/auth/signup",
                      {"email": "bench@example.com", "password": "bench password", "name": "Bench"})
    jwt = signup["data"]["tokens"]["accessToken"]
    _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench",
                                                    "billingEmail": "b@bench.test"}, token=jwt)
    _, key = _call(conn, "POST", f"/organizations/{org['data']['id']}/api-keys", {"name": "bench"}, token=jwt)
    return jwt, org["data"]["id"], key["data"]["secret"]


def scratch_dir(prefix: str) -> str:
    """A data directory removed when the benchmark ends (a webhooks run leaves ~1 GB)."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


SERVER_PIDS: dict[int, int] = {}  # port -> process id of each running_server (its CPU time, in /proc)


@contextlib.contextmanager
def running_server(env: dict | None = None, data_dir: str | None = None, *, pinned: bool = True):
    """A real `appliance serve` on a scratch data directory (extra settings in `env`); yields its port.
    `pinned=False`: the server and the load share every core, as a machine whose load comes from the
    network shares them between the server's threads (a backup's among them)."""
    port = _free_port()
    data_dir = data_dir or scratch_dir("bench-")
    # Server on core 0, this load generator on the others: on a 2-core machine they would
    # otherwise fight for the same CPU and the ratios would swing with the scheduler.
    # BENCH_SERVER_LOG=path keeps the server's log (its errors) for a look afterwards.
    server_log = open(os.environ["BENCH_SERVER_LOG"], "w") if os.environ.get("BENCH_SERVER_LOG") else subprocess.DEVNULL
    cores = sorted(os.sched_getaffinity(0))
    pin = (lambda: os.sched_setaffinity(0, {cores[0]})) if len(cores) > 1 and pinned else None
    proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", data_dir, "serve", "--port",
                             str(port), "--threads", os.environ.get("BENCH_THREADS", "8")], stdout=subprocess.DEVNULL, stderr=server_log,
                            env={"APPLIANCE_LOG_LEVEL": "WARNING", "PATH": "/usr/bin:/bin", **(env or {})},
                            preexec_fn=pin)
    if len(cores) > 1:
        os.sched_setaffinity(0, set(cores[1:]) if pinned else set(cores))
    SERVER_PIDS[port] = proc.pid
    try:
        for _ in range(150):  # /health/ready answers 503 until the server is ready: wait then too
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                if _call(conn, "GET", "/health/ready")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            raise RuntimeError(f"the server on port {port} was not ready within 30 s")
        yield port
    finally:
        SERVER_PIDS.pop(port, None)
        proc.terminate()
        proc.wait(timeout=20)


def main() -> int:
    with running_server() as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        _, signup = _call(conn, "POST", "/auth/signup",
                          {"email": "bench@example.com", "password": "bench password", "name": "Bench"})
        access = signup["data"]["tokens"]["accessToken"]
        refresh_tokens = []
        for _ in range(THREADS):  # one session per thread, each rotating its own token
            _, login = _call(conn, "POST", "/auth/login", {"email": "bench@example.com", "password": "bench password"})
            refresh_tokens.append([login["data"]["tokens"]["refreshToken"]])
        print(f"identity benchmark: {REQUESTS} requests per line, {THREADS} client threads, loopback")
        live = _measure(port, "GET /health/live", lambda c, i: _call(c, "GET", "/health/live")[0])
        me = _measure(port, "GET /users/me (JWT)", lambda c, i: _call(c, "GET", "/users/me", token=access)[0])
        per_thread = threading.local()

        def refresh(c, i):
            if not hasattr(per_thread, "tokens"):
                per_thread.tokens = refresh_tokens.pop()
            status, body = _call(c, "POST", "/auth/refresh", {"refreshToken": per_thread.tokens[0]})
            if status == 200:
                per_thread.tokens[0] = body["data"]["tokens"]["refreshToken"]
            return status
        rotate = _measure(port, "POST /auth/refresh", refresh)
        login = _measure(port, "POST /auth/login (argon2id)", lambda c, i: _call(
            c, "POST", "/auth/login", {"email": "bench@example.com", "password": "bench password"})[0], count=80)
        print(f"ratios: /users/me costs {me['p50_ms'] / live['p50_ms']:.1f}x /health/live (p50); "
              f"refresh {rotate['p50_ms'] / live['p50_ms']:.1f}x; login {login['p50_ms'] / live['p50_ms']:.0f}x")
        return 1 if any(r["errors"] for r in (live, me, rotate, login)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
