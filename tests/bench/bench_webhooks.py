"""Issue 22's delivery target, on loopback only: a real `appliance serve`; five webhooks on one
number hear `message.created`, their receiver (waitress in this process) answers after 50 ms.
A customer's messages arrive on that number at 200 a second (20 deliveries of 10) for
BENCH_SECONDS (default 60): 200 events/s fanned out to 5 webhooks, 1,000 deliveries a second.
Meanwhile bench_inbound's load (8 clients, 1-20 messages a delivery) runs on the other number.

Four phases of the same load: a warm-up, then the webhooks off, on, off again. Measured: the delivery lag
(receiver's clock minus the event's createdAt) p50/p99, goal p99 < 2 s; lost (an event some webhook
never got) and duplicated (a webhook got it twice), goal 0; the inbound rate of the other number
with the webhooks on, against the mean of the two phases around it (the machine's speed drifts by
up to 30% over minutes here), goal at least 85%; and the server's CPU a delivery (its
/proc user + system time in the "on" phase beyond what that phase's messages cost in the first),
the figure that decides the rate kept and that noise moves least.

`--outage`: the second target, time-scaled. One webhook hears 20 events a second; its receiver answers
503 for BENCH_DOWN_SECONDS (default 600) and then 200 again; the server runs with
APPLIANCE_WEBHOOK_RETRY_SCALE=BENCH_RETRY_SCALE (default 0.01: the decided 5 s, 5 min, 30 min...
become 0.05 s, 3 s, 18 s...). Reported: every event delivered after the receiver returned, how
many arrived before an older event of their conversation (the order kept: goal 0) or of another
conversation (those go side by side), and how long the backlog took to drain.

`--cost`: the server's CPU a delivery with no other load, webhooks off and on in turns, in all and
by thread (see `cost`).

Run: .venv/bin/python tests/bench/bench_webhooks.py   (BENCH_SECONDS=20 for a quick look;
BENCH_PROFILE=path records the server with py-spy, if installed, during the webhooks' phase:
`py-spy record --threads --gil -f raw` output: where the GIL is held, one line per stack and its count;
BENCH_PROFILE_FLAGS=" " samples every active thread instead, C calls that released the GIL included)
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import sqlite3
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_ai import _inbound, _network, _rate  # noqa: E402
from bench_auth import _call, owner_with_key, running_server, scratch_dir  # noqa: E402
from bench_bot import _post  # noqa: E402
from waitress.server import create_server  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
WEBHOOKS, EVENTS_PER_SECOND, BATCH, RECEIVER_SECONDS = 5, 200, 10, 0.05


class Receiver:
    """Every POST recorded as (path, messageId, createdAt, received at); answers 200 after 50 ms,
    or 503 at once while `down`."""

    def __init__(self):
        self.got: list[tuple[str, str, str, float]] = []
        self.down = False
        self._lock = threading.Lock()
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        self.server = create_server(self._app, host="127.0.0.1", port=0, threads=96, connection_limit=400)
        threading.Thread(target=self.server.run, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.effective_port}"

    def _app(self, environ, start_response):
        received = time.time()
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        if self.down:
            start_response("503 Service Unavailable", [("Content-Length", "0")])
            return [b""]
        envelope = json.loads(body)
        with self._lock:
            self.got.append((environ["PATH_INFO"], envelope["data"].get("messageId"), envelope["createdAt"], received))
        time.sleep(RECEIVER_SECONDS)
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "2")])
        return [b"{}"]


SOURCES = 4  # clients posting the events, each on its share of the schedule


def _events(port, simulator, account, number, phase: str, posted: list, source: int, seconds: float) -> None:
    """EVENTS_PER_SECOND / SOURCES messages a second to `number`, in deliveries of BATCH, on schedule."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started, sent, pace = time.perf_counter(), 0, EVENTS_PER_SECOND / SOURCES
    while time.perf_counter() - started < seconds:
        due = started + sent / pace
        if due > time.perf_counter():
            time.sleep(due - time.perf_counter())
        customer = f"573{source}{(sent // BATCH) % 10000:06d}"
        tag = f"{phase}{source}.{sent}"
        _post(conn, simulator, account, number, customer, [f"evento {sent + i}" for i in range(BATCH)], tag)
        posted.extend(f"wamid.{tag}.{customer}.{i}" for i in range(BATCH))
        sent += BATCH


def _start_events(port, simulator, account, number, phase: str, posted: list, seconds: float) -> list[threading.Thread]:
    """SOURCES threads posting the events for `seconds` (each on its share of the schedule)."""
    sources = [threading.Thread(target=_events, args=(port, simulator, account, number, phase, posted, n, seconds))
               for n in range(SOURCES)]
    for source in sources:
        source.start()
    return sources


def main() -> int:
    simulator, account, graph_url = _network()
    events_number, load_number = (simulator.network.numbers[n] for n in account.numbers)
    receiver = Receiver()
    data_dir = scratch_dir("bench-webhooks-")
    with running_server(env={"APPLIANCE_GRAPH_API_URL": graph_url, "APPLIANCE_ALLOWED_PRIVATE_URLS": receiver.url},
                        data_dir=data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        jwt, org_id, hooks = _webhooks(conn, account, events_number, receiver)
        server = _server_pid(port)
        names = _thread_names(server)

        def phase(name: str) -> tuple[float, list, float]:
            """(inbound rate, events posted, the server's CPU seconds a message it stored)."""
            acknowledged, posted = [], []
            began, cpu, threads = time.time(), _cpu_seconds(server), _thread_seconds(server)
            sources = _start_events(port, simulator, account, events_number, name, posted, SECONDS)
            _inbound(port, simulator, account, load_number, name, acknowledged)
            for source in sources:
                source.join()
            ended = time.time()
            cpu = _cpu_seconds(server) - cpu
            shares = _shares(threads, _thread_seconds(server), names)
            print(f"  phase {name}: server busy {cpu / (ended - began):.0%} of its core; by thread: "
                  + ", ".join(f"{group} {share:.1%}" for group, share in shares.items() if share >= 0.005), flush=True)
            return _rate(acknowledged, began, ended), posted, cpu / (sum(size for _, size in acknowledged) + len(posted))

        # A first phase makes the load's customers (the same ones come back in every phase): a
        # new customer's contact and conversation are made on its first message, and without this
        # the first measured phase ran 30-45% slower than the third in every run. Then off, on, off again: the machine's speed drifts over
        # minutes, so the rate with the webhooks on is held against the mean of the two around it.
        phase("warm-up")
        rate_off, _, message_cpu = phase("off")
        _switch(conn, jwt, org_id, hooks, True)
        time.sleep(5)  # the first phase's events fanned out (to nobody) before the webhooks hear anything
        receiver.got.clear()
        spy = _profile(port) if os.environ.get("BENCH_PROFILE") else None
        on_cpu = _cpu_seconds(server)
        rate_on, posted, _ = phase("on")
        if spy is not None:
            spy.wait()
        expected = len(posted) * WEBHOOKS
        waited = time.time()
        while len(receiver.got) < expected and time.time() - waited < 120:
            time.sleep(0.5)
        # The server's CPU a delivery: what the "on" phase and its backlog took beyond its messages'
        # own cost (at the "off" phase's CPU a message).
        on_messages = rate_on * SECONDS + len(posted)
        delivery_cpu = (_cpu_seconds(server) - on_cpu - on_messages * message_cpu) / max(1, len(receiver.got))
        got = list(receiver.got)
        _switch(conn, jwt, org_id, hooks, False)
        rate_off_again, _, _ = phase("off2")
        database = sqlite3.connect(Path(data_dir) / "appliance.db")
        ids = {row[0] for row in database.execute(
            f"SELECT id FROM messages WHERE wamid IN ({','.join('?' * len(posted))})", posted)} if posted else set()
        attempts = database.execute("SELECT count(*), sum(outcome != 'delivered') FROM webhook_attempts").fetchone()
        # Where the lag goes: the outbox to the fan-out (the delivery row written), then the sender.
        stages = database.execute(
            "SELECT avg(julianday(created_at) - julianday(replace(replace(json_extract(request_body, '$.createdAt'), 'T', ' '), 'Z', ''))), "
            "avg(julianday(delivered_at) - julianday(created_at)) FROM webhook_deliveries WHERE delivered_at IS NOT NULL").fetchone()
        durations = sorted(row[0] for row in database.execute("SELECT duration_ms FROM webhook_attempts WHERE duration_ms IS NOT NULL"))
    lags = sorted(received - _epoch(created) for _, _, created, received in got)
    seen: dict[tuple[str, str], int] = {}
    for path, message_id, _, _ in got:
        seen[(path, message_id)] = seen.get((path, message_id), 0) + 1
    lost = sum(1 for n in range(WEBHOOKS) for message_id in ids if (f"/hook{n}", message_id) not in seen)
    duplicated = sum(count - 1 for count in seen.values())
    p50 = statistics.median(lags) if lags else float("nan")
    p99 = lags[int(len(lags) * 0.99) - 1] if lags else float("nan")
    baseline = (rate_off + rate_off_again) / 2
    kept = rate_on / baseline if baseline else float("nan")
    print(f"webhooks benchmark: {WEBHOOKS} webhooks, {EVENTS_PER_SECOND} events/s for {SECONDS:.0f} s, receiver {RECEIVER_SECONDS * 1000:.0f} ms")
    print(f"  events {len(ids)}, deliveries expected {expected}, received {len(got)} "
          f"(attempts {attempts[0]}, failed {attempts[1] or 0})")
    print(f"  delivery lag p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms (goal p99 < 2000 ms)")
    print(f"  of which: outbox to fan-out {(stages[0] or 0) * 86400000:.0f} ms, fan-out to delivered {(stages[1] or 0) * 86400000:.0f} ms (means)")
    if durations:
        print(f"  one attempt (the receiver's 50 ms included): p50 {durations[len(durations) // 2]} ms, "
              f"p99 {durations[int(len(durations) * 0.99) - 1]} ms")
    print(f"  lost {lost}, duplicated {duplicated} (goal 0 and 0)")
    print(f"  inbound on the other number: {rate_off:.0f} and {rate_off_again:.0f} msg/s with the webhooks off "
          f"(before and after), {rate_on:.0f} with them on ({kept:.0%} of the mean, goal >= 85%)")
    print(f"  the server's CPU a delivery: {delivery_cpu * 1e6:.0f} µs (a stored inbound message: {message_cpu * 1e6:.0f} µs); "
          f"at {EVENTS_PER_SECOND * WEBHOOKS} deliveries a second that is {delivery_cpu * EVENTS_PER_SECOND * WEBHOOKS:.0%} of a core")
    return 0 if p99 < 2.0 and lost == 0 and duplicated == 0 and kept >= 0.85 else 1


def _webhooks(conn, account, events_number, receiver) -> tuple[str, str, list[str]]:
    """The owner's token, the organization and its WEBHOOKS webhooks on the events' number (off)."""
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
    _switch(conn, jwt, org_id, hooks, False)
    return jwt, org_id, hooks


def _switch(conn, jwt: str, org_id: str, hooks: list[str], active: bool) -> None:
    for hook in hooks:
        assert _call(conn, "PATCH", f"/organizations/{org_id}/webhooks-outbound/{hook}", {"active": active},
                     token=jwt)[0] == 200


def cost() -> int:
    """`--cost`: the server's CPU a delivery, with nothing else loading it: the events alone
    (EVENTS_PER_SECOND to one number) for BENCH_COST_PHASE seconds (default 15) with the webhooks
    off, then on, BENCH_COST_ROUNDS times (default 4). The CPU of the "on" phases (their backlog
    delivered) beyond the "off" phases' is the deliveries' (the fan-out, the sender, the POSTs).
    A figure that noise moves far less than the rate kept under load, for comparing commits. Split
    by thread the same way (each thread's "on" CPU beyond its "off" CPU, per delivery)."""
    seconds, rounds = float(os.environ.get("BENCH_COST_PHASE", "15")), int(os.environ.get("BENCH_COST_ROUNDS", "4"))
    simulator, account, graph_url = _network()
    events_number = simulator.network.numbers[account.numbers[0]]
    receiver = Receiver()
    with running_server(env={"APPLIANCE_GRAPH_API_URL": graph_url, "APPLIANCE_ALLOWED_PRIVATE_URLS": receiver.url}) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        jwt, org_id, hooks = _webhooks(conn, account, events_number, receiver)
        server = _server_pid(port)
        spent = {"off": [0.0, 0], "on": [0.0, 0]}  # CPU seconds, events
        by_thread: dict[str, dict[str, float]] = {"off": {}, "on": {}}  # CPU seconds by thread group
        for round_ in range(rounds):
            for state in ("off", "on"):
                _switch(conn, jwt, org_id, hooks, state == "on")
                time.sleep(2)
                receiver.got.clear()
                cpu, posted, threads = _cpu_seconds(server), [], _thread_seconds(server)
                for source in _start_events(port, simulator, account, events_number, f"{state}{round_}", posted, seconds):
                    source.join()
                waited = time.time()
                while state == "on" and len(receiver.got) < len(posted) * WEBHOOKS and time.time() - waited < 60:
                    time.sleep(0.1)
                time.sleep(1)  # the last outcomes written
                spent[state][0] += _cpu_seconds(server) - cpu
                spent[state][1] += len(posted)
                for group, used in _spent(threads, _thread_seconds(server), _thread_names(server)).items():
                    by_thread[state][group] = by_thread[state].get(group, 0.0) + used
        _switch(conn, jwt, org_id, hooks, False)
    (cpu_off, events_off), (cpu_on, events_on) = spent["off"], spent["on"]
    per_event = cpu_off / events_off
    per_delivery = (cpu_on - events_on * per_event) / (events_on * WEBHOOKS)
    print(f"webhooks cost: {rounds} rounds of {seconds:.0f} s off and on, {EVENTS_PER_SECOND} events/s, {WEBHOOKS} webhooks")
    print(f"  the server's CPU: an event stored {per_event * 1e6:.0f} µs; a delivery {per_delivery * 1e6:.0f} µs "
          f"(at {EVENTS_PER_SECOND * WEBHOOKS} a second, {per_delivery * EVENTS_PER_SECOND * WEBHOOKS:.0%} of a core)")
    deliveries, scale = events_on * WEBHOOKS, events_on / events_off
    parts = {group: (used - by_thread["off"].get(group, 0.0) * scale) / deliveries
             for group, used in by_thread["on"].items()}
    print("  a delivery by thread: " + ", ".join(
        f"{group} {part * 1e6:.0f} µs" for group, part in sorted(parts.items(), key=lambda item: -item[1]) if abs(part) >= 2e-6))
    return 0


def _server_pid(port: int) -> str:
    import subprocess
    return subprocess.check_output(["pgrep", "-f", "--", f"serve --port {port}"]).split()[0].decode()


def _thread_names(pid: str) -> dict[str, str]:
    """The server's threads by native id, named as Python names them (py-spy reads them; {} without it)."""
    import re
    import subprocess
    spy = Path(sys.executable).parent / "py-spy"
    if not spy.exists():
        return {}
    dump = subprocess.run([str(spy), "dump", "-p", pid], capture_output=True, text=True).stdout
    return {tid: name for tid, name in re.findall(r'^Thread (\d+) \([^)]*\): "([^"]*)"', dump, re.M)}


def _stat_seconds(stat: Path) -> float:
    """User + system time in a /proc stat file (a process's, its finished threads included, or a thread's)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _thread_seconds(pid: str) -> dict[str, float]:
    """Each thread's user + system time so far, by native id."""
    times = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            times[task.name] = _stat_seconds(task / "stat")
        except OSError:
            continue  # ended meanwhile
    return times


def _spent(before: dict[str, float], after: dict[str, float], names: dict[str, str]) -> dict[str, float]:
    """CPU seconds between two readings, by thread group (waitress workers as one)."""
    spent: dict[str, float] = {}
    for tid, seconds in after.items():
        group = names.get(tid, "other")
        group = "requests (waitress)" if group.startswith("waitress") else group
        spent[group] = spent.get(group, 0.0) + seconds - before.get(tid, 0.0)
    return spent


def _shares(before: dict[str, float], after: dict[str, float], names: dict[str, str]) -> dict[str, float]:
    """The share of the process's CPU between two readings, by thread group."""
    spent = _spent(before, after, names)
    total = sum(spent.values()) or 1.0
    return {group: seconds / total for group, seconds in sorted(spent.items(), key=lambda item: -item[1])}


def _cpu_seconds(pid: str) -> float:
    """The process's user + system time so far (Linux's /proc)."""
    return _stat_seconds(Path(f"/proc/{pid}/stat"))


def _profile(port: int):
    import subprocess
    pid = _server_pid(port)
    return subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p", pid, "-d", str(int(SECONDS * 0.8)),
                             "-r", "100", "--threads", *os.environ.get("BENCH_PROFILE_FLAGS", "--gil").split(), "-f", "raw", "-o", os.environ["BENCH_PROFILE"], "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _epoch(iso: str) -> float:
    from datetime import datetime
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def outage() -> int:
    down_seconds = float(os.environ.get("BENCH_DOWN_SECONDS", "600"))
    scale = os.environ.get("BENCH_RETRY_SCALE", "0.01")
    simulator, account, graph_url = _network()
    events_number = simulator.network.numbers[account.numbers[0]]
    receiver = Receiver()
    data_dir = scratch_dir("bench-webhooks-outage-")
    with running_server(env={"APPLIANCE_GRAPH_API_URL": graph_url, "APPLIANCE_WEBHOOK_RETRY_SCALE": scale,
                             "APPLIANCE_ALLOWED_PRIVATE_URLS": receiver.url}, data_dir=data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        jwt, org_id, _ = owner_with_key(conn)
        status, body = _call(conn, "POST", f"/organizations/{org_id}/wabas", {
            "wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret}, token=jwt)
        assert status == 201, body
        status, made = _call(conn, "POST", f"/organizations/{org_id}/webhooks-outbound", {
            "url": f"{receiver.url}/hook", "events": ["message.created"]}, token=jwt)
        assert status == 201, made
        posted: list[str] = []
        stop = threading.Event()

        def source() -> None:  # 20 events a second, for as long as the test runs
            client, sent = http.client.HTTPConnection("127.0.0.1", port, timeout=30), 0
            while not stop.is_set():
                customer = f"5730{(sent // 2) % 100000:07d}"
                _post(client, simulator, account, events_number, customer, [f"evento {sent}", f"evento {sent + 1}"], f"o{sent}")
                posted.extend(f"wamid.o{sent}.{customer}.{i}" for i in range(2))
                sent += 2
                stop.wait(0.1)

        writer = threading.Thread(target=source)
        writer.start()
        time.sleep(5)
        receiver.down = True
        went_down = time.time()
        time.sleep(down_seconds)
        receiver.down = False
        came_back = time.time()
        time.sleep(5)
        stop.set()
        writer.join()
        database = sqlite3.connect(Path(data_dir) / "appliance.db")
        deadline = time.time() + 900
        while time.time() < deadline:
            left = database.execute("SELECT count(*) FROM webhook_deliveries WHERE status IN ('PENDING', 'RETRYING')").fetchone()[0]
            if left == 0:
                break
            time.sleep(1)
        drained = time.time()
        rows = database.execute(f"SELECT id, conversation_id FROM messages WHERE wamid IN ({','.join('?' * len(posted))}) "
                                "ORDER BY id", posted).fetchall()
        order = {message_id: n for n, (message_id, _) in enumerate(rows)}
        conversation_of = dict(rows)
        failed = database.execute("SELECT count(*) FROM webhook_deliveries WHERE status = 'FAILED'").fetchone()[0]
    accepted = [(received, message_id) for _, message_id, _, received in receiver.got if message_id in order]
    during = [m for at, m in accepted if went_down <= at < came_back]
    after = [order[m] for at, m in sorted(accepted) if at >= came_back]
    inversions = sum(1 for a, b in zip(after, after[1:]) if b < a)
    latest: dict[str, int] = {}
    within = 0  # an event of a conversation arriving before an older one of the same conversation
    for _, message_id in sorted(accepted):
        conversation, n = conversation_of[message_id], order[message_id]
        within += n < latest.get(conversation, -1)
        latest[conversation] = max(n, latest.get(conversation, -1))
    missing = len(set(order) - {m for _, m in accepted})
    print(f"webhooks outage (retry delays x{scale}): receiver down {down_seconds:.0f} s, {len(order)} events")
    print(f"  accepted while down {len(during)} (goal 0), after it came back {len(after)}; never delivered {missing}, "
          f"given up {failed} (goal 0 and 0)")
    print(f"  backlog drained {drained - came_back:.0f} s after it came back; out of order within a conversation: {within} "
          f"(goal 0); across conversations {inversions} of {len(after)} arrivals (started in order, up to 64 at once)")
    return 0 if missing == 0 and failed == 0 and not during and within == 0 else 1


if __name__ == "__main__":
    raise SystemExit(outage() if "--outage" in sys.argv else cost() if "--cost" in sys.argv else main())
