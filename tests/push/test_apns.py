"""Native pushes to iPhones through APNs, against a local HTTP/2 double of Apple's server (the `h2`
package, prior knowledge over loopback): the provider token is checked with the key's public half,
the headers and payload are Apple's, one connection carries every notice, and a token of an app
that was removed (410 Unregistered) is forgotten."""

import json
import socket
import threading

import h2.config
import h2.connection
import h2.events
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from appliance.push import apns

KEY = ec.generate_private_key(ec.SECP256R1())
KEY_ID, TEAM_ID, TOPIC = "ABC123DEFG", "TEAM123456", "co.sol.inbox"


class Apple:
    """An HTTP/2 server answering `POST /3/device/{token}` as APNs does."""

    def __init__(self):
        self.sent: list[dict] = []
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self._listener.close()

    def _accept(self):
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        h2conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        h2conn.initiate_connection()
        conn.sendall(h2conn.data_to_send())
        streams: dict[int, dict] = {}
        with conn:
            while data := conn.recv(65535):
                for event in h2conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id]["body"] += event.data
                        h2conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        self._answer(h2conn, event.stream_id, streams.pop(event.stream_id))
                conn.sendall(h2conn.data_to_send())

    def _answer(self, h2conn, stream_id: int, request: dict):
        headers = request["headers"]
        token = headers["authorization"].removeprefix("bearer ")
        claims = jwt.decode(token, KEY.public_key(), algorithms=["ES256"])
        device = headers[":path"].removeprefix("/3/device/")
        self.sent.append({"device": device, "headers": headers, "claims": claims, "kid": jwt.get_unverified_header(token)["kid"],
                          "token": token, "payload": json.loads(request["body"])})
        status, body = (410, {"reason": "Unregistered", "timestamp": 1790000000000}) if device == "removed-the-app" else (200, None)
        raw = json.dumps(body).encode() if body else b""
        h2conn.send_headers(stream_id, [(":status", str(status)), ("apns-id", f"id-{stream_id}"),
                                        ("content-length", str(len(raw)))], end_stream=not raw)
        if raw:
            h2conn.send_data(stream_id, raw, end_stream=True)


@pytest.fixture
def apple():
    apns._state.clear()
    server = Apple()
    yield server
    server.close()
    apns._state.clear()


@pytest.fixture
def settings(settings, apple, tmp_path):
    key = tmp_path / "AuthKey_ABC123DEFG.p8"
    key.write_bytes(KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    return settings.replace(apns_key=str(key), apns_key_id=KEY_ID, apns_team_id=TEAM_ID, apns_topic=TOPIC,
                            apns_url=apple.url)


def test_iphones_get_pushes_from_apns_on_one_connection_and_a_removed_app_is_forgotten(api, owner, apple):
    headers = {"Authorization": f"Bearer {owner['token']}"}
    assert api.client.get("/push/config", headers=headers).json["data"]["native"] == {"ios": True, "android": False}
    for token, platform in (("a1b2c3d4", "IOS"), ("removed-the-app", "IOS"), ("pixel-8", "ANDROID")):
        assert api.client.post("/push/device", json={"token": token, "platform": platform}, headers=headers).status_code == 200
    assert api.client.post("/push/test", headers=headers).json["data"] == {"subscriptions": 0, "devices": 3}

    assert sorted(sent["device"] for sent in apple.sent) == ["a1b2c3d4", "removed-the-app"]  # no FCM: Android's waits
    sent = next(s for s in apple.sent if s["device"] == "a1b2c3d4")
    assert sent["claims"]["iss"] == TEAM_ID and sent["kid"] == KEY_ID
    assert sent["headers"]["apns-topic"] == TOPIC and sent["headers"]["apns-push-type"] == "alert"
    assert sent["headers"]["apns-priority"] == "10" and sent["headers"]["apns-collapse-id"] == "test"
    assert sent["payload"]["aps"]["alert"] == {"title": "Test notification",
                                               "body": "This is how customers will get your attention."}
    assert sent["payload"]["url"] == "/inbox"

    devices = {d["kind"]: d for d in api.client.get("/push/subscriptions", headers=headers).json["data"]}
    assert len(devices) == 2  # the removed app's token is forgotten
    assert devices["IOS"]["lastSuccessAt"] and not devices["ANDROID"]["lastSuccessAt"]

    api.client.post("/push/test", headers=headers)
    assert len(apple.sent) == 3 and apple.sent[-1]["token"] == sent["token"]  # the provider token is reused
    assert apple.connections == 1  # and so is the connection, as Apple asks


def test_a_key_that_cannot_be_read_is_said_on_the_device(api, owner, apple, settings, tmp_path):
    (tmp_path / "AuthKey_ABC123DEFG.p8").write_text("not a key")
    headers = {"Authorization": f"Bearer {owner['token']}"}
    api.client.post("/push/device", json={"token": "a1b2c3d4", "platform": "IOS"}, headers=headers)
    api.client.post("/push/test", headers=headers)
    [device] = api.client.get("/push/subscriptions", headers=headers).json["data"]
    assert device["lastError"].startswith("APNs is not usable") and apple.sent == []
    assert device["failures"] == 1
