"""What `Idempotency-Key` costs a creating POST (issue 16, section 5): contacts created through the
API of a running server without the header, with a new key each time (one more read and one more
row in the same transaction), and a repeat of a key already answered (the stored answer, no work).
Measured in alternating slices on one server, so the machine's noise falls on all alike; the
figures to compare are the ratios.

Target: a new key keeps at least 70% of the plain POST's requests per second. It is two more
statements in the request's transaction (a read by primary key, the answer inserted), about half a
millisecond here; with the ORM's unit of work instead of Core statements it kept 68%, now 77%.
BENCH_CLIENTS=1 measures one client alone (no wait for the write lock).

Run: .venv/bin/python tests/bench/bench_idempotency.py   (also part of `make bench`)
"""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_auth import _call, _measure_interleaved, owner_with_key, running_server  # noqa: E402

TARGET = 0.70
SLICES = 40
THREADS = int(os.environ.get("BENCH_CLIENTS", "8"))


def main() -> int:
    with running_server() as port:
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        _, org_id, secret = owner_with_key(conn)
        contacts = f"/organizations/{org_id}/contacts"
        auth = {"X-Api-Key": secret}
        numbers = itertools.count(3_000_000)  # shared: every created contact has its own number
        replayed = {"waId": "573109999999", "name": "Repeated"}
        status, _ = _call(conn, "POST", contacts, replayed, headers={**auth, "Idempotency-Key": "repeat-me"})
        assert status == 201, status

        def plain(c, i):
            return _call(c, "POST", contacts, {"waId": f"57300{next(numbers)}"}, headers=auth)[0]

        def new_key(c, i):
            number = next(numbers)
            return _call(c, "POST", contacts, {"waId": f"57300{number}"},
                         headers={**auth, "Idempotency-Key": f"create-{number}"})[0]

        def repeat(c, i):
            return _call(c, "POST", contacts, replayed, headers={**auth, "Idempotency-Key": "repeat-me"})[0]

        variants = {"POST contact, no key": plain, "POST contact, new key": new_key,
                    "POST contact, key repeated": repeat}
        print("idempotency benchmark: creating contacts through the API")
        _measure_interleaved(port, variants, slices=3)  # warm-up: pools, caches, statements
        results = _measure_interleaved(port, variants, slices=SLICES, threads=THREADS)
        base, keyed, replay = (r["rps"] for r in results.values())
        print(f"a new key keeps {keyed / base:.0%} of the plain POST (target {TARGET:.0%}); "
              f"a repeat answers at {replay / base:.0%} of it")
        if any(r["errors"] for r in results.values()):
            return 1
        return 0 if keyed / base >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
