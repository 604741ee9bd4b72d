"""Issue 7's inbox targets, measured through HTTP on the running server (sandbox mode):

A generator fills one organization with BENCH_CONVERSATIONS (default 100,000) conversations and
BENCH_MESSAGES (default 1,000,000) messages written straight into the database through the models'
tables and the search index (as the app writes them), then the server starts on it and one client
measures p95 of (after 10 warm-up requests each):
  - the first page of the conversation list (goal < 25 ms), and with filters (goal < 50 ms);
  - message search, newest first (goal < 50 ms);
  - unread counts (goal < 25 ms);
and 50 live-update streams must all receive a new customer message's event within 1 s.

Run: .venv/bin/python tests/bench/bench_inbox.py   (BENCH_CONVERSATIONS=10000 BENCH_MESSAGES=100000 for a quick look)
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402

CONVERSATIONS = int(os.environ.get("BENCH_CONVERSATIONS", "100000"))
MESSAGES = int(os.environ.get("BENCH_MESSAGES", "1000000"))
STREAMS = 50
STREAMS_PER_CALLER = 5  # appliance/live/feed.py's
SAMPLES = 200
WARM_UP = 10
WORDS = ("hola pan dulce concha bolillo pastel cumpleaños entrega mañana tarde precio cuánto cuesta gracias "
         "pedido domicilio tienda abierto cerrado horario factura pago tarjeta efectivo transferencia envío "
         "chocolate vainilla fresa rebanada docena kilo café leche galletas harina integral sin azúcar "
         "reservar apartar recoger sucursal centro norte sur cancelar cambiar dirección teléfono").split()


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[94] * 1000 if len(values) >= 20 else max(values) * 1000


def fill(data_dir: str, org_id: str, number_id: str, user_id: str) -> dict:
    """Write the conversations and messages of one organization; answers what the queries need."""
    from appliance import bootstrap
    from appliance.contacts.models import Contact
    from appliance.conversations.models import Conversation, ConversationTag
    from appliance.core import clock
    from appliance.core.rows import insert_many
    from appliance.core.ids import new_id
    from appliance.messages import search_index
    from appliance.messages.models import Message
    from appliance.settings import load_settings
    from appliance.tags.models import Tag

    random.seed(7)
    runtime = bootstrap.start(load_settings({}, data_dir=Path(data_dir)), migrate=False)
    database = runtime.db
    now = clock.now()
    per_conversation = max(1, MESSAGES // CONVERSATIONS)
    tags = [dict(id=new_id(), organization_id=org_id, name=f"Etiqueta {i}", name_key=f"etiqueta {i}", color="#64748b",
                 created_at=now, updated_at=now) for i in range(10)]
    started = time.perf_counter()
    with database.unit_of_work(write=True) as session:
        insert_many(session, Tag.__table__, tags)
    batch = 2000
    for start in range(0, CONVERSATIONS, batch):
        contacts, conversations, links, messages = [], [], [], []
        for i in range(start, min(start + batch, CONVERSATIONS)):
            contact_id, conversation_id = new_id(), new_id()
            last = now - timedelta(minutes=(CONVERSATIONS - i) * 90 * 24 * 60 // CONVERSATIONS)
            contacts.append(dict(id=contact_id, organization_id=org_id, wa_id=f"52155{i:08d}", name=f"Cliente {i}",
                                 bot_excluded=False, attributes={}, created_at=last, updated_at=last))
            roll = random.random()
            status = "open" if roll < .7 else "closed" if roll < .9 else "snoozed"
            conversations.append(dict(
                id=conversation_id, organization_id=org_id, phone_number_pk=number_id, contact_id=contact_id,
                status=status, assignee_user_id=user_id if random.random() < .2 else None,
                unread=random.random() < .3, pinned=random.random() < .001, handoff_pending=random.random() < .02,
                last_message_at=last, last_inbound_at=last, preview="…", created_at=last, updated_at=last,
                snoozed_until=now + timedelta(days=1) if status == "snoozed" else None))
            if random.random() < .2:
                links.append(dict(conversation_id=conversation_id, tag_id=random.choice(tags)["id"], created_at=last))
            for j in range(per_conversation):
                at = last - timedelta(minutes=(per_conversation - j) * 7)
                inbound = j % 2 == 0
                text = " ".join(random.choices(WORDS, k=random.randint(3, 12)))
                messages.append(dict(
                    id=new_id(), organization_id=org_id, phone_number_pk=number_id, conversation_id=conversation_id,
                    contact_id=contact_id, direction="in" if inbound else "out", wamid=f"wamid.bench.{i}.{j}",
                    type="text", payload={"text": {"body": text}} if inbound else {"body": text},
                    status="received" if inbound else "read", customer_wa_id=f"52155{i:08d}",
                    sent_by_user_id=None if inbound else user_id, hidden=False, send_attempts=0, media_attempts=0,
                    sent_at=at, created_at=at, updated_at=at))
        with database.unit_of_work(write=True) as session:
            insert_many(session, Contact.__table__, contacts)
            insert_many(session, Conversation.__table__, conversations)
            insert_many(session, ConversationTag.__table__, links)
            search_index.index_new(session, messages)
            insert_many(session, Message.__table__, messages)
        done = start + batch
        if done % 20000 == 0:
            print(f"  {done:,} conversations, {done * per_conversation:,} messages "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    with database.unit_of_work(write=True) as session:
        session.connection().exec_driver_sql("ANALYZE")
    database.dispose()
    print(f"filled in {time.perf_counter() - started:.0f} s", flush=True)
    return {"tag_id": tags[3]["id"]}


def _measure(port: int, token: str, path: str) -> tuple[float, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(WARM_UP):  # steady state: the first reads after a start fetch pages from disk
        _call(conn, "GET", path, token=token)
    latencies = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        status, _ = _call(conn, "GET", path, token=token)
        latencies.append(time.perf_counter() - started)
        assert status == 200, (status, path)
    return _p95(latencies), statistics.median(latencies) * 1000


def _stream_keys(port: int, token: str, org_id: str) -> list[str]:
    """API keys enough for STREAMS streams: the server lets each person or key hold
    STREAMS_PER_CALLER (live/feed.py), as fifty agents would each hold their own."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    keys = []
    for index in range(-(-STREAMS // STREAMS_PER_CALLER)):
        status, made = _call(conn, "POST", f"/organizations/{org_id}/api-keys",
                             {"name": f"agent {index}", "scopes": ["conversations:read", "messages:read"]}, token=token)
        assert status == 201, (status, made)
        keys.append(made["data"]["secret"])
    return keys


def _streams(port: int, keys: list[str], org_id: str, number: str) -> list[float]:
    """Open STREAMS event streams (STREAMS_PER_CALLER a key), make a customer write; each stream's
    delay to message.created."""
    ready, arrived, lock = threading.Barrier(STREAMS + 1), [], threading.Lock()
    sent_at = [0.0]

    def listen(key: str):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", f"/organizations/{org_id}/events", headers={"X-Api-Key": key})
        response = conn.getresponse()
        assert response.status == 200, response.status
        response.fp.readline()  # the stream is open
        ready.wait()
        while True:
            line = response.fp.readline().decode()
            if line.startswith("event: message.created"):
                with lock:
                    arrived.append(time.perf_counter() - sent_at[0])
                conn.close()
                return

    threads = [threading.Thread(target=listen, args=(keys[i // STREAMS_PER_CALLER],), daemon=True)
               for i in range(STREAMS)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(0.5)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent_at[0] = time.perf_counter()
    status, _ = _call(conn, "POST", "/netsim/_control/inbound", {"phoneNumberId": number, "from": "5215599999999",
                                                                "name": "Nueva", "type": "text", "text": {"body": "¡Hola!"}})
    assert status == 201, status
    for t in threads:
        t.join(10)
    return arrived


def main() -> int:
    # One organization may hold three quarters of the server's stream slots (the threads past the
    # 8 kept for requests): 80 threads let its 50 streams open, as a 50-agent business would set.
    os.environ["BENCH_THREADS"] = "80"
    data_dir = scratch_dir("bench-inbox-")
    env = {"APPLIANCE_SANDBOX": "true"}
    with running_server(env, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, signup = _call(conn, "POST", "/auth/signup", {"email": "bench@example.com", "password": "bench password",
                                                          "name": "Bench"})
        token, user_id = signup["data"]["tokens"]["accessToken"], signup["data"]["user"]["id"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@b.test"},
                       token=token)
        org_id = org["data"]["id"]
        for _ in range(100):
            _, numbers = _call(conn, "GET", f"/organizations/{org_id}/phone-numbers", token=token)
            if numbers["data"]:
                break
            time.sleep(0.2)
        number = numbers["data"][0]
    print(f"inbox benchmark: {CONVERSATIONS:,} conversations, {MESSAGES:,} messages, one organization")
    shape = fill(data_dir, org_id, number["id"], user_id)
    with running_server(env, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, login = _call(conn, "POST", "/auth/login", {"email": "bench@example.com", "password": "bench password"})
        token = login["data"]["tokens"]["accessToken"]
        base = f"/organizations/{org_id}/conversations"
        cases = [
            ("list, first page", base, 25),
            ("list, status=open", f"{base}?status=open", 50),
            ("list, mine (assignee=me, open)", f"{base}?status=open&assigneeUserId=me", 50),
            ("list, unassigned unread", f"{base}?status=open&assigneeUserId=none&unreadOnly=true", 50),
            ("list, tag", f"{base}?tagId={shape['tag_id']}", 50),
            ("list, handoff pending", f"{base}?handoffPending=true", 50),
            ("list, contact search", f"{base}?search=Cliente%201234", 50),
            ("search, common word", f"{base}/search?q=pan", 50),
            ("search, two words", f"{base}/search?q=pastel%20cumplea", 50),
            ("search, accents folded", f"{base}/search?q=CUMPLEANOS&direction=in", 50),
            ("search, rare pair", f"{base}/search?q=vainilla%20transferencia%20sucursal", 50),
            ("unread counts", f"{base}/unread-counts", 25),
        ]
        failures = 0
        for label, path, goal in cases:
            p95, median = _measure(port, token, path)
            verdict = "ok" if p95 < goal else "OVER"
            failures += p95 >= goal
            print(f"  {label:38s} p95 {p95:6.1f} ms  median {median:6.1f} ms  (goal < {goal} ms) {verdict}")
        delays = _streams(port, _stream_keys(port, token, org_id), org_id, number["phoneNumberId"])
        worst = max(delays) if delays else float("inf")
        verdict = "ok" if len(delays) == STREAMS and worst < 1.0 else "OVER"
        failures += verdict != "ok"
        print(f"  {STREAMS} event streams: {len(delays)} got message.created, slowest after {worst * 1000:.0f} ms "
              f"(goal: all within 1000 ms) {verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
