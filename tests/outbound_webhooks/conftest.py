"""A receiver of outbound webhooks on loopback that records every request and answers as told:
a status, a delay, a reset connection, a redirect, or bytes that are not HTTP. Delivery runs inline
(the queue's immediate mode): when a request that made deliveries returns, they have been tried."""

from __future__ import annotations

import http.server
import socket
import threading
import time

import pytest


class Hook(http.server.BaseHTTPRequestHandler):
    """`plan` is a list of answers used in turn (the last one stays): an int status, or
    ("sleep", seconds), ("reset",), ("garbage",), ("redirect", url)."""

    requests: list[dict] = []
    plan: list = [200]

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).requests.append({"path": self.path, "headers": dict(self.headers), "body": body, "at": time.time()})
        answer = self.plan[0] if len(self.plan) == 1 else self.plan.pop(0)
        if isinstance(answer, int):
            self._answer(answer)
        elif answer[0] == "sleep":
            time.sleep(answer[1])
            self._answer(200)
        elif answer[0] == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            self.connection.close()
        elif answer[0] == "garbage":
            self.wfile.write(b"this is not http\r\n\r\n")
            self.close_connection = True
        elif answer[0] == "redirect":
            self.send_response(302)
            self.send_header("Location", answer[1])
            self.send_header("Content-Length", "0")
            self.end_headers()

    def _answer(self, status: int):
        text = b'{"ok": true}' if status < 300 else b'{"error": "nope"}'
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)


@pytest.fixture
def hook():
    Hook.requests, Hook.plan = [], [200]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Hook.url = f"http://127.0.0.1:{server.server_port}/in"
    yield Hook
    server.shutdown()
    server.server_close()


class Webhooks:
    """The API of one organization's webhooks, through an API key (the tests move the clock by
    days: a person's access token would expire)."""

    def __init__(self, api, owner):
        self.api, self.owner = api, owner
        org = f"/organizations/{owner['org']['id']}"
        self.base = f"{org}/webhooks-outbound"
        self.key = api.post(f"{org}/api-keys", {"name": "integration"}, token=owner["token"]).json["data"]["secret"]

    def call(self, method, path="", body=None):
        return self.api.client.open(self.base + path, method=method, json=body, headers={"X-Api-Key": self.key})

    def create(self, status=201, **body):
        answer = self.call("POST", "", body)
        assert answer.status_code == status, answer.json
        return answer.json["data"] if status == 201 else answer.json

    def get(self, path="", status=200):
        answer = self.call("GET", path)
        assert answer.status_code == status, answer.json
        return answer.json["data"] if status == 200 else answer.json

    def post(self, path, body=None, status=201):
        answer = self.call("POST", path, body)
        assert answer.status_code == status, answer.json
        return answer.json["data"] if status < 300 else answer.json

    def patch(self, webhook_id, status=200, **body):
        answer = self.call("PATCH", f"/{webhook_id}", body)
        assert answer.status_code == status, answer.json
        return answer.json["data"] if status == 200 else answer.json

    def delete(self, webhook_id):
        assert self.call("DELETE", f"/{webhook_id}").status_code == 204

    def secret(self, webhook_id):
        return self.get(f"/{webhook_id}/secret")["secret"]

    def deliveries(self, webhook_id, **query):
        params = "&".join(f"{k}={v}" for k, v in query.items())
        return self.get(f"/{webhook_id}/deliveries" + (f"?{params}" if params else ""))["items"]


@pytest.fixture
def webhooks(api, owner):
    return Webhooks(api, owner)
