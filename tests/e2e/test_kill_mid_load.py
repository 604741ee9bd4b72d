"""A killed server loses no acknowledged message: signed deliveries stream into the real server,
which is killed (SIGKILL, no clean shutdown) mid-load; after a restart every delivery it answered
200 is stored exactly once, and the network's redelivery of the unanswered ones completes the set."""

from __future__ import annotations

import http.client
import sqlite3
import threading
import time

from waitress.server import create_server

from appliance.netsim import webhooks
from appliance.netsim.app import create_netsim_app
from appliance.netsim.simulator import Simulator
from tests.e2e.conftest import call as _call, free_port, start_server
from tests.waiting import eventually

CLIENTS = 4


def test_acknowledged_messages_survive_a_kill(tmp_path):
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=2)
    threading.Thread(target=netsim.run, daemon=True).start()
    account = simulator.network.create_account(name="Crash", numbers=[{"displayPhoneNumber": "+1 555 000 0009"}])
    number = simulator.network.numbers[account.numbers[0]]
    env = {"APPLIANCE_GRAPH_API_URL": f"http://127.0.0.1:{netsim.effective_port}"}
    port, data_dir = free_port(), tmp_path / "data"
    server = start_server(data_dir, port, env=env)
    try:
        _, signup = _call(port, "POST", "/auth/signup", {"email": "k@example.com", "password": "kill me softly", "name": "K"})
        token = signup["data"]["tokens"]["accessToken"]
        _, org = _call(port, "POST", "/organizations", {"name": "Kill", "slug": "kill", "billingEmail": "k@k.test"}, token=token)
        status, _ = _call(port, "POST", f"/organizations/{org['data']['id']}/wabas", {
            "wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret}, token=token)
        assert status == 201

        acknowledged: set[str] = set()
        unanswered: list[tuple[bytes, list[str]]] = []
        lock, stop = threading.Lock(), threading.Event()

        def deliver(seed: int) -> None:
            conn, counter = http.client.HTTPConnection("127.0.0.1", port, timeout=5), 0
            while not stop.is_set():
                wamids = [f"wamid.kill{seed}.{counter + i}" for i in range(1 + counter % 10)]
                counter += len(wamids)
                customer = f"5215500{seed:02d}{counter % 50:04d}"
                change = webhooks.messages_change(number, contacts=[{"profile": {"name": "C"}, "wa_id": customer}], messages=[
                    {"from": customer, "id": w, "timestamp": str(int(time.time())), "type": "text", "text": {"body": w}}
                    for w in wamids])
                body = webhooks.encode(webhooks.envelope(account.waba_id, [change]))
                try:
                    conn.request("POST", "/webhooks/whatsapp", body, {
                        "Content-Type": "application/json", "X-Hub-Signature-256": webhooks.sign(account.app_secret, body)})
                    answer = conn.getresponse()
                    answer.read()
                    ok = answer.status == 200
                except (OSError, http.client.HTTPException):
                    ok = False
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                with lock:
                    if ok:
                        acknowledged.update(wamids)
                    else:
                        unanswered.append((body, wamids))
                if not ok and server.poll() is not None:
                    return

        threads = [threading.Thread(target=deliver, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        eventually(lambda: len(acknowledged), lambda count: count >= 2000, seconds=30)
        server.kill()  # SIGKILL: no shutdown hook runs, the WAL is left as it is
        server.wait(timeout=10)
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        assert len(acknowledged) >= 2000, "the load did not get going"

        server = start_server(data_dir, port, env=env)
        database = sqlite3.connect(data_dir / "appliance.db")
        stored = [row[0] for row in database.execute("SELECT wamid FROM messages")]
        assert acknowledged <= set(stored), f"{len(acknowledged - set(stored))} acknowledged messages lost"
        assert len(stored) == len(set(stored))

        for body, _ in unanswered:  # what Meta retries: whatever was not answered 200
            status, _ = _call_raw(port, body, account.app_secret)
            assert status == 200
        everything = acknowledged | {w for _, wamids in unanswered for w in wamids}
        stored = [row[0] for row in database.execute("SELECT wamid FROM messages")]
        assert set(stored) == everything and len(stored) == len(everything)
        ((integrity,),) = database.execute("PRAGMA integrity_check").fetchall()
        assert integrity == "ok"
        database.close()
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
        netsim.close()


def _call_raw(port: int, body: bytes, app_secret: str):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/webhooks/whatsapp", body, {"Content-Type": "application/json",
                                                      "X-Hub-Signature-256": webhooks.sign(app_secret, body)})
    answer = conn.getresponse()
    return answer.status, answer.read()
