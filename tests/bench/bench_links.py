"""Issue 24's short-link target, through HTTP on the running server (pinned to one core):

The public redirect `GET /l/{slug}` under load from this process (on the other core): p95 under 5 ms
and at least 1,500 redirects a second with every click recorded; then a clean stop (SIGTERM) and
the clicks in the database must equal the redirects people made (none lost), while the previews
mixed in (one request in ten, WhatsApp's own fetcher) are redirected and not counted.

Run: .venv/bin/python tests/bench/bench_links.py   (BENCH_SECONDS=10, BENCH_CLIENTS=6)
"""

from __future__ import annotations

import http.client
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, owner_with_key, running_server, scratch_dir  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "6"))
PERSON = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36"
PREVIEW = "WhatsApp/2.24.1.6 A"


def _load(port: int, path: str, seconds: float) -> tuple[list[float], int, int, int]:
    """CLIENTS threads redirecting for `seconds`: latencies, people's redirects, previews, failures."""
    latencies, counts, lock = [], [0, 0, 0], threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(n: int):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine, people, previews, failed, i = [], 0, 0, 0, 0
        while time.perf_counter() < stop_at:
            i += 1
            preview = i % 10 == 0
            began = time.perf_counter()
            conn.request("GET", path, headers={"User-Agent": PREVIEW if preview else PERSON,
                                               "Referer": "https://www.instagram.com/"})
            response = conn.getresponse()
            response.read()
            mine.append(time.perf_counter() - began)
            if response.status != 302:
                failed += 1
            elif preview:
                previews += 1
            else:
                people += 1
        with lock:
            latencies.extend(mine)
            counts[0] += people
            counts[1] += previews
            counts[2] += failed

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(latencies), *counts


def main() -> int:
    data_dir = scratch_dir("bench-links-")
    env = {"APPLIANCE_SANDBOX": "true"}
    with running_server(env, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        jwt, org_id, _ = owner_with_key(conn)
        for _ in range(100):
            _, numbers = _call(conn, "GET", f"/organizations/{org_id}/phone-numbers", token=jwt)
            if numbers["data"]:
                break
            time.sleep(0.2)
        status, link = _call(conn, "POST", f"/organizations/{org_id}/chatapp-links",
                             {"phoneNumberId": numbers["data"][0]["id"], "name": "Afiche",
                              "prefilledMessage": "Hola, vi el afiche"}, token=jwt)
        assert status == 201, link
        path = "/l/" + link["data"]["slug"]
        _load(port, path, 2.0)  # warm-up (its clicks are counted below too)
        warm = _count(data_dir, wait=True)
        latencies, people, previews, failed = _load(port, path, SECONDS)
    # running_server's exit sent SIGTERM and waited: a clean stop
    recorded = _count(data_dir) - warm
    rate = (people + previews) / SECONDS
    p50, p95 = latencies[len(latencies) // 2] * 1000, latencies[int(len(latencies) * 0.95)] * 1000
    print(f"short-link redirects, server on one core, {CLIENTS} client threads for {SECONDS:.0f} s")
    print(f"  {rate:,.0f} redirects/s (goal >= 1,500), p50 {p50:.2f} ms, p95 {p95:.2f} ms (goal < 5 ms), failed {failed}")
    print(f"  people's redirects {people:,}, clicks recorded after a clean stop {recorded:,} (lost {people - recorded}); "
          f"previews {previews:,} redirected, not counted")
    return 0 if rate >= 1500 and p95 < 5 and recorded == people and failed == 0 else 1


def _count(data_dir: str, wait: bool = False) -> int:
    if wait:
        time.sleep(1.0)  # the recorder writes every half second
    with sqlite3.connect(Path(data_dir) / "appliance.db") as db:
        return db.execute("SELECT count(*) FROM chat_link_clicks").fetchone()[0]


if __name__ == "__main__":
    sys.exit(main())
