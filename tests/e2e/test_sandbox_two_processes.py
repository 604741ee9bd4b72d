"""Issue 48: the README's sandbox walked on PostgreSQL by a web process and a worker process
(APPLIANCE_ROLE) sharing one data directory and database, as a user would. The simulator lives in
the web process; the worker sends through it and makes new organizations' accounts there (before,
an account made in the worker's own copy was unknown to the network: the customer's message was
refused); an organization that tries the sandbox after the worker started is sent for through the
simulator, not the real network; a customer's message the web process received is heard by the
worker's listeners (the reply counted) at once, not at the minute sweep; a campaign completes as
soon as it is delivered; and a restarted web process still knows the templates. Whichever engine
the suite runs on, these processes use the tests' PostgreSQL server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.e2e.conftest import free_port, start_server
from tests.e2e.sandbox_walk import PASSWORD, csrf, customer_writes_and_is_answered, set_up
from tests.fixtures import engines
from tests.waiting import eventually

LEASE_HELD = "this process runs the background workers"
# Far below the minute sweep (60 s) and the broadcast thread's idle sleep (30 s) that the web
# process's wake-ups used to wait for; far above what they take now (milliseconds).
PROMPTLY = 10.0


@pytest.fixture
def shared_database():
    url = engines.empty_database("sandbox_two")
    yield url
    engines.drop(url)


def _worker(data_dir: Path, port: int, env: dict, *flags: str) -> subprocess.Popen:
    log_path = data_dir.parent / "worker.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), "serve", "--port",
                                    str(port), *flags], stdout=log, stderr=subprocess.STDOUT, text=True,
                                   env={**os.environ, **env, "APPLIANCE_ROLE": "worker", "APPLIANCE_LOG_LEVEL": "INFO"})
    eventually(lambda: LEASE_HELD in log_path.read_text(), seconds=30, every=0.1)
    return process


def _stop(processes) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)


def test_the_sandbox_on_a_web_and_a_worker_process(tmp_path, shared_database):
    port, data_dir = free_port(), tmp_path / "data"
    env = {"APPLIANCE_DATABASE_URL": shared_database}
    web = start_server(data_dir, port, "--sandbox", env={**env, "APPLIANCE_ROLE": "web"})  # migrates first
    processes = [web, _worker(data_dir, port, env, "--sandbox")]
    try:
        base, control = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port}/netsim/_control"
        token = requests.post(f"{base}/auth/signup", json={"email": "olga@example.com", "password": PASSWORD, "name": "Olga"},
                              timeout=10).json()["data"]["tokens"]["accessToken"]
        auth = {"Authorization": f"Bearer {token}"}
        org = requests.post(f"{base}/organizations", json={"name": "Panadería Sol", "slug": "sol",
                                                           "billingEmail": "b@sol.test"}, headers=auth, timeout=10).json()["data"]
        org_url = f"{base}/organizations/{org['id']}"
        # Made by the worker's listener, in the web process's simulator.
        waba = eventually(lambda: requests.get(f"{org_url}/wabas", headers=auth, timeout=10).json()["data"], bool)[0]
        number = requests.get(f"{org_url}/phone-numbers", headers=auth, timeout=10).json()["data"][0]
        wrote = requests.post(f"{control}/inbound", timeout=10, json={
            "phoneNumberId": number["phoneNumberId"], "from": "5215512345678", "name": "Ana", "type": "text",
            "text": {"body": "Hola"}})
        assert wrote.status_code == 201, wrote.text
        eventually(lambda: requests.get(f"{org_url}/conversations", headers=auth, timeout=10).json()["data"]["items"], bool)
        reply = requests.post(f"{org_url}/messages", headers=auth, timeout=10, json={
            "phoneNumberId": number["id"], "to": "5215512345678", "type": "text", "payload": {"body": "¡Hola Ana!"}})
        assert reply.status_code == 201, reply.text
        eventually(lambda: requests.get(f"{org_url}/messages/{reply.json()['data']['id']}", headers=auth,
                                        timeout=10).json()["data"]["status"], lambda status: status == "delivered")

        # A campaign: the simulated review approves the template, the campaign completes once
        # delivered, and a customer's answer is counted.
        made = requests.post(f"{org_url}/templates", headers=auth, timeout=10, json={
            "businessAccountId": waba["id"], "name": "pan_del_dia", "language": "es", "category": "MARKETING",
            "components": [{"type": "BODY", "text": "Hola {{1}}, hoy hay pan de muerto",
                            "example": {"body_text": [["Ana"]]}}]})
        assert made.status_code == 201, made.text
        eventually(lambda: requests.get(f"{org_url}/templates/{made.json()['data']['id']}", headers=auth,
                                        timeout=10).json()["data"]["status"], lambda status: status == "APPROVED")
        beto = requests.post(f"{org_url}/contacts", json={"waId": "5215587654321", "name": "Beto"}, headers=auth,
                             timeout=10).json()["data"]

        def campaign(name: str) -> str:
            created = requests.post(f"{org_url}/broadcasts", headers=auth, timeout=10, json={
                "name": name, "phoneNumberId": number["id"], "templateName": "pan_del_dia", "templateLanguage": "es",
                "variables": ["{{contact.name|cliente}}"], "audience": {"contactIds": [beto["id"]]}})
            assert created.status_code == 201, created.text
            return f"{org_url}/broadcasts/{created.json()['data']['id']}"

        first = campaign("Pan de muerto")
        done = eventually(lambda: requests.get(first, headers=auth, timeout=10).json()["data"],
                          lambda shown: shown["status"] == "COMPLETED", seconds=PROMPTLY)
        assert done["counts"]["sent"] == 1 and done["counts"]["failed"] == 0
        answered = requests.post(f"{control}/inbound", timeout=10, json={
            "phoneNumberId": number["phoneNumberId"], "from": "5215587654321", "type": "text", "text": {"body": "Uno"}})
        assert answered.status_code == 201, answered.text
        eventually(lambda: requests.get(first, headers=auth, timeout=10).json()["data"]["counts"]["replied"],
                   lambda replied: replied == 1, seconds=PROMPTLY)

        # The web process restarts: its fresh simulator knows the account and the template again.
        _stop([processes.pop(0)])
        processes.insert(0, start_server(data_dir, port, "--sandbox", env={**env, "APPLIANCE_ROLE": "web"}))
        second = campaign("Pan de muerto, otra vez")
        again = eventually(lambda: requests.get(second, headers=auth, timeout=10).json()["data"],
                           lambda shown: shown["status"] != "RUNNING", seconds=PROMPTLY)
        assert again["status"] == "COMPLETED" and again["counts"]["failed"] == 0, again
    finally:
        _stop(processes)


def test_trying_the_sandbox_after_the_worker_started_sends_through_the_simulator(tmp_path, shared_database):
    """Not in sandbox mode: the real network is a closed port here, so a call that leaks there fails."""
    port, data_dir = free_port(), tmp_path / "data"
    env = {"APPLIANCE_DATABASE_URL": shared_database, "APPLIANCE_GRAPH_API_URL": "http://127.0.0.1:9"}
    processes = [start_server(data_dir, port, env={**env, "APPLIANCE_ROLE": "web"})]
    try:
        processes.append(_worker(data_dir, port, env))
        base, browser = f"http://127.0.0.1:{port}", requests.Session()
        org_id = set_up(base, browser, country="MX", currency="MXN", timezone="America/Mexico_City")
        whatsapp = browser.get(f"{base}/console/{org_id}/whatsapp", timeout=10)
        tried = browser.post(f"{base}/console/{org_id}/sandbox", data={"csrf": csrf(whatsapp)}, timeout=10)
        assert tried.status_code == 200 and "Your sandbox number is ready" in tried.text
        # Sent by the worker, whose simulator did not hold the account: through the web process's
        # simulator (before, to the closed port, pending for good).
        sent = customer_writes_and_is_answered(base, browser, org_id, seconds=PROMPTLY)
        assert sent["status"] in ("delivered", "read"), sent
    finally:
        _stop(processes)
