"""Issue 24's survey target, measured through HTTP on the running server: GET /surveys/results over
100,000 answered surveys (goal: p95 under 200 ms).

The generator writes a year of surveys for one organization straight into the survey tables (the
results read only those and the users' names): 100,000 answered (two questions each, scores spread
over three options, one comment in ten, eight agents), plus 20,000 expired and 15,000 unsent with
their reasons. It writes through a plain sqlite3 connection, where foreign keys are not enforced,
so the conversations, contacts and numbers the rows point at need not exist: nothing the results
read depends on them. The daily counters are then counted from the rows (`tallies.rebuild`). Then the server restarts on the file and one client measures the results for
the year (every row), for a month, and for a week.

Run: .venv/bin/python tests/bench/bench_surveys.py   (BENCH_SURVEYS=100000)
"""

from __future__ import annotations

import http.client
import os
import random
import sqlite3
import statistics
import sys
import time
import uuid
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402

SURVEYS = int(os.environ.get("BENCH_SURVEYS", "100000"))
QUESTIONS = [{"text": "¿Cómo te atendimos?", "options": ["Excelente", "Regular", "Mal"]},
             {"text": "¿Volverías?", "options": ["Sí", "Tal vez", "No"]}]
REASONS = ("window_closed", "cooldown", "audience", "opted_out", "disabled_number")


def _at(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")


def fill(data_dir: str, org_id: str, owner_id: str) -> None:
    rng = random.Random(24)
    now = datetime.now(timezone.utc)
    agents = [owner_id] + [str(uuid.uuid4()) for _ in range(7)]
    number, questions = str(uuid.uuid4()), __import__("json").dumps(QUESTIONS)
    deliveries, answers = [], []
    started = time.perf_counter()
    total = SURVEYS + SURVEYS // 5 + SURVEYS * 3 // 20
    for i in range(total):
        closed = now - timedelta(seconds=rng.randint(60, 364 * 86400))
        delivery_id, agent = str(uuid.uuid4()), rng.choice(agents)
        status, reason, score, comment = "answered", None, None, None
        if i >= SURVEYS + SURVEYS // 5:
            status, reason = "unsent", rng.choice(REASONS)
        elif i >= SURVEYS:
            status = "expired"
        else:
            first = min(2, int(rng.random() ** 1.8 * 3))  # most answers are the best option
            score = 3 - first
            comment = f"Comentario {i}: el pan llegó {'tibio' if score > 1 else 'frío'}" if i % 10 == 0 else None
            for question, option in ((0, first), (1, rng.randint(0, 2))):
                answers.append((str(uuid.uuid4()), org_id, delivery_id, None, question, QUESTIONS[question]["text"],
                                option, QUESTIONS[question]["options"][option], 3 - option,
                                _at(closed + timedelta(minutes=130))))
        sent = None if status == "unsent" else _at(closed + timedelta(minutes=120))
        deliveries.append((delivery_id, org_id, str(uuid.uuid4()), str(uuid.uuid4()), number, agent, "HUMAN", status,
                           reason, _at(closed), _at(closed + timedelta(minutes=120)), sent, None,
                           sent if score else None, _at(closed + timedelta(minutes=140)), questions, 1, "¿Algo más?",
                           "¡Gracias!", 24, 2, None, score, comment, None, _at(closed), _at(closed)))
    db = sqlite3.connect(Path(data_dir) / "appliance.db")
    db.execute("BEGIN")
    db.executemany(f"INSERT INTO survey_deliveries VALUES ({', '.join('?' * 27)})", deliveries)
    db.executemany(f"INSERT INTO survey_answers VALUES ({', '.join('?' * 10)})", answers)
    db.execute("COMMIT")
    db.close()
    # The daily counters the app keeps as surveys move, counted once from the rows.
    from appliance import bootstrap
    from appliance.settings import load_settings
    from appliance.surveys import tallies
    runtime = bootstrap.start(load_settings({}, data_dir=Path(data_dir)), migrate=False)
    with runtime.db.unit_of_work(write=True) as session:
        tallies.rebuild(session, org_id)
        session.connection().exec_driver_sql("ANALYZE")
    runtime.db.dispose()
    print(f"{SURVEYS:,} answered surveys ({len(answers):,} answers), {total - SURVEYS:,} expired or unsent, "
          f"written in {time.perf_counter() - started:.0f} s", flush=True)


def _measure(port: int, token: str, path: str, samples: int) -> tuple[float, float, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _ in range(3):
        status, body = _call(conn, "GET", path, token=token)
        assert status == 200, (status, body)
    latencies = []
    for _ in range(samples):
        began = time.perf_counter()
        status, body = _call(conn, "GET", path, token=token)
        latencies.append(time.perf_counter() - began)
        assert status == 200, status
    return statistics.quantiles(latencies, n=100)[94] * 1000, statistics.median(latencies) * 1000, body["data"]


def main() -> int:
    data_dir = scratch_dir("bench-surveys-")
    with running_server({}, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, signup = _call(conn, "POST", "/auth/signup", {"email": "bench@example.com", "password": "bench password",
                                                         "name": "Bench"})
        token = signup["data"]["tokens"]["accessToken"]
        owner_id = signup["data"]["user"]["id"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@b.test"},
                       token=token)
        org_id = org["data"]["id"]
    fill(data_dir, org_id, owner_id)
    with running_server({}, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, login = _call(conn, "POST", "/auth/login", {"email": "bench@example.com", "password": "bench password"})
        token = login["data"]["tokens"]["accessToken"]
        today, base = date.today(), f"/organizations/{org_id}/surveys/results"
        failed = False
        for label, first, goal in (("a year (every answer)", today - timedelta(days=365), 200),
                                   ("a month", today - timedelta(days=29), None),
                                   ("a week", today - timedelta(days=6), None)):
            p95, p50, data = _measure(port, token, f"{base}?desde={first}&hasta={today}", 40)
            failed |= goal is not None and p95 >= goal
            verdict = f"   goal < {goal} ms {'ok' if p95 < goal else 'MISSED'}" if goal else ""
            print(f"results, {label:22s} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   (answered {data['answered']:,}, "
                  f"average {data['averageScore']}){verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
