"""A push service on loopback (as Mozilla's or Google's would answer Web Push), browsers with real
P-256 keys that decrypt what it received (http_ece, RFC 8291), and the VAPID signature checked
with the server's public key (RFC 8292)."""

from __future__ import annotations

import base64
import http.server
import json
import os
import threading

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushHandler(http.server.BaseHTTPRequestHandler):
    received: list[dict] = []
    answers: dict[str, int] = {}  # by path: the status to answer (201 otherwise)

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).received.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
        status = type(self).answers.get(self.path, 201)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Browser:
    """A browser profile's push subscription: its own keys, an endpoint at the push service."""

    def __init__(self, service_url: str, name: str):
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.path = f"/push/{name}"
        self.endpoint = service_url + self.path
        point = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": self.endpoint, "p256dh": b64url(point), "auth": b64url(self.auth)}

    def got(self) -> list[dict]:
        return [r for r in PushHandler.received if r["path"] == self.path]

    def read(self, request: dict, vapid_public_key: str) -> dict:
        """The notification as the browser shows it, after checking the VAPID JWT."""
        scheme, _, params = request["headers"]["authorization"].partition(" ")
        assert scheme == "vapid", request["headers"]["authorization"]
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        assert fields["k"] == vapid_public_key
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
        claims = jwt.decode(fields["t"], key=key, algorithms=["ES256"], audience=self.endpoint.split("/push/")[0])
        assert claims["sub"].startswith("mailto:")
        assert request["headers"]["content-encoding"] == "aes128gcm" and int(request["headers"]["ttl"]) == 3600
        plain = http_ece.decrypt(request["body"], private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


@pytest.fixture
def push_service():
    PushHandler.received, PushHandler.answers = [], {}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PushHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", PushHandler
    server.shutdown()
    server.server_close()
