"""The installation's state in Prometheus's text format (GET /metrics with APPLIANCE_METRICS=true),
written by `prometheus-client`, from the same reading as GET /installation/status, at each scrape (a
registry of its own: nothing global, nothing counted twice)."""

from __future__ import annotations

from datetime import datetime

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from sqlmodel import Session

from appliance.operations import service

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _seconds(moment) -> float:
    if moment is None:
        return 0.0
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return moment.timestamp()


class _StatusCollector:
    def __init__(self, found: dict):
        self.found = found

    def collect(self):
        found = self.found
        yield InfoMetricFamily("appliance", "The program", value={"version": found["version"]})
        gauges = [
            ("appliance_started_at_seconds", "When the process started (Unix time)", _seconds(found["started_at"])),
            ("appliance_database_size_bytes", "The database's files", found["database"]["size_bytes"]),
            ("appliance_disk_free_bytes", "Free space where the data directory is", found["disk"]["free_bytes"]),
            ("appliance_queue_waiting_tasks", "Background tasks waiting", found["queue"]["waiting"]),
            ("appliance_backups_by_postgresql", "1 when PostgreSQL's own tools back the database up, not the appliance",
             1 if found["backups"]["by_postgresql"] else 0),
            ("appliance_tls_certificate_expiry_seconds", "When the served certificate expires (0: none)",
             _seconds(found["tls"]["not_after"])),
            ("appliance_tunnel_up", "1 while the tunnel is connected", 1 if found["tunnel"]["state"] == "running" else 0),
            ("appliance_whatsapp_last_delivery_seconds", "Meta's last signed delivery accepted (0: none)",
             _seconds(found["whatsapp"]["last_delivery_at"])),
            ("appliance_public_address_problems", "Problems of the public address (0: none)",
             len(found["public_address"]["problems"])),
        ]
        if not found["backups"]["by_postgresql"]:
            # On PostgreSQL the appliance makes no backups: a "newest backup" of 0 would page
            # whoever alerts on an old backup, forever. The rule reads the gauge above instead.
            gauges += [
                ("appliance_backup_last_ready_seconds", "When the newest backup that worked was made (0: none)",
                 _seconds(found["backups"]["last_ready_at"])),
                ("appliance_backup_last_failed_seconds", "When the newest backup that failed was tried (0: none)",
                 _seconds(found["backups"]["last_failed_at"])),
            ]
        for name, text, value in gauges:
            yield GaugeMetricFamily(name, text, value=value)
        # They only go up while the process runs (back to 0 at a start): counters.
        yield CounterMetricFamily("appliance_queue_failed_tasks", "Background tasks that failed since the start",
                                  value=found["queue"]["failed"])
        yield CounterMetricFamily("appliance_whatsapp_refused_verifications",
                                  "Webhook verifications refused since the start",
                                  value=found["whatsapp"]["refused_verifications"])


def render(session: Session) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_StatusCollector(service.read(session)))
    return generate_latest(registry)
