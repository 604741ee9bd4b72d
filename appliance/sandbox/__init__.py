"""Sandbox mode (`appliance serve --sandbox`, APPLIANCE_SANDBOX=true): the network simulator runs in
this process, mounted at /netsim, and plays the WhatsApp network. Every new organization gets a
simulated business account with one number, connected as `sandbox: true`, so a fresh install can be
tried end to end with no Meta account. Its customers are driven through the simulator's control API
(/netsim/_control/...).

The simulator keeps its state in memory; on start the sandbox accounts stored in the database are
recreated in it with their ids and secrets. A demo mode, and so the one place outside server.py
that assumes a single process.
"""

from __future__ import annotations

import logging

from appliance.netsim.simulator import Simulator

log = logging.getLogger("appliance.sandbox")
MOUNT_PATH = "/netsim"
_simulator: Simulator | None = None


def local_url(settings) -> str:
    """How this process reaches itself (the simulator's Graph API and our webhook)."""
    return f"http://127.0.0.1:{settings.port}"


def graph_url(settings) -> str:
    return local_url(settings) + MOUNT_PATH


def webhook_url(settings) -> str:
    return local_url(settings) + "/webhooks/whatsapp"


def simulator() -> Simulator:
    if _simulator is None:
        raise RuntimeError("the sandbox is not running")
    return _simulator


def start(settings) -> Simulator:
    """A fresh simulator with the stored sandbox accounts recreated in it (app.py mounts it)."""
    global _simulator
    _simulator = Simulator()
    from appliance.sandbox import service
    restored = service.restore(_simulator, webhook_url(settings))
    log.info("sandbox: simulated network at %s (%d business accounts restored)", graph_url(settings), restored)
    return _simulator
