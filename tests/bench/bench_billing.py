"""Issue 49's billing targets.

`close` (default): closing a period for BENCH_ORGS organizations (default 1,000) in one billing
round, the worker's own `collection.run`, on a migrated database of this machine (SQLite; PostgreSQL
with APPLIANCE_DATABASE_URL): every organization's invoice made and numbered, half paid from a funded
wallet, a quarter charged to a card by auto-pay against the Wompi double on loopback (real HTTP, the
real client), a quarter failing (no funds, no auto-pay: the owner's mail queued). Goal: under 30 s.
A second round right after must find nothing to bill (its time is printed too).

`preview`: POST .../billing/addons/preview over HTTP on the running server (billing on), one client,
BENCH_PREVIEWS requests (default 500) after 50 of warm-up. Goal: p95 under 20 ms.

Run: .venv/bin/python tests/bench/bench_billing.py [close|preview]
"""

from __future__ import annotations

import http.client
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402

ORGS = int(os.environ.get("BENCH_ORGS", "1000"))
PREVIEWS = int(os.environ.get("BENCH_PREVIEWS", "500"))


def _double() -> tuple[str, object]:
    """The Wompi double on a loopback port: its URL and its state (keys, transactions)."""
    from waitress import create_server

    from appliance.netsim.app import create_netsim_app
    from appliance.netsim.simulator import Simulator
    simulator = Simulator()
    server = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    return f"http://127.0.0.1:{server.effective_port}", simulator.wompi


def close() -> int:
    from sqlmodel import select

    from appliance import bootstrap
    from appliance.billing import collection, wallet
    from appliance.billing.models import BillingAccount, Invoice, PaymentMethod
    from appliance.billing.wompi import Wompi
    from appliance.core import clock, runtime
    from appliance.organizations.models import Organization
    from appliance.settings import load_settings
    from appliance.users.models import User

    url, state = _double()
    settings = load_settings(data_dir=scratch_dir("bench-billing-"), log_level="WARNING", billing="on", wompi_url=f"{url}/wompi/v1",
                             wompi_public_key=state.public_key, wompi_private_key=state.private_key,
                             wompi_events_secret=state.events_secret, wompi_integrity_secret=state.integrity_secret)
    bootstrap.start(settings, migrate=True, queue_immediate=True)
    db, keyring = runtime.get().db, runtime.get().keyring
    processor = Wompi(url=f"{url}/wompi/v1", public_key=state.public_key, private_key=state.private_key,
                      events_secret=state.events_secret, integrity_secret=state.integrity_secret)
    import requests
    token = requests.post(f"{url}/wompi/v1/tokens/cards", headers={"Authorization": f"Bearer {state.public_key}"},
                          json={"number": "4242424242424242", "cvc": "123", "exp_month": "08", "exp_year": "31",
                                "card_holder": "Bench"}, timeout=10).json()["data"]["id"]
    source = processor.card_source(card_token=token, email="bench@example.com")  # one source, many cards' rows
    started = time.perf_counter()
    now = clock.now()
    with db.unit_of_work(write=True) as session:
        owner = User(email="owner@bench.test", name="Owner", password_hash="x", password_changed_at=now, created_at=now,
                     updated_at=now)
        session.add(owner)
        session.flush()
        for n in range(ORGS):
            organization = Organization(name=f"Org {n}", slug=f"org-{n}", billing_email="b@bench.test", plan_slug="business",
                                        created_by=owner.id, created_at=now, updated_at=now)
            session.add(organization)
            session.flush()
            if n % 2 == 0:  # funded
                wallet.do_move(session, wallet_id=organization.id, amount_minor=100_000_000, currency="COP",
                               source="PAYMENT_REPORT", reference=f"seed-{n}", description="Seed")
            elif n % 4 == 1:  # auto-pay with a card
                card = PaymentMethod(organization_id=organization.id, source_sealed=keyring.seal(source.source_id),
                                     brand=source.brand, last4=source.last4, exp_month=source.exp_month,
                                     exp_year=source.exp_year, email="b@bench.test", is_default=True, created_at=now)
                session.add(card)
                session.add(BillingAccount(organization_id=organization.id, anchor_at=now, auto_pay_enabled=True,
                                           created_at=now, updated_at=now))
    print(f"seeded {ORGS} organizations in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    done = collection.run(db)
    took = time.perf_counter() - started
    started = time.perf_counter()
    again = collection.run(db)
    second = time.perf_counter() - started
    with db.unit_of_work(write=False) as session:
        statuses = [row for row in session.exec(select(Invoice.status))]
        failing = session.exec(select(Invoice.id).where(Invoice.last_failure.is_not(None))).all()
    print(f"first round: {done} in {took:.2f} s (goal under 30 s)  |  second round: {again} in {second:.2f} s")
    print(f"invoices: {len(statuses)} ({statuses.count('PAID')} paid, {statuses.count('OPEN')} open, "
          f"{len(failing)} failed and told); charges at the double: {len(state.transactions)}")
    assert len(statuses) == ORGS and len(state.transactions) == ORGS // 4
    return 0 if took < 30 else 1


def preview() -> int:
    with running_server(env={"APPLIANCE_BILLING": "on"}) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        _, signup = _call(conn, "POST", "/auth/signup", {"email": "owner@bench.test", "password": "correct horse battery",
                                                         "name": "Owner"})
        jwt = signup["data"]["tokens"]["accessToken"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@bench.test"},
                       token=jwt)
        path = f"/organizations/{org['data']['id']}/billing/addons/preview"
        latencies = []
        for n in range(PREVIEWS + 50):
            started = time.perf_counter()
            status, _ = _call(conn, "POST", path, {"addonType": "SEAT", "quantity": 1 + n % 7}, token=jwt)
            if n >= 50:
                latencies.append((time.perf_counter() - started) * 1000)
            assert status == 201, status
    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    print(f"add-on preview over HTTP: p50 {statistics.median(latencies):.2f} ms, p95 {p95:.2f} ms, "
          f"max {latencies[-1]:.2f} ms ({PREVIEWS} requests; goal p95 under 20 ms)")
    return 0 if p95 < 20 else 1


if __name__ == "__main__":
    sys.exit({"close": close, "preview": preview}[(sys.argv[1:] or ["close"])[0]]())
