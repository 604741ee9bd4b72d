"""The TLS channel inside waitress (appliance/http/tls.py), served by waitress as serve() serves it:
an answer's last records still queued when waitress closes a `Connection: close` answer go out
before the socket closes (they were lost: a slow reader got 7.7 of 8 MB), and a client that takes
nothing of its answer is cut by the sweep."""

import hashlib
import socket
import ssl
import threading
import time

import pytest
from waitress.server import create_server

from appliance import server as appliance_server
from appliance.http.tls import tls_channel_class
from appliance.installation.certificates import CertificateStore
from tests.fixtures.tls import make_ca

BODY = bytes(range(256)) * (8 * 4096)  # 8 MiB


def _app(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(BODY)))])
    return [BODY]


@pytest.fixture
def https_server():
    ca = make_ca()
    store = CertificateStore("files")
    store.install(*ca.leaf(("localhost",)))
    server = create_server(_app, host="127.0.0.1", port=0, threads=2, channel_timeout=30, cleanup_interval=1,
                           url_scheme="https")
    appliance_server._close_slow_headers(server)
    server.channel_class = tls_channel_class(server.channel_class, store.server_context())
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield int(server.effective_port), ca
    server.close()


def _slow_read(port: int, ca, pause: float) -> bytes:
    context = ssl.create_default_context(cadata=ca.pem.decode())
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the answer backs up in the server
    raw.connect(("127.0.0.1", port))
    with context.wrap_socket(raw, server_hostname="localhost") as tls:
        tls.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        time.sleep(pause)  # the server has written all it could and waitress has asked to close
        received = bytearray()
        while chunk := tls.recv(65536):
            received += chunk
    return bytes(received)


def test_a_connection_close_answer_reaches_a_slow_reader_whole(https_server):
    port, ca = https_server
    for _ in range(3):
        received = _slow_read(port, ca, pause=2.0)
        head, _, body = received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and len(body) == len(BODY)
        assert hashlib.sha256(body).digest() == hashlib.sha256(BODY).digest()
