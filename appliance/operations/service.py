"""The installation at a glance, for its administrators and monitoring (GET /installation/status,
the console's status page, /metrics): version and start, the database and the disk, the queue,
backups, the public address, HTTPS (the certificate: domains, notAfter, lastError), the tunnel,
and what Meta last did."""

from __future__ import annotations

import shutil

from sqlmodel import Session

import appliance
from appliance.backups import service as backups
from appliance.core import clock, queue, runtime
from appliance.installation import https, public_address, tunnel
from appliance.wabas import webhook_setup

STARTED_AT = clock.now()


def _disk(settings) -> dict:
    usage = shutil.disk_usage(settings.data_dir)
    return {"free_bytes": usage.free, "total_bytes": usage.total}


def read(session: Session) -> dict:
    settings = runtime.get().settings
    address = public_address.state(session)
    meta = webhook_setup.installation_activity(session)
    return {
        "version": appliance.__version__, "started_at": STARTED_AT,
        "database": runtime.get().db.facts(session),
        "disk": _disk(settings),
        "queue": queue.counts(),
        "backups": backups.summary(session),
        "public_address": {"base_url": address.base_url, "source": address.source, "problems": list(address.problems)},
        "tls": https.state(settings),
        "tunnel": tunnel.state(settings),
        "whatsapp": {"last_delivery_at": meta.last_delivery_at, "verified_at": meta.verified_at,
                     "last_rejected_at": meta.last_rejected_at, "refused_verifications": meta.refused_verifications},
    }
