"""Issue 3's target: an API-key GET of a small organization record keeps at least 60% of the
requests per second of an unauthenticated /health/live, on the same server in the same run.

Run: make bench   (or .venv/bin/python tests/bench/bench_tenancy.py)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_auth import _call, _measure, running_server  # noqa: E402

TARGET = 0.60


def main() -> int:
    with running_server() as port:
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        _, signup = _call(conn, "POST", "/auth/signup",
                          {"email": "bench@example.com", "password": "bench password", "name": "Bench"})
        jwt = signup["data"]["tokens"]["accessToken"]
        _, org = _call(conn, "POST", "/organizations", {"name": "Bench", "slug": "bench",
                                                        "billingEmail": "b@bench.test"}, token=jwt)
        org_path = f"/organizations/{org['data']['id']}"
        _, key = _call(conn, "POST", f"{org_path}/api-keys", {"name": "bench"}, token=jwt)
        secret = key["data"]["secret"]
        print("tenancy benchmark: /health/live against an API-key GET of the organization")
        results = []
        for _ in range(2):  # alternate, so a noisy moment hurts both sides
            live = _measure(port, "GET /health/live", lambda c, i: _call(c, "GET", "/health/live")[0])
            keyed = _measure(port, "GET /organizations/{id} (key)", lambda c, i: _call(
                c, "GET", org_path, headers={"X-Api-Key": secret})[0])
            jwt_read = _measure(port, "GET /organizations/{id} (JWT)", lambda c, i: _call(
                c, "GET", org_path, token=jwt)[0])
            results.append((live["rps"], keyed["rps"], jwt_read["rps"]))
        live_rps = sum(r[0] for r in results) / len(results)
        key_rps = sum(r[1] for r in results) / len(results)
        jwt_rps = sum(r[2] for r in results) / len(results)
        ratio = key_rps / live_rps
        print(f"API-key GET keeps {ratio:.0%} of /health/live (target {TARGET:.0%}); "
              f"JWT GET keeps {jwt_rps / live_rps:.0%}")
        return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
