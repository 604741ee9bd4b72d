"""Issue 45: HTTPS served by the appliance itself, on a real `appliance serve`.

- `files`: the certificate files are served, plain HTTP redirects to HTTPS (but /health and the
  ACME challenge), a live stream flows over HTTPS, a changed file serves the next handshake without
  a restart, and an expired or mismatched one is refused with a sentence while the old one serves.
- `acme` against Debian's pebble: a fresh installation gets its certificate over HTTP-01 on its
  own HTTP port and serves it; the status says so.
"""

import http.client
import json
import os
import ssl
import time

from tests.e2e.conftest import free_port, start_server
from tests.fixtures.tls import make_ca, served_certificate
from tests.waiting import eventually


def _admin(port: int) -> str:
    """Sign up the first person (the installation's administrator): their access token."""
    context = ssl._create_unverified_context()  # the test's own server, just started
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
    conn.request("POST", "/auth/signup", json.dumps({"email": "olga@sol.test", "password": "correct horse battery 9",
                                                     "name": "Olga"}), {"Content-Type": "application/json"})
    answer = conn.getresponse()
    body = json.loads(answer.read())
    assert answer.status == 201, body
    return body["data"]["tokens"]["accessToken"]


def _https(port: int, ca_pem: bytes, method: str, path: str, token: str | None = None, body: dict | None = None):
    context = ssl.create_default_context(cadata=ca_pem.decode())
    conn = http.client.HTTPSConnection("localhost", port, context=context, timeout=10)
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {**({"Authorization": f"Bearer {token}"} if token else {}), "Content-Type": "application/json"})
    return conn.getresponse()


def _status(port: int, ca_pem: bytes, token: str) -> dict:
    answer = _https(port, ca_pem, "GET", "/installation/status", token)
    body = json.loads(answer.read())
    assert answer.status == 200, body
    return body["data"]


def test_files_are_served_redirected_to_and_replaced_without_a_restart(tmp_path):
    ca = make_ca()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    first_chain, first_key = ca.leaf(("localhost",))
    cert.write_bytes(first_chain)
    key.write_bytes(first_key)
    port, https_port = free_port(), free_port()
    server = start_server(tmp_path / "data", port, env={
        "APPLIANCE_TLS": "files", "APPLIANCE_TLS_CERT": str(cert), "APPLIANCE_TLS_KEY": str(key),
        "APPLIANCE_HTTPS_PORT": str(https_port), "APPLIANCE_SMTP_URL": "", "APPLIANCE_LIVE_HEARTBEAT_SECONDS": "1"})
    try:
        plain = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        plain.request("GET", "/console?x=1")
        moved = plain.getresponse()
        moved.read()
        assert moved.status == 308 and moved.getheader("Location") == f"https://127.0.0.1:{https_port}/console?x=1"
        plain.request("GET", "/health/live")
        assert plain.getresponse().status == 200  # monitors keep plain HTTP
        assert _https(https_port, ca.pem, "GET", "/health").status == 200
        token = _admin(https_port)  # sign-up over HTTPS works like over HTTP

        # A live stream flows over HTTPS: its heartbeats arrive through TLS on a connection kept open.
        made = _https(https_port, ca.pem, "POST", "/organizations", token,
                      {"name": "Panadería Sol", "slug": "panaderia-sol", "billingEmail": "olga@sol.test"})
        org_id = json.loads(made.read())["data"]["id"]
        stream = _https(https_port, ca.pem, "GET", f"/organizations/{org_id}/events", token)
        assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")
        assert stream.fp.readline()  # the first line of the stream (a heartbeat within 1 s)
        stream.close()

        status = _status(https_port, ca.pem, token)["tls"]
        assert status["mode"] == "files" and status["domains"] == ["localhost"] and status["lastError"] is None

        first_serial = served_certificate(https_port, ca.pem).serial_number
        expired_chain, expired_key = ca.leaf(("localhost",), days=1, starts_days_ago=3)
        cert.write_bytes(expired_chain)
        key.write_bytes(expired_key)
        status = eventually(lambda: _status(https_port, ca.pem, token)["tls"], lambda tls: tls["lastError"], seconds=20)
        assert "expired" in status["lastError"]
        assert served_certificate(https_port, ca.pem).serial_number == first_serial  # the old one serves

        other_chain, _ = ca.leaf(("localhost",))
        _, wrong_key = ca.leaf(("localhost",))
        cert.write_bytes(other_chain)
        key.write_bytes(wrong_key)
        eventually(lambda: _status(https_port, ca.pem, token)["tls"]["lastError"],
                   lambda error: error and "does not match its private key" in error, seconds=20)
        assert served_certificate(https_port, ca.pem).serial_number == first_serial

        new_chain, new_key = ca.leaf(("localhost", "chat.sol.test"))
        key.write_bytes(new_key)
        cert.write_bytes(new_chain)
        eventually(lambda: served_certificate(https_port, ca.pem).serial_number, lambda serial: serial != first_serial,
                   seconds=20)
        status = _status(https_port, ca.pem, token)["tls"]
        assert status["lastError"] is None and status["domains"] == ["localhost", "chat.sol.test"]
    finally:
        server.terminate()
        server.wait(30)


def test_a_fresh_installation_gets_its_certificate_from_pebble_and_serves_it(tmp_path, pebble):
    port, https_port = free_port(), free_port()
    acme = pebble(port)  # pebble checks HTTP-01 on the appliance's HTTP port
    server = start_server(tmp_path / "data", port, env={
        "APPLIANCE_TLS": "acme", "APPLIANCE_TLS_DOMAINS": "localhost", "APPLIANCE_HTTPS_PORT": str(https_port),
        "APPLIANCE_ACME_DIRECTORY_URL": acme.directory_url, "APPLIANCE_ACME_CA_BUNDLE": str(acme.ca_bundle),
        "APPLIANCE_SMTP_URL": ""})
    try:
        root = acme.root_pem()
        began = time.monotonic()
        served = eventually(lambda: _try_certificate(https_port, root), seconds=60, every=0.2)
        issued_in = time.monotonic() - began
        assert served.issuer != served.subject and "localhost" in str(served.extensions)
        token = _admin(https_port)
        with open(tmp_path / "data" / "tls" / "certificate.pem", "rb") as stored:
            assert b"PRIVATE KEY" in stored.read()
        assert oct(os.stat(tmp_path / "data" / "tls" / "certificate.pem").st_mode & 0o777) == "0o600"
        status = _status(https_port, root, token)["tls"]
        assert status["mode"] == "acme" and status["domains"] == ["localhost"] and status["lastError"] is None
        assert status["notAfter"] and status["renewAt"] < status["notAfter"]
        print(f"certificate issued and served {issued_in:.1f} s after the server was ready")
    finally:
        server.terminate()
        server.wait(30)

    # The next start serves the stored certificate at once, before asking pebble for anything.
    acme.stop()
    again = start_server(tmp_path / "data", port, env={
        "APPLIANCE_TLS": "acme", "APPLIANCE_TLS_DOMAINS": "localhost", "APPLIANCE_HTTPS_PORT": str(https_port),
        "APPLIANCE_ACME_DIRECTORY_URL": acme.directory_url, "APPLIANCE_ACME_CA_BUNDLE": str(acme.ca_bundle),
        "APPLIANCE_SMTP_URL": ""})
    try:
        assert served_certificate(https_port, root).serial_number == served.serial_number
    finally:
        again.terminate()
        again.wait(30)


def _try_certificate(port: int, root: bytes):
    try:
        return served_certificate(port, root)
    except (OSError, ssl.SSLError):
        return None
