"""Issue 46's backup targets: a backup of a 1 GB database with 10,000 media files in under 60 s while
the inbound load keeps at least 80% of its rate, and a restore of it in under 90 s.

The installation: a real server's data directory (migrated, a connected business account), grown
to BENCH_DB_GB (default 1) of message history written straight into SQLite (`bench_history`: an
indexed table of message-like rows, text that compresses as chat text does) and BENCH_MEDIA
(default 10,000) media files of 8-56 KB of random bytes (as photos: incompressible), 300 MB in all.

The run: the server (not pinned: the backup's thread and the requests share the machine's cores as
in production, with the load generator beside them) takes signed webhook deliveries from
bench_inbound's clients; the rate is measured for BENCH_BASE_SECONDS (default 20) before the backup,
during it (POST /installation/backups until READY), and for as long after it; the share is the rate
during over the mean of before and after. Then `appliance restore` of the archive into an empty
data directory, timed from spawn to exit (the check, the swap and the migrations).

Run: .venv/bin/python tests/bench/bench_backup.py   (BENCH_DB_GB=0.2 BENCH_MEDIA=2000 for a quick look)
"""

from __future__ import annotations

import http.client
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench_inbound  # noqa: E402
from bench_auth import _call, running_server, scratch_dir  # noqa: E402
from bench_inbound import Target, _connect_account, _deliver  # noqa: E402
from waitress.server import create_server  # noqa: E402

from appliance.netsim.app import create_netsim_app  # noqa: E402
from appliance.netsim.simulator import Simulator  # noqa: E402

DB_GB = float(os.environ.get("BENCH_DB_GB", "1"))
MEDIA = int(os.environ.get("BENCH_MEDIA", "10000"))
BASE_SECONDS = float(os.environ.get("BENCH_BASE_SECONDS", "20"))
TARGET_BACKUP_SECONDS, TARGET_RESTORE_SECONDS, TARGET_SHARE = 60, 90, 0.80
WORDS = ("hola buenos días quisiera saber el precio del pan de masa madre y si hacen domicilios a chapinero "
         "gracias claro que sí el pedido sale hoy a las cinco de la tarde le confirmo la dirección por favor "
         "cuánto cuesta el envío tienen tortas de chocolate para mañana el cumpleaños es el sábado").split()


def _grow(data_dir: Path, org_id: str) -> None:
    """The database to DB_GB with message-like rows; MEDIA files under media/<org>/."""
    database = sqlite3.connect(data_dir / "appliance.db", isolation_level=None)
    database.execute("PRAGMA journal_mode=WAL")
    database.execute("CREATE TABLE bench_history (id TEXT PRIMARY KEY, conversation TEXT, body TEXT, at TEXT)")
    database.execute("CREATE INDEX ix_bench_history_conversation ON bench_history (conversation, at)")
    text = " ".join(WORDS * 4)
    words = len(text)
    target = int(DB_GB * 1e9)
    batch = 0
    while (data_dir / "appliance.db").stat().st_size + _wal(data_dir) < target:
        database.execute("BEGIN")
        database.execute(f"""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
            INSERT INTO bench_history
            SELECT 'm{batch}-' || i, 'c' || (abs(random()) % 20000),
                   substr(?, 1 + abs(random()) % {words - 400}, 120 + abs(random()) % 280) || ' #' || hex(randomblob(4)),
                   datetime(1700000000 + abs(random()) % 30000000, 'unixepoch') FROM n""", (text,))
        database.execute("COMMIT")
        database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        batch += 1
    database.close()
    folder = data_dir / "media" / org_id
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(MEDIA):
        (folder / f"bench-{i:05d}").write_bytes(os.urandom(8192 + (i * 7919) % 49152))


def _wal(data_dir: Path) -> int:
    wal = data_dir / "appliance.db-wal"
    return wal.stat().st_size if wal.exists() else 0


def _rate_for(target: Target, seconds: float, seed: int) -> float:
    load = _deliver(target, seconds, seed_base=seed)
    return load.acked / load.wall


def main() -> int:
    simulator = Simulator()
    netsim = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=netsim.run, daemon=True).start()
    env = {"APPLIANCE_GRAPH_API_URL": f"http://127.0.0.1:{netsim.effective_port}", "APPLIANCE_BACKUP_AT": "off"}
    account = simulator.network.create_account(name="Bench", numbers=[{"displayPhoneNumber": "+1 555 000 0001"}])
    number = simulator.network.numbers[account.numbers[0]]
    data_dir = Path(scratch_dir("bench-backup-"))
    with running_server(env=env, data_dir=str(data_dir)) as port:
        jwt, org_id = _connect_account(Target(port, account, number))
    started = time.perf_counter()
    _grow(data_dir, org_id)
    media_bytes = sum(p.stat().st_size for p in (data_dir / "media").rglob("*") if p.is_file())
    print(f"installation: database {(data_dir / 'appliance.db').stat().st_size / 1e9:.2f} GB, {MEDIA} media files "
          f"({media_bytes / 1e6:.0f} MB), made in {time.perf_counter() - started:.0f} s")

    bench_inbound.CLIENTS = 4
    with running_server(env=env, data_dir=str(data_dir), pinned=False) as port:
        target = Target(port, account, number)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, login = _call(conn, "POST", "/auth/login", {"email": "b@example.com", "password": "bench password"})
        token = login["data"]["tokens"]["accessToken"]
        _rate_for(target, 3, seed=900)  # warm-up
        before = _rate_for(target, BASE_SECONDS, seed=1000)
        status, started_backup = _call(conn, "POST", "/installation/backups", {}, token=token)
        assert status == 202, (status, started_backup)
        backup_id, key = started_backup["data"]["id"], started_backup["data"]["backupKey"]
        done = threading.Event()
        during_rates: list[float] = []

        def load_during() -> None:
            seed = 2000
            while not done.is_set():
                during_rates.append(_rate_for(target, 5, seed=seed))
                seed += 100

        loader = threading.Thread(target=load_during)
        loader.start()
        while True:
            time.sleep(0.5)
            _, row = _call(conn, "GET", f"/installation/backups/{backup_id}", token=token)
            if row["data"]["status"] != "RUNNING":
                break
        done.set()
        loader.join()
        backup = row["data"]
        after = _rate_for(target, BASE_SECONDS, seed=5000)
    assert backup["status"] == "READY", backup
    from datetime import datetime
    took = (datetime.fromisoformat(backup["finishedAt"].replace("Z", "+00:00"))
            - datetime.fromisoformat(backup["createdAt"].replace("Z", "+00:00"))).total_seconds()
    during = sum(during_rates) / len(during_rates)
    share = during / ((before + after) / 2)
    archive = data_dir / "backups" / backup["fileName"]

    fresh = Path(scratch_dir("bench-restore-"))
    started = time.perf_counter()
    restored = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(fresh), "restore", str(archive),
                               "--key", key], capture_output=True, text=True,
                              env={**os.environ, "APPLIANCE_LOG_LEVEL": "WARNING"})
    restore_seconds = time.perf_counter() - started
    assert restored.returncode == 0, restored.stderr
    rows = sqlite3.connect(fresh / "appliance.db").execute("SELECT count(*) FROM bench_history").fetchone()[0]

    print(f"backup                   {took:6.1f} s   (goal < {TARGET_BACKUP_SECONDS} s), archive "
          f"{backup['sizeBytes'] / 1e9:.2f} GB")
    print(f"inbound rate             before {before:.0f}/s, during {during:.0f}/s ({len(during_rates)} slices: "
          f"{', '.join(f'{r:.0f}' for r in during_rates)}), after {after:.0f}/s")
    print(f"kept during the backup   {share:6.0%}   (goal >= {TARGET_SHARE:.0%})")
    print(f"restore                  {restore_seconds:6.1f} s   (goal < {TARGET_RESTORE_SECONDS} s), {rows} history rows back")
    ok = took < TARGET_BACKUP_SECONDS and share >= TARGET_SHARE and restore_seconds < TARGET_RESTORE_SECONDS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
