"""Issue 46's footprint targets: from `appliance serve` on an existing data directory to the first 200
of /health/ready in under 3 s (median of 3 starts), and an idle server's resident memory under 150 MB.

The data directory is made once, by a server started and stopped on it: an owner, an organization
with an API key, and a knowledge note read to READY (so the vector and word tables hold rows).
Then the server starts on it BENCH_STARTS times (default 3), with the default settings (64 request
threads, the queue's workers): each start is timed from the process's spawn to the first 200 of
/health/ready (and the CPU time the process had used by then, which a busy machine sways less),
and its VmRSS and thread count are read from /proc BENCH_SETTLE seconds (default 5) after that,
when the start-up work has settled, before it is stopped.

`--commit SHA` measures that commit beside the working tree, with the same virtualenv: its files
are exported (`git archive`, nothing in the repository changes) to a folder in /tmp and the server
is run from there (`python -m appliance` finds the package in its working directory first); each
side makes its own data directory (an older program refuses a newer database). The starts
alternate between the two, in an order that alternates too, so that a noisy moment of a shared
machine falls on both alike.

Run: make bench   (or .venv/bin/python tests/bench/bench_startup.py [--commit fb3393c])
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_auth import _call, _free_port, owner_with_key, running_server, scratch_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TARGET_START_SECONDS = 3.0
TARGET_IDLE_RSS_MB = 150.0
SERVER_ENV = {"APPLIANCE_LOG_LEVEL": "WARNING", "PATH": "/usr/bin:/bin"}
NOTE = ("Enviamos a toda la ciudad de lunes a sábado. El envío cuesta 5.000 pesos y es gratis en pedidos "
        "de más de 80.000. Los domingos no hay reparto. Abrimos de 7 de la mañana a 8 de la noche.")


@dataclass
class Program:
    """The code a server runs: the working tree, or a commit's files exported to /tmp."""
    label: str
    folder: Path
    data_dir: str = ""
    starts: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the process's CPU seconds to ready: less swayed by a busy machine
    rss_mb: list[float] = field(default_factory=list)
    threads: list[int] = field(default_factory=list)


def _export(commit: str) -> Path:
    """The commit's files in a folder of /tmp, removed when the benchmark ends."""
    folder = Path(tempfile.mkdtemp(prefix=f"bench-startup-{commit[:10]}-"))
    atexit.register(shutil.rmtree, folder, True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def _prepare(program: Program) -> None:
    """A data directory used once by this program: an owner, an organization, a note read to READY."""
    program.data_dir = scratch_dir(f"bench-startup-{program.label}-")
    env = {**SERVER_ENV, "PYTHONPATH": str(program.folder)}
    with contextlib.chdir(program.folder), running_server(env=env, data_dir=program.data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _, org_id, key = owner_with_key(conn)
        auth = {"X-Api-Key": key}
        status, note = _call(conn, "POST", f"/organizations/{org_id}/bot/knowledge/notes",
                             {"title": "Envíos", "content": NOTE}, headers=auth)
        if status == 404:  # an older program without the knowledge base (fb3393c, the second wave's)
            print(f"{program.label}: no knowledge base, no note")
            return
        if status != 201:
            raise RuntimeError(f"{program.label}: the note was refused: {status} {note}")
        for _ in range(600):
            if _call(conn, "GET", f"/organizations/{org_id}/bot/knowledge/{note['data']['id']}",
                     headers=auth)[1]["data"]["status"] == "READY":
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"{program.label}: the note was not READY within 60 s")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines if ":" in line)


def _start_once(program: Program, settle: float) -> None:
    """Spawn the server, time it to the first 200 of /health/ready, read its memory after `settle` s."""
    port = _free_port()
    errors = tempfile.TemporaryFile()  # the server's log (warnings and errors), shown if it ends
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", program.data_dir, "serve",
                             "--port", str(port)], cwd=program.folder, stdout=subprocess.DEVNULL,
                            stderr=errors, env={**SERVER_ENV, "PYTHONPATH": str(program.folder)})
    try:
        while True:
            if proc.poll() is not None:
                errors.seek(0)
                raise RuntimeError(f"{program.label}: the server ended: {errors.read().decode()[-2000:]}")
            if time.perf_counter() - started > 60:
                raise RuntimeError(f"{program.label}: not ready within 60 s")
            try:
                # Once the port is bound the request waits in the listen queue until waitress's loop
                # runs, and is answered at that moment: no polling interval is added to the time.
                with contextlib.closing(http.client.HTTPConnection("127.0.0.1", port, timeout=30)) as conn:
                    if _call(conn, "GET", "/health/ready")[0] == 200:
                        break
            except OSError:
                pass
            time.sleep(0.01)
        program.starts.append(time.perf_counter() - started)
        program.cpu.append(_cpu_seconds(proc.pid))
        time.sleep(settle)
        status = _status(proc.pid)
        program.rss_mb.append(int(status["VmRSS"].split()[0]) / 1024)
        program.threads.append(int(status["Threads"]))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        errors.close()


def _report(program: Program) -> None:
    median = statistics.median
    runs = "  ".join(f"{s:.2f} s/{c:.2f} s/{r:.0f} MB" for s, c, r in zip(program.starts, program.cpu, program.rss_mb))
    print(f"{program.label:>12}: start {median(program.starts):.2f} s (CPU {median(program.cpu):.2f} s), "
          f"idle RSS {median(program.rss_mb):.1f} MB, {median(program.threads):.0f} threads "
          f"(median of {len(program.starts)}; each start, CPU, RSS: {runs})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", help="also measure this commit, alternating with the working tree")
    parser.add_argument("--starts", type=int, default=int(os.environ.get("BENCH_STARTS", "3")))
    parser.add_argument("--settle", type=float, default=float(os.environ.get("BENCH_SETTLE", "5")),
                        help="seconds after ready before the memory is read")
    args = parser.parse_args()
    programs = [Program("working tree", ROOT)]
    if args.commit:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", args.commit + "^{commit}"],
                                check=True, capture_output=True, text=True).stdout.strip()
        programs.insert(0, Program(commit[:7], _export(commit)))
    print(f"start-up benchmark: {args.starts} starts each on an existing data directory, "
          f"memory {args.settle:g} s after ready")
    for program in programs:  # also the warm-up: the first start compiles the bytecode and fills the page cache
        _prepare(program)
    # running_server pinned this process to the other cores; the starts measured are not pinned.
    os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    for n in range(args.starts):
        for program in (programs if n % 2 == 0 else programs[::-1]):
            _start_once(program, args.settle)
    for program in programs:
        _report(program)
    mine, median = programs[-1], statistics.median
    if args.commit:
        older = programs[0]
        print(f"working tree / {older.label}: start x{median(mine.starts) / median(older.starts):.2f} "
              f"(CPU x{median(mine.cpu) / median(older.cpu):.2f}), idle RSS x{median(mine.rss_mb) / median(older.rss_mb):.2f}")
    start, rss = median(mine.starts), median(mine.rss_mb)
    print(f"targets: start {start:.2f} s (under {TARGET_START_SECONDS:g} s), "
          f"idle RSS {rss:.1f} MB (under {TARGET_IDLE_RSS_MB:g} MB)")
    return 0 if start < TARGET_START_SECONDS and rss < TARGET_IDLE_RSS_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
