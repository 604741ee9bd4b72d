"""A public https address without opening ports: the appliance runs Cloudflare's `cloudflared tunnel
run` with the owner's tunnel token (APPLIANCE_TUNNEL=cloudflare) and keeps it running.

- The token goes in cloudflared's environment (`TUNNEL_TOKEN`, which cloudflared reads), never on
  its command line (any user of the machine may read command lines) nor in the log.
- The program is APPLIANCE_CLOUDFLARED or `cloudflared` on PATH; when there is none, the tunnel's
  state is `missing` with a sentence, looked for again at each backoff (installing it later is enough).
- It is `running` once cloudflared says it registered a connection with Cloudflare's edge; when it
  stops, it is started again after 1, 2, 4... up to 60 seconds (back to 1 after it ran a minute),
  and the last line it wrote before stopping is kept as `lastError`.
- The state is the Go live page's and /installation/status's; stopping the server stops cloudflared.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from appliance.core import clock

log = logging.getLogger(__name__)

CONNECTED_MARK = "Registered tunnel connection"  # what cloudflared logs once the edge accepted it
LOST_MARKS = ("Unregistered tunnel connection", "Retrying connection")  # ... and once it lost it
_PASSED_ON = ("PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TEMP", "TMP", "TMPDIR", "LANG", "HTTPS_PROXY", "NO_PROXY")
FIRST_BACKOFF, LONGEST_BACKOFF = 1.0, 60.0
STEADY_SECONDS = 60.0  # a run this long resets the backoff
LAST_LINE_CHARS = 300


@dataclass
class TunnelState:
    state: str = "off"  # off | starting | running | restarting | missing | stopped
    last_error: str | None = None
    restarts: int = 0
    started_at: datetime | None = None
    connected_at: datetime | None = None
    changed_at: datetime = field(default_factory=clock.now)

    def as_dict(self) -> dict:
        return {"provider": "cloudflare", "state": self.state, "last_error": self.last_error, "restarts": self.restarts,
                "started_at": clock.iso(self.started_at), "connected_at": clock.iso(self.connected_at)}


class TunnelSupervisor:
    """Runs cloudflared in a thread of its own and restarts it with backoff. `wait(seconds)` is
    how the supervisor waits between starts (an Event's wait: tests pass one they can hurry)."""

    def __init__(self, *, token: str, program: str = "", wait: Callable[[float], None] | None = None):
        self.token, self.program = token, program
        self.status = TunnelState(state="starting")
        self._stopping = threading.Event()
        self._wait = wait or self._stopping.wait
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._supervise, name="tunnel", daemon=True)

    def start(self) -> "TunnelSupervisor":
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        with self._lock:
            process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
        if self._thread.is_alive():  # never started when the token was missing (start() below)
            self._thread.join(timeout)
        self._set("stopped")

    def _set(self, state: str, **changes) -> None:
        for name, value in changes.items():
            setattr(self.status, name, value)
        self.status.state, self.status.changed_at = state, clock.now()

    def _find(self) -> str | None:
        if self.program:
            return self.program if os.access(self.program, os.X_OK) else None
        return shutil.which("cloudflared")

    def _supervise(self) -> None:
        backoff = FIRST_BACKOFF
        while not self._stopping.is_set():
            program = self._find()
            if program is None:
                self._set("missing", last_error=(f"{self.program} is not an executable program" if self.program else
                                                 "cloudflared is not installed (not found on PATH); install it or "
                                                 "set APPLIANCE_CLOUDFLARED"))
            else:
                began = time.monotonic()
                self._run_once(program)
                if time.monotonic() - began >= STEADY_SECONDS:
                    backoff = FIRST_BACKOFF
                if self._stopping.is_set():
                    return
                self.status.restarts += 1
                self._set("restarting")
                log.warning("the tunnel stopped (%s); starting it again in %.0f s", self.status.last_error, backoff)
            self._wait(backoff)
            backoff = min(backoff * 2, LONGEST_BACKOFF)

    def _run_once(self, program: str) -> None:
        # Only what cloudflared needs: the appliance's own secrets (APPLIANCE_SECRET_KEY, the SMTP URL)
        # may be in this process's environment.
        environment = {name: os.environ[name] for name in _PASSED_ON if name in os.environ}
        environment.update(TUNNEL_TOKEN=self.token, NO_AUTOUPDATE="true")
        try:
            process = subprocess.Popen([program, "tunnel", "--no-autoupdate", "run"], env=environment,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, errors="replace")
        except OSError as exc:
            self._set("restarting", last_error=f"cloudflared could not start: {exc.strerror or exc}")
            return
        with self._lock:
            self._process = process
            stopping = self._stopping.is_set()
        if stopping:  # stop() came between the start and here: it saw no process to end
            process.terminate()
        self._set("starting", started_at=clock.now(), connected_at=None)
        last_line = ""
        for line in process.stdout:  # cloudflared logs to stderr, joined to stdout above
            line = line.strip()
            if not line:
                continue
            last_line = (line.replace(self.token, "[token]") if self.token else line)[-LAST_LINE_CHARS:]
            if CONNECTED_MARK in line and self.status.state != "running":
                self._set("running", connected_at=clock.now())
            elif any(mark in line for mark in LOST_MARKS) and self.status.state == "running":
                self._set("restarting", last_error=last_line)  # cloudflared reconnects by itself
        code = process.wait()
        with self._lock:
            self._process = None
        if not self._stopping.is_set():
            self.status.last_error = f"cloudflared exited with code {code}" + (f": {last_line}" if last_line else "")


_LOOPBACK = frozenset({"127.0.0.1", "::1"})


def through_tunnel(app):
    """With the tunnel on, every request from the internet comes from cloudflared on this machine:
    such a request's client is Cloudflare's `Cf-Connecting-IP` (honoured only from loopback, where
    cloudflared is), so per-address limits count people, not the tunnel, and "this machine"
    (a scraper of /metrics, the simulator's controls) never means the internet. A request from
    loopback without it is this machine's own."""
    def application(environ, start_response):
        if environ.get("REMOTE_ADDR") in _LOOPBACK:
            visitor = environ.get("HTTP_CF_CONNECTING_IP", "").strip()
            if visitor:
                environ["REMOTE_ADDR"] = visitor[:45]
        return app(environ, start_response)
    return application


_running: TunnelSupervisor | None = None


def start(settings) -> TunnelSupervisor | None:
    """The server's tunnel (serve() calls it), when APPLIANCE_TUNNEL asks for one."""
    global _running
    if settings.tunnel != "cloudflare":
        return None
    if not settings.tunnel_token:
        supervisor = TunnelSupervisor(token="", program=settings.cloudflared)
        supervisor._set("missing", last_error="APPLIANCE_TUNNEL=cloudflare needs APPLIANCE_TUNNEL_TOKEN")
        _running = supervisor
        return None
    _running = TunnelSupervisor(token=settings.tunnel_token, program=settings.cloudflared).start()
    return _running


def state(settings) -> dict:
    """The tunnel as /installation/status and the Go live page show it."""
    if settings.tunnel != "cloudflare":
        return {"provider": None, "state": "off", "last_error": None, "restarts": 0, "started_at": None, "connected_at": None}
    if _running is None:
        return {"provider": "cloudflare", "state": "stopped", "last_error": None, "restarts": 0, "started_at": None,
                "connected_at": None}
    return _running.status.as_dict()


def stop() -> None:
    global _running
    if _running is not None:
        _running.stop()
        _running = None
