"""The webhook sender's POSTs alone: CPU a request of `outbound_webhooks.posting.Poster` (libcurl's
multi interface on one thread) against the standard library's http.client on a pool of threads
(how the sender posted before 2026-11-26), signing included, on loopback only.

A receiver in its own process (on the other core) answers every POST after BENCH_DELAY seconds
(default 0.05, as bench_webhooks' receiver); this process, on one core, keeps BENCH_CONCURRENCY
(default 64) requests in the air until BENCH_REQUESTS (default 5,000) are answered, once each way.
Reported: requests a second and CPU µs a request (this process's user + system time). The receiver
adds nothing to either: it runs elsewhere.

Run: .venv/bin/python tests/bench/bench_posting.py
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from appliance.address_rule import AddressRule  # noqa: E402
from appliance.outbound_webhooks import envelopes, posting  # noqa: E402
from appliance.settings import parse_origins  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "5000"))
CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "64"))
DELAY = float(os.environ.get("BENCH_DELAY", "0.05"))
BODY = '{"id":"evt_bench","type":"message.created","createdAt":"2026-11-26T15:00:00Z","data":{' + \
    ",".join(f'"k{n}":"valor {n}"' for n in range(30)) + "}}"
SIGNER = envelopes.signer(envelopes.new_secret())

RECEIVER = """
import asyncio, sys
async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\\r\\n\\r\\n")
            length = next(int(l.split(b":")[1]) for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            await asyncio.sleep(float(sys.argv[2]))
            writer.write(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: 2\\r\\n\\r\\n{}")
    except Exception:
        writer.close()
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", int(sys.argv[1]), backlog=1000)
    print("ready", flush=True)
    await server.serve_forever()
asyncio.run(main())
"""


def _headers() -> dict[str, str]:
    return envelopes.headers(SIGNER, "evt_bench", BODY, datetime.now(timezone.utc))


def with_poster(url: str) -> float:
    done = threading.Event()
    answered = [0]
    started = [0]

    def on_answer(_tag, answer: posting.Answer) -> None:
        assert answer.status == 200, answer
        answered[0] += 1
        if started[0] < REQUESTS:
            started[0] += 1
            poster.post(url, BODY.encode(), _headers(), timeout=15, tag=None)
        elif answered[0] == REQUESTS:
            done.set()

    loopback = AddressRule(allowed=parse_origins(url.rsplit("/", 1)[0]))  # the receiver's origin (this machine)
    poster = posting.Poster(on_answer, addresses=lambda: loopback, name="bench-posts")
    for _ in range(min(CONCURRENCY, REQUESTS)):
        started[0] += 1
        poster.post(url, BODY.encode(), _headers(), timeout=15, tag=None)
    done.wait()
    poster.close()
    return REQUESTS


def with_threads(port: int) -> float:
    """http.client, a kept-alive connection per thread, as posting.py did before libcurl."""
    left = [REQUESTS]
    lock = threading.Lock()

    def work() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        while True:
            with lock:
                if left[0] == 0:
                    return
                left[0] -= 1
            connection.request("POST", "/hook", body=BODY.encode(), headers=_headers())
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200

    threads = [threading.Thread(target=work) for _ in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return REQUESTS


def measure(name: str, run) -> None:
    run_cpu, began = time.process_time(), time.perf_counter()
    count = run()
    took, cpu = time.perf_counter() - began, time.process_time() - run_cpu
    print(f"  {name:<34} {count / took:7.0f} requests/s, {cpu / count * 1e6:5.0f} µs of CPU a request")


def main() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cores = sorted(os.sched_getaffinity(0))
    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER, str(port), str(DELAY)], stdout=subprocess.PIPE,
                                preexec_fn=(lambda: os.sched_setaffinity(0, set(cores[1:]))) if len(cores) > 1 else None)
    try:
        receiver.stdout.readline()
        os.sched_setaffinity(0, {cores[0]})
        print(f"posting benchmark: {REQUESTS} signed POSTs, {CONCURRENCY} in the air, receiver {DELAY * 1000:.0f} ms")
        measure("libcurl multi, one thread (now)", lambda: with_poster(f"http://127.0.0.1:{port}/hook"))
        measure(f"http.client, {CONCURRENCY} threads (before)", lambda: with_threads(port))
    finally:
        receiver.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
