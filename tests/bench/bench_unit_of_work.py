"""What a unit of work costs by itself: the CPU of an empty writing unit (`Database.unit_of_work(
write=True)`: SQLAlchemy's session, the pool's checkout and reset, the writer gate, BEGIN
IMMEDIATE and COMMIT), of a reading unit, and of the same write transaction straight on the driver,
on a freshly migrated scratch database. Every inbound webhook request and every outbox batch pays a
writing unit; this says how much of a request's cost is the frame rather than the work.

Each unit runs one statement that changes nothing (so no page is written and no fsync is due).
Reported: CPU µs a unit (this thread's time), the median of BENCH_ROUNDS rounds of BENCH_UNITS.

Run: .venv/bin/python tests/bench/bench_unit_of_work.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import scratch_dir  # noqa: E402

from appliance import bootstrap  # noqa: E402
from appliance.core.db import _on_connect  # noqa: E402
from appliance.core.rows import driver_connection  # noqa: E402
from appliance.settings import load_settings  # noqa: E402

UNITS = int(os.environ.get("BENCH_UNITS", "2000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
NOTHING = "UPDATE outbound_webhooks SET failure_count = 0 WHERE id = 'none'"


def _cpu_per_unit(run) -> float:
    rounds = []
    for _ in range(ROUNDS):
        began = time.thread_time()
        for _ in range(UNITS):
            run()
        rounds.append((time.thread_time() - began) / UNITS * 1e6)
    return statistics.median(rounds)


def main() -> int:
    runtime = bootstrap.start(load_settings({"APPLIANCE_LOG_LEVEL": "WARNING"}, data_dir=Path(scratch_dir("bench-uow-"))),
                              migrate=True, queue_immediate=True)
    database = runtime.db

    def writing() -> None:
        with database.unit_of_work(write=True) as session:
            driver_connection(session).execute(NOTHING)

    def reading() -> None:
        with database.unit_of_work(write=False) as session:
            driver_connection(session).execute(NOTHING.replace("UPDATE outbound_webhooks SET failure_count = 0",
                                                               "SELECT 1 FROM outbound_webhooks")).fetchall()

    import pysqlite3.dbapi2 as sqlite
    raw = sqlite.connect(database.path, check_same_thread=False)
    _on_connect(raw, None)  # the appliance's pragmas, autocommit

    def on_the_driver() -> None:
        raw.execute("BEGIN IMMEDIATE")
        raw.execute(NOTHING)
        raw.execute("COMMIT")

    figures = {name: _cpu_per_unit(run) for name, run in
               (("writing unit of work", writing), ("reading unit of work", reading), ("driver transaction", on_the_driver))}
    print(f"unit of work benchmark: CPU µs a unit, median of {ROUNDS} rounds of {UNITS}")
    for name, figure in figures.items():
        print(f"  {name:<22} {figure:7.1f} µs")
    print(f"  the writing unit's frame is {figures['writing unit of work'] - figures['driver transaction']:.0f} µs "
          "beyond the driver's own transaction")
    raw.close()
    database.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
