"""The real server process: `python -m appliance serve` with waitress and the consumer."""

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import closing

import pytest

from tests.waiting import eventually

pytestmark = pytest.mark.slow


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _hammer(port, seconds, started: threading.Event):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live", timeout=1).read()
        except OSError:
            return
        started.set()


def _ready(port, proc):
    assert proc.poll() is None, proc.stdout.read()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=2) as r:
            return json.load(r)
    except OSError:
        return None


def _wait_ready(port, proc, timeout=30):
    return eventually(lambda: _ready(port, proc), seconds=timeout, every=0.2)


def _mail_statuses(data_dir) -> list[str]:
    with closing(sqlite3.connect(data_dir / "appliance.db")) as db:
        return [status for (status,) in db.execute("SELECT status FROM outgoing_mails")]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_answers_and_stops_cleanly(tmp_path, sig):
    """serve migrates, answers /health/ready, and exits 0 on SIGTERM and on Ctrl-C."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "serve",
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert _wait_ready(port, proc)["data"]["checks"] == {"database": "ok", "queue": "ok"}
        body = json.dumps({"email": "a@example.com", "password": "long enough", "name": "A"}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/auth/signup", body,
                                         {"Content-Type": "application/json"})
        assert urllib.request.urlopen(request, timeout=5).status == 201
        eventually(lambda: _mail_statuses(tmp_path), lambda statuses: statuses == ["logged"])  # the consumer's work
        # The signal must stop the server even when it lands inside one of waitress's callbacks:
        # send it while a client keeps opening and closing connections.
        hammering = threading.Event()
        hammer = threading.Thread(target=_hammer, args=(port, 3.0, hammering), daemon=True)
        hammer.start()
        assert hammering.wait(5)
        proc.send_signal(sig)
        output, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, output
    assert "stopped" in output and "mail kept, no SMTP configured: to=a@example.com" in output
    assert (tmp_path / "appliance.db").exists() and (tmp_path / "queue.db").exists()


def test_doctor_checks_the_machine(tmp_path):
    """doctor prints the versions and passes on this machine."""
    result = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "doctor"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "sqlite-vec" in result.stdout and "all checks passed" in result.stdout


def test_migrate_command(tmp_path):
    """migrate brings a new database to the head revision."""
    result = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "migrate"],
                            capture_output=True, text=True, timeout=60)
    from appliance import migrations
    assert result.returncode == 0
    assert f"database at revision {migrations.head_revision()}" in result.stdout


def _appliance(data_dir, *args, timeout=60):
    return subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=timeout)


def test_a_second_server_on_the_same_data_directory_is_refused_with_a_sentence(tmp_path):
    port = _free_port()
    first = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "serve",
                              "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_ready(port, first)
        second = _appliance(tmp_path, "serve", "--port", str(_free_port()))
        assert second.returncode == 2
        assert "another appliance server is already using the data directory" in second.stderr
        assert "Traceback" not in second.stderr
        other_directory = _appliance(tmp_path / "other", "serve", "--port", str(port))  # the port is taken
        assert other_directory.returncode == 2, other_directory.stderr
        assert f"port {port} on 127.0.0.1 is already in use" in other_directory.stderr
        assert "Traceback" not in other_directory.stderr
        assert _ready(port, first)  # the first one never noticed
    finally:
        first.terminate()
        first.wait(timeout=30)
    # Killed, the lock goes with the process: the next server starts.
    first = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "serve",
                              "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_ready(port, first)
        first.kill()
        first.wait(timeout=10)
        again = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "serve",
                                  "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert _wait_ready(port, again)
        finally:
            again.terminate()
            again.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()


def test_a_data_directory_that_cannot_be_written_ends_with_a_sentence(tmp_path):
    # A file where the directory should be: unwritable even for root, who ignores permission bits.
    (tmp_path / "file").write_text("not a directory")
    for command in (["serve", "--port", str(_free_port())], ["doctor"], ["migrate"]):
        result = _appliance(tmp_path / "file" / "data", *command)
        assert result.returncode == 2, (command, result.stderr)
        assert "is not writable" in result.stderr and "Traceback" not in result.stderr, (command, result.stderr)


def test_started_on_any_free_port_it_says_where_last_and_its_links_use_that_port(tmp_path):
    """Issue 43, items 7 and 15h: `serve --port 0` serves on the port the system gives, and every
    link is written with it (the OAuth issuer here); start-up ends with that address, plainly, not
    buried under each migration step and the queue's scheduling (shown at DEBUG only)."""
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path / "data"), "serve",
                                 "--port", "0", "--sandbox"], stdout=log, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "APPLIANCE_LOG_LEVEL": "INFO", "APPLIANCE_BASE_URL": ""})
    try:
        said = eventually(lambda: re.search(r"open (http://127\.0\.0\.1:(\d+)) in a browser", log_path.read_text()),
                          seconds=60, every=0.2)
        address, port = said.group(1), int(said.group(2))
        assert port != 0 and _wait_ready(port, proc)
        with urllib.request.urlopen(f"{address}/.well-known/oauth-authorization-server", timeout=5) as answer:
            assert json.load(answer)["issuer"] == address
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    banner = lines.index(f"The appliance is running: open {address} in a browser.")
    assert "received SIGTERM, stopping" in lines[banner + 1], lines[banner:]  # nothing said after it while running
    assert any(f"simulated network at {address}/netsim" in line for line in lines)  # the sandbox calls itself there
    assert any("database upgraded from empty to" in line for line in lines)
    assert not [line for line in lines if "Running upgrade" in line or " huey" in line], lines


def test_slow_clients_cannot_hold_the_servers_connections(tmp_path):
    """Issue 44, finding 6: 110 sockets trickling their headers, without any credentials, stopped all
    service (waitress took 100 connections and waited 120 s for each). With them open and trickling,
    a normal request is answered within a second, and a request whose headers are still coming after
    10 s is cut off (server.py: HEADER_SECONDS)."""
    port = _free_port()
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path / "data"), "serve",
                                 "--port", str(port)], stdout=log, stderr=subprocess.STDOUT, text=True)
    slow: list[socket.socket] = []
    stop, trickling = threading.Event(), threading.Event()

    def trickle():  # one more header line on every socket, every half second: never idle, never done
        line = 0
        while not stop.wait(0.5):
            line += 1
            for sock in slow:
                try:
                    sock.sendall(f"X-Slow-{line}: a\r\n".encode())
                except OSError:
                    pass
            trickling.set()
    try:
        assert _wait_ready(port, proc, timeout=60)
        for _ in range(110):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(sock)
        threading.Thread(target=trickle, daemon=True).start()
        assert trickling.wait(10)  # every slow socket has sent more than its first line
        for _ in range(3):
            began = time.monotonic()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live", timeout=5) as answer:
                assert answer.status == 200
            assert time.monotonic() - began < 1.0
        first = slow[0]
        first.settimeout(20)

        def cut_off():
            try:
                return first.recv(1024) == b""
            except ConnectionResetError:
                return True
        began = time.monotonic()
        assert cut_off() and time.monotonic() - began < 15  # closed by the server, not answered
    finally:
        stop.set()
        for sock in slow:
            sock.close()
        proc.terminate()
        proc.wait(timeout=30)
