"""Liveness and readiness: is the process up, and can it reach its database and queue store?"""

from __future__ import annotations

import logging
import time

import appliance
from appliance.core import clock, queue, runtime
from appliance.core.errors import Unavailable

log = logging.getLogger(__name__)
_STARTED = time.monotonic()
SERVICE_NAME = "appliance"


def liveness() -> dict:
    return {"status": "ok", "uptime_seconds": round(time.monotonic() - _STARTED, 3)}


def summary() -> dict:
    return {"status": "ok", "service": SERVICE_NAME, "version": appliance.__version__,
            "timestamp": clock.now()}


def readiness() -> dict:
    """Check each dependency; raise Unavailable (503) naming the ones that fail."""
    checks = {"database": runtime.get().db.ping, "queue": queue.ping}
    results = {}
    for name, check in checks.items():
        try:
            check()
            results[name] = "ok"
        except Exception as exc:
            log.warning("readiness check %s failed: %s", name, exc)
            results[name] = "failing"
    if any(state != "ok" for state in results.values()):
        raise Unavailable("Not ready: " + ", ".join(k for k, v in results.items() if v != "ok"),
                          code="not_ready", checks=results)
    return {"status": "ok", "checks": results}
