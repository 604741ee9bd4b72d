"""Issue 3's target: an API-key GET of a small organization record keeps at least 60% of the
requests per second of an unauthenticated /health/live, on the same server in the same run
(measured in alternating slices, so that the machine's noise falls on both alike).

Run: make bench   (or .venv/bin/python tests/bench/bench_tenancy.py)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_auth import _call, _measure_interleaved, owner_with_key, running_server  # noqa: E402

TARGET = 0.60
SLICES = 60


def main() -> int:
    with running_server() as port:
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        jwt, org_id, secret = owner_with_key(conn)
        org_path = f"/organizations/{org_id}"
        print("tenancy benchmark: /health/live against an API-key GET of the organization")
        variants = {
            "GET /health/live": lambda c, i: _call(c, "GET", "/health/live")[0],
            "GET /organizations/{id} (key)": lambda c, i: _call(
                c, "GET", org_path, headers={"X-Api-Key": secret})[0],
            "GET /organizations/{id} (JWT)": lambda c, i: _call(c, "GET", org_path, token=jwt)[0],
        }
        _measure_interleaved(port, variants, slices=5)  # warm-up: pools, caches, statements
        results = _measure_interleaved(port, variants, slices=SLICES)
        live, keyed, jwt_read = (r["rps"] for r in results.values())
        ratio = keyed / live
        print(f"API-key GET keeps {ratio:.0%} of /health/live (target {TARGET:.0%}); "
              f"JWT GET keeps {jwt_read / live:.0%}")
        if any(r["errors"] for r in results.values()):
            return 1
        return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
