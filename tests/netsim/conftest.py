"""The network simulator served over loopback (waitress in a thread), a webhook receiver that
records what the simulator posts, and the real Graph client pointed at it."""

from __future__ import annotations

import http.server
import threading

import pytest
import requests
from waitress.server import create_server

from appliance.graph_api.client import GraphClient
from appliance.netsim.app import create_netsim_app
from appliance.netsim.simulator import Simulator


@pytest.fixture
def simulator():
    return Simulator()


@pytest.fixture
def netsim_url(simulator):
    server = create_server(create_netsim_app(simulator), host="127.0.0.1", port=0, threads=4)
    closing = threading.Event()

    def serve():
        try:
            server.run()
        except OSError:  # waitress's select loop meets the socket closed under it at teardown
            if not closing.is_set():
                raise

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    closing.set()
    server.close()


@pytest.fixture
def graph(netsim_url):
    return GraphClient(netsim_url, "v23.0", timeout=2.0)


class Receiver(http.server.BaseHTTPRequestHandler):
    posts: list[tuple[dict, bytes]] = []
    answer_status = 200

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.posts.append((dict(self.headers), body))
        self.send_response(Receiver.answer_status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    Receiver.posts, Receiver.answer_status = [], 200
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/webhooks/whatsapp", Receiver
    server.shutdown()


@pytest.fixture
def account(netsim_url, receiver):
    """A business account with one number whose webhooks go to the receiver."""
    answer = requests.post(f"{netsim_url}/_control/accounts", json={
        "name": "Panadería Sol", "webhookUrl": receiver[0],
        "numbers": [{"displayPhoneNumber": "+1 555 010 2000", "verifiedName": "Panadería Sol"}]}, timeout=5)
    assert answer.status_code == 201, answer.text
    return answer.json()
