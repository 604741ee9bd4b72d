"""Native pushes through FCM's HTTP v1 API, against a local double of Google's token endpoint and
of messages:send: the service account's JWT is checked with its public key, the access token is
reused, a device the app left (UNREGISTERED) is forgotten."""

import json
from urllib.parse import parse_qs

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from appliance.push import fcm
from tests.fixtures.local_server import QuietHandler, serving

PRIVATE = rsa.generate_private_key(public_exponent=65537, key_size=2048)


class Google(QuietHandler):
    tokens_issued = 0
    sent: list[dict] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/token":
            form = parse_qs(body.decode())
            claims = jwt.decode(form["assertion"][0], PRIVATE.public_key(), algorithms=["RS256"],
                                audience=f"http://127.0.0.1:{self.server.server_port}/token")
            assert form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
            assert claims["scope"] == fcm.SCOPE and claims["iss"] == "push@sol.iam.gserviceaccount.com"
            type(self).tokens_issued += 1
            return self._json(200, {"access_token": "ya29.local", "expires_in": 3600, "token_type": "Bearer"})
        assert self.path == "/v1/projects/sol-app/messages:send", self.path
        assert self.headers["Authorization"] == "Bearer ya29.local"
        message = json.loads(body)["message"]
        type(self).sent.append(message)
        if message["token"] == "left-the-app":
            return self._json(404, {"error": {"code": 404, "status": "NOT_FOUND",
                                              "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                                                           "errorCode": "UNREGISTERED"}]}})
        return self._json(200, {"name": "projects/sol-app/messages/1"})

    def _json(self, status, body):
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture
def google():
    Google.tokens_issued, Google.sent = 0, []
    fcm._token.clear()
    with serving(Google) as server:
        yield server.url


@pytest.fixture
def settings(settings, google, tmp_path):
    key = tmp_path / "firebase.json"
    key.write_text(json.dumps({
        "type": "service_account", "project_id": "sol-app", "client_email": "push@sol.iam.gserviceaccount.com",
        "token_uri": f"{google}/token",
        "private_key": PRIVATE.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                             serialization.NoEncryption()).decode()}))
    return settings.replace(fcm_credentials=str(key), fcm_url=google)


def test_devices_get_native_pushes_and_one_that_left_the_app_is_forgotten(api, owner, google):
    headers = {"Authorization": f"Bearer {owner['token']}"}
    assert api.client.get("/push/config", headers=headers).json["data"]["native"] == {"ios": True, "android": True}  # iPhones through Firebase
    for token in ("pixel-8", "left-the-app"):
        assert api.client.post("/push/device", json={"token": token, "platform": "ANDROID"}, headers=headers).status_code == 200
    assert api.client.post("/push/test", headers=headers).json["data"] == {"subscriptions": 0, "devices": 2}
    assert sorted(m["token"] for m in Google.sent) == ["left-the-app", "pixel-8"]
    sent = next(m for m in Google.sent if m["token"] == "pixel-8")
    assert sent["notification"] == {"title": "Test notification", "body": "This is how customers will get your attention."}
    assert sent["data"] == {"url": "/inbox", "tag": "test"} and sent["android"]["priority"] == "high"
    devices = api.client.get("/push/subscriptions", headers=headers).json["data"]
    assert len(devices) == 1 and devices[0]["lastSuccessAt"]
    api.client.post("/push/test", headers=headers)
    assert Google.tokens_issued == 1  # the access token is kept until it nears its end
