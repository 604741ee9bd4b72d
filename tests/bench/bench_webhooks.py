"""Issue 22's delivery target, on loopback only: a real `appliance serve`; five webhooks on one
number hear `message.created`, their receiver (waitress in this process) answers after 50 ms.
A customer's messages arrive on that number at 200 a second (20 deliveries of 10) for
BENCH_SECONDS (default 60): 200 events/s fanned out to 5 webhooks, 1,000 deliveries a second.
Meanwhile bench_inbound's load (8 clients, 1-20 messages a delivery) runs on the other number.

Measured: the delivery lag (receiver's clock minus the event's createdAt) p50/p99, goal p99 < 2 s;
lost (an event some webhook never got) and duplicated (a webhook got it twice), goal 0; and the
inbound rate of the other number with the webhooks on, against the same run with them off (goal
at least 85%).

Run: .venv/bin/python tests/bench/bench_webhooks.py   (BENCH_SECONDS=20 for a quick look;
BENCH_PROFILE=path records the server with py-spy, if installed, during the webhooks' phase:
`py-spy record --threads --gil -f raw` output: where the GIL is held, one line per stack and its count)
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_ai import _inbound, _network, _rate  # noqa: E402
from bench_auth import _call, owner_with_key, running_server  # noqa: E402
from bench_bot import _post  # noqa: E402
from waitress.server import create_server  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
WEBHOOKS, EVENTS_PER_SECOND, BATCH, RECEIVER_SECONDS = 5, 200, 10, 0.05


class Receiver:
    """Every POST recorded as (path, messageId, createdAt, received at); answers 200 after 50 ms."""

    def __init__(self):
        self.got: list[tuple[str, str, str, float]] = []
        self._lock = threading.Lock()
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        self.server = create_server(self._app, host="127.0.0.1", port=0, threads=96, connection_limit=400)
        threading.Thread(target=self.server.run, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.effective_port}"

    def _app(self, environ, start_response):
        received = time.time()
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        envelope = json.loads(body)
        with self._lock:
            self.got.append((environ["PATH_INFO"], envelope["data"].get("messageId"), envelope["createdAt"], received))
        time.sleep(RECEIVER_SECONDS)
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "2")])
        return [b"{}"]


SOURCES = 4  # clients posting the events, each on its share of the schedule


def _events(port, simulator, account, number, phase: str, posted: list, source: int) -> None:
    """EVENTS_PER_SECOND / SOURCES messages a second to `number`, in deliveries of BATCH, on schedule."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started, sent, pace = time.perf_counter(), 0, EVENTS_PER_SECOND / SOURCES
    while time.perf_counter() - started < SECONDS:
        due = started + sent / pace
        if due > time.perf_counter():
            time.sleep(due - time.perf_counter())
        customer = f"573{source}{(sent // BATCH) % 10000:06d}"
        tag = f"{phase}{source}.{sent}"
        _post(conn, simulator, account, number, customer, [f"evento {sent + i}" for i in range(BATCH)], tag)
        posted.extend(f"wamid.{tag}.{customer}.{i}" for i in range(BATCH))
        sent += BATCH


def main() -> int:
    simulator, account, graph_url = _network()
    events_number, load_number = (simulator.network.numbers[n] for n in account.numbers)
    receiver = Receiver()
    data_dir = tempfile.mkdtemp(prefix="bench-webhooks-")
    with running_server(env={"APPLIANCE_GRAPH_API_URL": graph_url}, data_dir=data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        jwt, org_id, _ = owner_with_key(conn)
        status, body = _call(conn, "POST", f"/organizations/{org_id}/wabas", {
            "wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret}, token=jwt)
        assert status == 201, body
        _, numbers = _call(conn, "GET", f"/organizations/{org_id}/phone-numbers", token=jwt)
        by_display = {n["displayPhoneNumber"]: n["id"] for n in numbers["data"]}
        events_pk = by_display[events_number.display_phone_number]
        hooks = []
        for n in range(WEBHOOKS):
            status, made = _call(conn, "POST", f"/organizations/{org_id}/webhooks-outbound", {
                "url": f"{receiver.url}/hook{n}", "events": ["message.created"], "phoneNumberIds": [events_pk]}, token=jwt)
            assert status == 201, made
            hooks.append(made["data"]["id"])
        for hook in hooks:  # off for the first phase: the same load, nothing fanned out
            assert _call(conn, "PATCH", f"/organizations/{org_id}/webhooks-outbound/{hook}", {"active": False}, token=jwt)[0] == 200

        def phase(name: str) -> tuple[float, list]:
            acknowledged, posted = [], []
            began = time.time()
            sources = [threading.Thread(target=_events, args=(port, simulator, account, events_number, name, posted, n))
                       for n in range(SOURCES)]
            for source in sources:
                source.start()
            _inbound(port, simulator, account, load_number, name, acknowledged)
            for source in sources:
                source.join()
            return _rate(acknowledged, began, time.time()), posted

        rate_off, _ = phase("off")
        for hook in hooks:
            assert _call(conn, "PATCH", f"/organizations/{org_id}/webhooks-outbound/{hook}", {"active": True}, token=jwt)[0] == 200
        time.sleep(5)  # the first phase's events fanned out (to nobody) before the webhooks hear anything
        receiver.got.clear()
        spy = _profile(port) if os.environ.get("BENCH_PROFILE") else None
        rate_on, posted = phase("on")
        if spy is not None:
            spy.wait()
        expected = len(posted) * WEBHOOKS
        waited = time.time()
        while len(receiver.got) < expected and time.time() - waited < 120:
            time.sleep(0.5)
        database = sqlite3.connect(Path(data_dir) / "appliance.db")
        ids = {row[0] for row in database.execute(
            f"SELECT id FROM messages WHERE wamid IN ({','.join('?' * len(posted))})", posted)} if posted else set()
        attempts = database.execute("SELECT count(*), sum(outcome != 'delivered') FROM webhook_attempts").fetchone()
        # Where the lag goes: the outbox to the fan-out (the delivery row written), then the sender.
        stages = database.execute(
            "SELECT avg(julianday(created_at) - julianday(replace(replace(json_extract(request_body, '$.createdAt'), 'T', ' '), 'Z', ''))), "
            "avg(julianday(delivered_at) - julianday(created_at)) FROM webhook_deliveries WHERE delivered_at IS NOT NULL").fetchone()
        durations = sorted(row[0] for row in database.execute("SELECT duration_ms FROM webhook_attempts WHERE duration_ms IS NOT NULL"))
    got = list(receiver.got)
    lags = sorted(received - _epoch(created) for _, _, created, received in got)
    seen: dict[tuple[str, str], int] = {}
    for path, message_id, _, _ in got:
        seen[(path, message_id)] = seen.get((path, message_id), 0) + 1
    lost = sum(1 for n in range(WEBHOOKS) for message_id in ids if (f"/hook{n}", message_id) not in seen)
    duplicated = sum(count - 1 for count in seen.values())
    p50 = statistics.median(lags) if lags else float("nan")
    p99 = lags[int(len(lags) * 0.99) - 1] if lags else float("nan")
    kept = rate_on / rate_off if rate_off else float("nan")
    print(f"webhooks benchmark: {WEBHOOKS} webhooks, {EVENTS_PER_SECOND} events/s for {SECONDS:.0f} s, receiver {RECEIVER_SECONDS * 1000:.0f} ms")
    print(f"  events {len(ids)}, deliveries expected {expected}, received {len(got)} "
          f"(attempts {attempts[0]}, failed {attempts[1] or 0})")
    print(f"  delivery lag p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms (goal p99 < 2000 ms)")
    print(f"  of which: outbox to fan-out {(stages[0] or 0) * 86400000:.0f} ms, fan-out to delivered {(stages[1] or 0) * 86400000:.0f} ms (means)")
    if durations:
        print(f"  one attempt (the receiver's 50 ms included): p50 {durations[len(durations) // 2]} ms, "
              f"p99 {durations[int(len(durations) * 0.99) - 1]} ms")
    print(f"  lost {lost}, duplicated {duplicated} (goal 0 and 0)")
    print(f"  inbound on the other number: {rate_off:.0f} msg/s with the webhooks off, {rate_on:.0f} with them on "
          f"({kept:.0%}, goal >= 85%)")
    return 0 if p99 < 2.0 and lost == 0 and duplicated == 0 and kept >= 0.85 else 1


def _profile(port: int):
    import subprocess
    pid = subprocess.check_output(["pgrep", "-f", "--", f"serve --port {port}"]).split()[0].decode()
    return subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p", pid, "-d", str(int(SECONDS * 0.8)),
                             "-r", "100", "--threads", "--gil", "-f", "raw", "-o", os.environ["BENCH_PROFILE"], "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _epoch(iso: str) -> float:
    from datetime import datetime
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


if __name__ == "__main__":
    raise SystemExit(main())
