"""Issue 45: APPLIANCE_TUNNEL=cloudflare runs cloudflared with the owner's token and keeps it running,
tested against a stand-in executable that behaves like it (logs on stderr, "Registered tunnel
connection" once the edge accepts it, a refusal and exit 1 for a bad token, exits when its
connection drops). Backoff is virtual time: the supervisor's wait records what it was asked."""

import os
import sys
import textwrap
import threading

import pytest

from appliance.installation.tunnel import TunnelSupervisor
from tests.waiting import eventually

STAND_IN = textwrap.dedent('''\
    #!{python}
    import os, pathlib, signal, sys, time
    here = pathlib.Path(__file__).parent
    (here / "argv.txt").write_text(" ".join(sys.argv))
    token = os.environ.get("TUNNEL_TOKEN", "")
    print("2026-11-27T10:00:00Z INF Starting tunnel tunnelID=6ff42ae2", file=sys.stderr, flush=True)
    if token != "eyJhIjoiZ29vZCJ9":
        print(f"2026-11-27T10:00:00Z ERR Provided Tunnel token is not valid: {{token}}", file=sys.stderr, flush=True)
        sys.exit(1)
    print("2026-11-27T10:00:01Z INF Registered tunnel connection connIndex=0 location=bog01 protocol=quic",
          file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while not (here / "drop").exists():
        time.sleep(0.02)
    (here / "drop").unlink()
    print("2026-11-27T10:05:00Z ERR Connection terminated error=\\"lost connection to the edge\\"", file=sys.stderr, flush=True)
    sys.exit(3)
    ''')


@pytest.fixture
def cloudflared(tmp_path):
    program = tmp_path / "bin" / "cloudflared"
    program.parent.mkdir()
    program.write_text(STAND_IN.format(python=sys.executable))
    program.chmod(0o755)
    return program


class VirtualWaits:
    """The supervisor's waits between starts, noted and not waited (time is not what is tested)."""

    def __init__(self):
        self.asked: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, seconds: float) -> None:
        with self.lock:
            self.asked.append(seconds)


def test_it_runs_with_the_token_out_of_sight_and_comes_back_when_it_drops(cloudflared):
    waits = VirtualWaits()
    supervisor = TunnelSupervisor(token="eyJhIjoiZ29vZCJ9", program=str(cloudflared), wait=waits).start()
    try:
        eventually(lambda: supervisor.status.state, lambda state: state == "running")
        assert supervisor.status.connected_at is not None and supervisor.status.last_error is None
        argv = (cloudflared.parent / "argv.txt").read_text()
        assert "tunnel" in argv and "run" in argv and "eyJhIjoiZ29vZCJ9" not in argv  # not on the command line

        (cloudflared.parent / "drop").touch()  # the edge drops it: it exits 3
        eventually(lambda: supervisor.status.restarts, lambda restarts: restarts >= 1)
        eventually(lambda: supervisor.status.state, lambda state: state == "running")
        assert "exited with code 3: 2026-11-27T10:05:00Z ERR Connection terminated" in supervisor.status.last_error
        assert waits.asked[0] == 1.0
    finally:
        supervisor.stop()
    assert supervisor.status.state == "stopped"


def test_a_refused_token_is_a_state_with_its_reason_retried_with_backoff_and_never_shown(cloudflared):
    waits = VirtualWaits()
    supervisor = TunnelSupervisor(token="not-the-token", program=str(cloudflared), wait=waits).start()
    try:
        eventually(lambda: len(waits.asked), lambda asked: asked >= 7)
        assert waits.asked[:7] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0]  # doubled, up to a minute
        status = supervisor.status.as_dict()
        assert status["state"] in ("restarting", "starting") and status["restarts"] >= 6
        error = supervisor.status.last_error
        assert "exited with code 1" in error and "token is not valid" in error
        assert "not-the-token" not in error and "[token]" in error
    finally:
        supervisor.stop()


def test_a_missing_cloudflared_is_a_state_not_a_crash_and_installing_it_is_enough(tmp_path, cloudflared):
    waits = VirtualWaits()
    later = tmp_path / "later" / "cloudflared"
    supervisor = TunnelSupervisor(token="eyJhIjoiZ29vZCJ9", program=str(later), wait=waits).start()
    try:
        eventually(lambda: supervisor.status.state, lambda state: state == "missing")
        assert "not an executable program" in supervisor.status.last_error
        later.parent.mkdir()
        os.link(cloudflared, later)
        eventually(lambda: supervisor.status.state, lambda state: state == "running")
    finally:
        supervisor.stop()


def test_a_server_started_with_the_tunnel_shows_it_and_stops_it(tmp_path, cloudflared):
    """As serve() runs it: `tunnel.start(settings)` and `tunnel.state(settings)`."""
    from appliance.installation import tunnel
    from appliance.settings import load_settings

    settings = load_settings({}, data_dir=tmp_path / "data", tunnel="cloudflare", tunnel_token="eyJhIjoiZ29vZCJ9",
                             cloudflared=str(cloudflared))
    assert tunnel.state(load_settings({}, data_dir=tmp_path / "data"))["state"] == "off"
    tunnel.start(settings)
    try:
        eventually(lambda: tunnel.state(settings)["state"], lambda state: state == "running")
    finally:
        tunnel.stop()
    assert tunnel.state(settings)["state"] == "stopped"
    without_token = settings.replace(tunnel_token="")
    tunnel.start(without_token)
    try:
        state = tunnel.state(without_token)
        assert (state["state"], state["last_error"]) == ("missing", "APPLIANCE_TUNNEL=cloudflare needs APPLIANCE_TUNNEL_TOKEN")
    finally:
        tunnel.stop()  # as the server stops: nothing was started, nothing fails
    assert tunnel.state(without_token)["state"] == "stopped"
