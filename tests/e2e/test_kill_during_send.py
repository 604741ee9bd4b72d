"""A server killed during a burst of sends neither loses nor doubles a message: texts stream into the
real server while the (slowed) simulator accepts them; SIGKILL; restart. Afterwards every message is
either on the network exactly once (and, once its status webhook lands, sent or delivered with the
network's wamid) or failed with the reason (-3: it was in the air) and not on the network."""

from __future__ import annotations

import http.client
import threading
from collections import Counter

from waitress.server import create_server

from appliance.netsim.app import create_netsim_app
from appliance.netsim.simulator import Simulator
from tests.e2e.conftest import call as _call, free_port, rows_of, start_server
from tests.waiting import eventually

CLIENTS = 4
CUSTOMERS = [f"52155{i:08d}" for i in range(40)]


def _outbound(data_dir):
    return rows_of(data_dir, "SELECT id, client_id, status, wamid, error_code, send_state FROM messages "
                             "WHERE direction = 'out'")


def test_a_kill_during_a_burst_sends_each_message_once_or_explains_it(tmp_path):
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=netsim.run, daemon=True).start()
    port, data_dir = free_port(), tmp_path / "data"
    account = simulator.network.create_account(name="Burst", webhook_url=f"http://127.0.0.1:{port}/webhooks/whatsapp",
                                               numbers=[{"displayPhoneNumber": "+1 555 000 0010"}])
    number_id = account.numbers[0]
    env = {"APPLIANCE_GRAPH_API_URL": f"http://127.0.0.1:{netsim.effective_port}"}
    server = start_server(data_dir, port, env=env)
    try:
        _, signup = _call(port, "POST", "/auth/signup", {"email": "s@example.com", "password": "send me softly", "name": "S"})
        token = signup["data"]["tokens"]["accessToken"]
        _, org = _call(port, "POST", "/organizations", {"name": "Burst", "slug": "burst", "billingEmail": "b@b.test"},
                       token=token)
        org_id = org["data"]["id"]
        assert _call(port, "POST", f"/organizations/{org_id}/wabas", {
            "wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret},
            token=token)[0] == 201
        key = _call(port, "POST", f"/organizations/{org_id}/api-keys", {"name": "pos"}, token=token)[1]["data"]["secret"]
        phone_number_pk = _call(port, "GET", f"/organizations/{org_id}/phone-numbers", token=token)[1]["data"][0]["id"]
        for customer in CUSTOMERS:
            simulator.customer_writes(number_id, customer, {"type": "text", "text": {"body": "hola"}})
        assert simulator.deliverer.wait_idle(timeout=60)
        simulator.faults.update({"slowSeconds": 0.05})  # sends take a while: some are in the air at the kill

        acknowledged: dict[str, str] = {}  # clientId -> message id
        unanswered: list[dict] = []  # the bodies that got no answer, repeated as they were
        lock, stop = threading.Lock(), threading.Event()

        def post(seed: int) -> None:
            counter = 0
            while not stop.is_set():
                client_id = f"c{seed}-{counter}"
                body = {"phoneNumberId": phone_number_pk, "to": CUSTOMERS[(seed * 7 + counter) % len(CUSTOMERS)],
                        "type": "text", "payload": {"body": client_id}, "clientId": client_id}
                counter += 1
                try:
                    status, answer = _call(port, "POST", f"/organizations/{org_id}/messages", body, key=key)
                except (OSError, http.client.HTTPException):
                    status, answer = 0, None
                with lock:
                    if status == 201:
                        acknowledged[client_id] = answer["data"]["id"]
                    else:
                        unanswered.append(body)
                if status != 201 and server.poll() is not None:
                    return

        threads = [threading.Thread(target=post, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        eventually(lambda: len(simulator.network.sent), lambda sent: sent >= 60, seconds=30, every=0.02)
        server.kill()  # SIGKILL mid-burst: claimed sends are in the air
        server.wait(timeout=10)
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        assert len(simulator.network.sent) >= 60, "the burst did not get going"
        in_air = sum(1 for row in _outbound(data_dir) if row[5] == "inflight")

        server = start_server(data_dir, port, env=env)
        # The caller repeats exactly what got no answer (same recipient, same clientId). (Repeating
        # them all to one person once queued more than the pair rate lets go in the wait below.)
        for body in unanswered:
            status, answer = _call(port, "POST", f"/organizations/{org_id}/messages", body, key=key)
            assert status in (200, 201), answer
            acknowledged[body["clientId"]] = answer["data"]["id"]

        eventually(lambda: _outbound(data_dir), lambda rows: not any(row[5] for row in rows), seconds=90, every=0.2)
        assert simulator.deliverer.wait_idle(timeout=90)
        rows = {row[0]: row for row in _outbound(data_dir)}
        on_network = Counter(m["biz_opaque_callback_data"] for m in simulator.network.sent)
        wamid_of = {m["biz_opaque_callback_data"]: m["wamid"] for m in simulator.network.sent}

        assert max(on_network.values()) == 1, "a message was sent twice"
        assert set(acknowledged.values()) <= set(rows), "an acknowledged message was lost"
        assert set(on_network) <= set(rows)
        interrupted = 0
        for message_id, (_, _, status, wamid, error_code, send_state) in rows.items():
            assert send_state is None, rows[message_id]
            if message_id in on_network:
                assert status in ("sent", "delivered") and wamid == wamid_of[message_id], rows[message_id]
            else:
                assert status == "failed" and error_code == -3 and wamid is None, rows[message_id]
                interrupted += 1
        assert interrupted <= in_air
        print(f"in the air at the kill: {in_air}, failed -3: {interrupted}, messages: {len(rows)}")
        assert rows_of(data_dir, "PRAGMA integrity_check") == [("ok",)]
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
        netsim.close()
        for log in sorted(tmp_path.glob("server-*.log")):  # shown when the test fails
            print(f"--- {log.name}\n{log.read_text()[-8000:]}")
