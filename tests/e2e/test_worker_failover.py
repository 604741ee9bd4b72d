"""Issue 48: on PostgreSQL, one web process and two worker processes (APPLIANCE_ROLE); the worker
that runs the background work is killed (SIGKILL) in the middle of a broadcast and a burst of
customers the bot answers. The other takes the workers' lease over (core/worker_lease.py) without
a restart: the broadcast completes and the bot answers on, nobody gets a message twice, and what
was in the air at the kill is failed with the reason (-3) instead of being sent again.
Whichever engine the suite runs on, these processes use the tests' PostgreSQL server."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest
from waitress.server import create_server

from appliance.core import postgres_engine
from appliance.netsim.app import create_netsim_app
from appliance.netsim.simulator import Simulator
from tests.e2e.conftest import call as _call, free_port, start_server
from tests.fixtures import engines
from tests.waiting import eventually

RECIPIENTS = 300
CUSTOMERS = [f"52166{i:08d}" for i in range(40)]  # write to the bot while the broadcast runs
LEASE_HELD = "this process runs the background workers"
STANDING_BY = "standing by to take over"


@pytest.fixture
def shared_database():
    url = engines.empty_database("failover")
    yield url
    engines.drop(url)


def _worker(data_dir: Path, name: str, env: dict) -> subprocess.Popen:
    log_path = data_dir.parent / f"worker-{name}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), "serve"],
                                   stdout=log, stderr=subprocess.STDOUT, text=True,
                                   env={**os.environ, **env, "APPLIANCE_ROLE": "worker", "APPLIANCE_LOG_LEVEL": "INFO"})
    process.log_path = log_path
    return process


def _said(process, words: str) -> bool:
    return words in process.log_path.read_text()


def _rows(url: str, sql: str) -> list[tuple]:
    with postgres_engine.connect(url) as connection:
        return connection.execute(sql).fetchall()


def test_a_worker_killed_midway_hands_over_without_sending_twice(tmp_path, shared_database):
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=16)
    threading.Thread(target=netsim.run, daemon=True).start()
    port, data_dir = free_port(), tmp_path / "data"
    account = simulator.network.create_account(name="Promo", webhook_url=f"http://127.0.0.1:{port}/webhooks/whatsapp",
                                               numbers=[{"displayPhoneNumber": "+1 555 000 0048"}])
    number_id = account.numbers[0]
    env = {"APPLIANCE_GRAPH_API_URL": f"http://127.0.0.1:{netsim.effective_port}",
           "APPLIANCE_DATABASE_URL": shared_database}
    processes = [start_server(data_dir, port, env={**env, "APPLIANCE_ROLE": "web"})]  # migrates first
    try:
        first = _worker(data_dir, "first", env)
        processes.append(first)
        eventually(lambda: _said(first, LEASE_HELD), seconds=30, every=0.1)
        second = _worker(data_dir, "second", env)
        processes.append(second)
        eventually(lambda: _said(second, STANDING_BY), seconds=30, every=0.1)

        _, signup = _call(port, "POST", "/auth/signup", {"email": "p@example.com", "password": "promo promo", "name": "P"})
        token = signup["data"]["tokens"]["accessToken"]
        _, org = _call(port, "POST", "/organizations", {"name": "Promo", "slug": "promo", "billingEmail": "b@b.test"},
                       token=token)
        base = f"/organizations/{org['data']['id']}"
        assert _call(port, "POST", f"{base}/wabas", {"wabaId": account.waba_id, "accessToken": account.access_token,
                                                     "appSecret": account.app_secret}, token=token)[0] == 201
        waba_pk = _call(port, "GET", f"{base}/wabas", token=token)[1]["data"][0]["id"]
        number_pk = _call(port, "GET", f"{base}/phone-numbers", token=token)[1]["data"][0]["id"]
        assert _call(port, "PATCH", f"{base}/phone-numbers/{number_pk}", {"messagesPerSecond": 80}, token=token)[0] == 200
        assert _call(port, "PUT", f"{base}/bot/config/{number_pk}", {
            "enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0}, token=token)[0] == 200
        assert _call(port, "POST", f"{base}/bot/rules", {
            "name": "Precio", "keywords": ["precio"], "reply": "El pan cuesta 2 euros."}, token=token)[0] == 201
        status, template = _call(port, "POST", f"{base}/templates", {
            "businessAccountId": waba_pk, "name": "promo", "language": "es", "category": "MARKETING",
            "components": [{"type": "BODY", "text": "Hola {{1}}", "example": {"body_text": [["Ana"]]}}]}, token=token)
        assert status == 201, template
        simulator.announce_template(account.waba_id, simulator.network.set_template_status(
            account.waba_id, "promo", "es", "APPROVED"))
        eventually(lambda: _call(port, "GET", f"{base}/templates/{template['data']['id']}", token=token)[1]["data"]["status"],
                   lambda s: s == "APPROVED", seconds=20)
        _, contact_list = _call(port, "POST", f"{base}/contact-lists", {"name": "Todos"}, token=token)
        csv = "telefono,nombre\n" + "".join(f"5730030{i:05d},Cliente {i}\n" for i in range(RECIPIENTS))
        status, imported = _call(port, "POST", f"{base}/contact-lists/{contact_list['data']['id']}/import", csv,
                                 token=token, content_type="text/csv", timeout=30)
        assert status == 200 and imported["data"]["added"] == RECIPIENTS, imported
        simulator.faults.update({"slowSeconds": 0.05})  # some sends are in the air at the kill

        status, broadcast = _call(port, "POST", f"{base}/broadcasts", {
            "name": "Promo", "phoneNumberId": number_pk, "templateName": "promo", "variables": ["{{contact.name}}"],
            "audience": {"contactListIds": [contact_list["data"]["id"]]}}, token=token)
        assert status == 201, broadcast
        for customer in CUSTOMERS[:20]:  # the bot's burst, before the kill...
            simulator.customer_writes(number_id, customer, {"type": "text", "text": {"body": "¿precio?"}})
        eventually(lambda: len(simulator.network.sent), lambda sent: sent >= 60, seconds=60, every=0.02)
        first.kill()  # SIGKILL mid-broadcast, mid-burst
        first.wait(timeout=10)
        sent_before = len(simulator.network.sent)
        for customer in CUSTOMERS[20:]:  # ...and after it
            simulator.customer_writes(number_id, customer, {"type": "text", "text": {"body": "¿precio?"}})
        eventually(lambda: _said(second, LEASE_HELD), seconds=30, every=0.1)  # taken over, no restart
        simulator.faults.update({"slowSeconds": 0})

        path = f"{base}/broadcasts/{broadcast['data']['id']}"
        eventually(lambda: _call(port, "GET", path, token=token)[1]["data"]["status"], lambda s: s == "COMPLETED",
                   seconds=90, every=0.25)
        rows = _rows(shared_database, "SELECT r.wa_id, m.status, m.error_code, m.send_state FROM broadcast_recipients r "
                                      "JOIN messages m ON m.id = r.message_id")
        assert sent_before < RECIPIENTS, "the broadcast finished before the kill; nothing was tested"

        def replies():
            return _rows(shared_database, "SELECT customer_wa_id, status, error_code FROM messages "
                                          "WHERE direction = 'out' AND type = 'text'")
        eventually(replies, lambda found: len(found) == len(CUSTOMERS) and all(
            status in ("sent", "delivered", "read", "failed") for _, status, _ in found), seconds=60, every=0.25)
        assert simulator.deliverer.wait_idle(timeout=60)
        on_network = Counter(m["to"] for m in simulator.network.sent)
        assert max(on_network.values()) == 1, "someone got a message twice"
        assert len(rows) == RECIPIENTS
        interrupted = 0
        for wa_id, status, error_code, send_state in rows:
            assert send_state is None, (wa_id, status)
            if wa_id in on_network:
                assert status in ("sent", "delivered", "read"), (wa_id, status, error_code)
            else:
                assert status == "failed" and error_code == -3, (wa_id, status, error_code)
                interrupted += 1
        answered = {wa_id: (status, error_code) for wa_id, status, error_code in replies()}
        assert set(answered) == set(CUSTOMERS), "a customer got no answer, or more than one"
        for wa_id, (status, error_code) in answered.items():
            assert (wa_id in on_network) == (status != "failed"), (wa_id, status, error_code)
            assert status != "failed" or error_code == -3, (wa_id, status, error_code)
        print(f"sent before the kill: {sent_before}; broadcast failed -3: {interrupted}; bot replies failed -3: "
              f"{sum(1 for status, _ in answered.values() if status == 'failed')}")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
        netsim.close()
        for log in sorted(tmp_path.glob("*.log")):  # shown when the test fails
            print(f"--- {log.name}\n{log.read_text()[-6000:]}")
