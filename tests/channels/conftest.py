"""The app's Graph API is the simulator on loopback. `line` is a connected business account whose
webhooks the simulator posts to a recorder; tests replay those exact bytes and headers into the app,
as Meta's deliveries would arrive."""

import pytest
import requests

from tests.netsim.conftest import account, netsim_url, receiver, simulator  # noqa: F401  (fixtures)
from tests.organizations.conftest import add_member, owner  # noqa: F401  (fixtures)

VERIFY_TOKEN = "sol-verify-2026"
CUSTOMER = "5215512345678"


@pytest.fixture
def settings(settings, netsim_url):  # noqa: F811
    return settings.replace(graph_api_url=netsim_url, graph_timeout_seconds=2.0)


class Line:
    """The business's side (the app, through the API) and the customer's (the simulator)."""

    def __init__(self, api, client, owner, account, netsim_url, receiver, simulator):
        self.api, self.client, self.owner, self.account, self.simulator = api, client, owner, account, simulator
        self.netsim_url, self.receiver = netsim_url, receiver[1]
        self.org_id = owner["org"]["id"]
        connected = api.post(f"/organizations/{self.org_id}/wabas", {
            "wabaId": account["wabaId"], "accessToken": account["accessToken"], "appSecret": account["appSecret"],
            "verifyToken": VERIFY_TOKEN}, token=owner["token"])
        assert connected.status_code == 201, connected.json
        self.waba = connected.json["data"]
        self.number = api.get(f"/organizations/{self.org_id}/phone-numbers", token=owner["token"]).json["data"][0]

    def customer_writes(self, message: dict | None = None, *, wa_id=CUSTOMER, name="Ana Pérez", media=None) -> str:
        body = {"phoneNumberId": self.account["numbers"][0]["id"], "from": wa_id, "name": name,
                **(message or {"type": "text", "text": {"body": "Hola, ¿tienen pan?"}})}
        if media:
            body["media"] = media
        answer = requests.post(f"{self.netsim_url}/_control/inbound", json=body, timeout=5)
        assert answer.status_code == 201, answer.text
        return answer.json()["wamid"]

    def deliveries(self) -> list[tuple[dict, bytes]]:
        """What the simulator posted since the last call (waits until it has posted everything)."""
        assert requests.post(f"{self.netsim_url}/_control/wait", timeout=35).json()["idle"]
        posts, self.receiver.posts[:] = list(self.receiver.posts), []
        return posts

    def replay(self, headers: dict, body: bytes):
        return self.client.post("/webhooks/whatsapp", data=body, headers={
            "Content-Type": headers.get("Content-Type", "application/json"),
            "X-Hub-Signature-256": headers.get("X-Hub-Signature-256", "")})

    def deliver(self):
        """Replay every pending delivery; the app's answers."""
        return [self.replay(headers, body) for headers, body in self.deliveries()]

    def get(self, path):
        answer = self.api.get(f"/organizations/{self.org_id}{path}", token=self.owner["token"])
        assert answer.status_code == 200, answer.json
        return answer.json["data"]


@pytest.fixture
def line(api, client, owner, account, netsim_url, receiver, simulator):  # noqa: F811
    return Line(api, client, owner, account, netsim_url, receiver, simulator)
