"""Issue 23's attendance targets, measured through HTTP on the running server:

A generator gives one organization 50 agents with a year of sessions (a working day each weekday
and most Saturdays, statuses changing every ~40 minutes: ONLINE, BREAK, LUNCH, MEETING...), some
leaves and Colombia's holidays, written straight into the tables as the app writes them. Then the
server starts on it and one client measures p95 (after warm-up) of:
  - GET /attendance/report for a month (goal < 200 ms) and for a year (goal < 1 s; p95 of fewer samples);
  - GET /attendance/day (goal < 50 ms);
  - also the report with compare, team-status and /today.
BENCH_ATTRIBUTION=split-by-day and BENCH_COUNTING=within-shift measure the other rules.

Run: .venv/bin/python tests/bench/bench_attendance.py
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402

AGENTS = int(os.environ.get("BENCH_AGENTS", "50"))
DAYS = int(os.environ.get("BENCH_DAYS", "365"))
TZ = "America/Bogota"
HOURS = {**{d: [{"open": "08:00", "close": "17:00"}] for d in ("mon", "tue", "wed", "thu", "fri")},
         "sat": [{"open": "08:00", "close": "12:00"}]}
STATUSES = ("ONLINE", "ONLINE", "ONLINE", "BREAK", "MEETING", "TRAINING")


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[94] * 1000 if len(values) >= 20 else max(values) * 1000


def _spells(rng: random.Random, length_min: int) -> list[tuple[str, int]]:
    """A working day: a status change every ~40 minutes, lunch once around the middle."""
    spells, used, lunch_done = [], 0, False
    while used < length_min:
        if not lunch_done and used > length_min * 0.45:
            spells.append(("LUNCH", 60))
            used += 60
            lunch_done = True
            continue
        minutes = min(rng.randint(25, 55), length_min - used)
        spells.append((rng.choice(STATUSES) if spells and spells[-1][0] == "ONLINE" else "ONLINE", minutes))
        used += minutes
    return spells


def fill(data_dir: str, org_id: str) -> dict:
    from appliance import bootstrap
    from appliance.attendance.models import Leave
    from appliance.core import clock
    from appliance.core.rows import insert_many
    from appliance.core.ids import new_id
    from appliance.memberships.models import Membership
    from appliance.roles.models import Role
    from appliance.settings import load_settings
    from appliance.users.models import User
    from sqlmodel import select
    from tests.attendance import history

    rng = random.Random(23)
    runtime = bootstrap.start(load_settings({}, data_dir=Path(data_dir)), migrate=False)
    database = runtime.db
    now, today = clock.now(), date.today()
    started = time.perf_counter()
    users = [dict(id=new_id(), email=f"agent{i}@bench.test", name=f"Agente {i:02d}", password_hash="!", locale="es",
                  timezone=TZ, password_changed_at=now, created_at=now, updated_at=now, installation_admin=False)
             for i in range(AGENTS)]
    with database.unit_of_work(write=True) as session:
        role = session.exec(select(Role.id).where(Role.organization_id == org_id, Role.key == "agent")).one()
        insert_many(session, User.__table__, users)
        insert_many(session, Membership.__table__, [dict(id=new_id(), organization_id=org_id, user_id=u["id"], role_id=role,
                                                          waba_pks=[], preferences={}, created_at=now, updated_at=now)
                                                     for u in users])
        leaves = []
        for user in users[::5]:
            start = today - timedelta(days=rng.randint(20, DAYS - 10))
            leaves.append(dict(id=new_id(), organization_id=org_id, user_id=user["id"], type="VACATION",
                               start_date=start.isoformat(), end_date=(start + timedelta(days=9)).isoformat(),
                               created_at=now))
        insert_many(session, Leave.__table__, leaves)
        history.counted_since(session, org_id)  # the team was there, and attendance on, for the whole history
    count = 0
    for user in users:
        rows = []
        for back in range(DAYS, 0, -1):
            day = today - timedelta(days=back)
            if day.weekday() == 6 or (day.weekday() == 5 and rng.random() < 0.5) or rng.random() < 0.03:
                continue
            length = 240 if day.weekday() == 5 else rng.randint(480, 560)
            start = history.at(day, "07:45", TZ) + rng.randint(0, 40) * 60_000
            rows.append(history.session_row(org_id, user["id"], start, _spells(rng, length)))
        with database.unit_of_work(write=True) as session:
            history.add(session, rows)
        count += len(rows)
    with database.unit_of_work(write=True) as session:
        session.connection().exec_driver_sql("ANALYZE")
    database.dispose()
    print(f"{AGENTS} agents, {count:,} sessions over {DAYS} days, filled in {time.perf_counter() - started:.0f} s",
          flush=True)
    return {"agent": users[0]["id"]}


def _measure(port: int, token: str, path: str, samples: int, warm_up: int = 3) -> tuple[float, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _ in range(warm_up):
        assert _call(conn, "GET", path, token=token)[0] == 200, path
    latencies = []
    for _ in range(samples):
        began = time.perf_counter()
        status, _ = _call(conn, "GET", path, token=token)
        latencies.append(time.perf_counter() - began)
        assert status == 200, (status, path)
    return _p95(latencies), statistics.median(latencies) * 1000


def main() -> int:
    data_dir = scratch_dir("bench-attendance-")
    with running_server({}, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, signup = _call(conn, "POST", "/auth/signup", {"email": "bench@example.com", "password": "bench password",
                                                         "name": "Bench"})
        token = signup["data"]["tokens"]["accessToken"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench", "billingEmail": "b@b.test"},
                       token=token)
        org_id = org["data"]["id"]
        assert _call(conn, "PATCH", f"/organizations/{org_id}", {"timezone": TZ, "businessHoursSchedule": HOURS},
                     token=token)[0] == 200
        rules = {"enabled": True, "dayAttribution": os.environ.get("BENCH_ATTRIBUTION", "start-day"),
                 "workedCounting": os.environ.get("BENCH_COUNTING", "wall-clock")}
        assert _call(conn, "PATCH", f"/organizations/{org_id}/attendance/settings", rules, token=token)[0] == 200
        for year in {date.today().year - 1, date.today().year}:
            assert _call(conn, "POST", f"/organizations/{org_id}/attendance/holidays/seed?year={year}", token=token)[0] == 201
    fill(data_dir, org_id)
    with running_server({}, data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, login = _call(conn, "POST", "/auth/login", {"email": "bench@example.com", "password": "bench password"})
        token = login["data"]["tokens"]["accessToken"]
        base = f"/organizations/{org_id}/attendance"
        today = date.today()
        month_from, year_from = today - timedelta(days=29), today - timedelta(days=364)
        cases = [
            ("report, a month", f"{base}/report?from={month_from}&to={today}", 60, 200),
            ("report, a month with compare", f"{base}/report?from={month_from}&to={today}&compare=true", 40, None),
            ("report, a year", f"{base}/report?from={year_from}&to={today}", 20, 1000),
            ("day", f"{base}/day?date={today - timedelta(days=3)}", 100, 50),
            ("team-status", f"{base}/team-status", 100, None),
        ]
        print(f"rules: {rules['dayAttribution']}, {rules['workedCounting']}")
        failed = False
        for label, path, samples, goal in cases:
            p95, p50 = _measure(port, token, path, samples)
            verdict = "" if goal is None else (" ok" if p95 < goal else " MISSED")
            failed |= goal is not None and p95 >= goal
            print(f"{label:32s} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms" + (f"   goal < {goal} ms{verdict}" if goal else ""),
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
