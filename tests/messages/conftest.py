"""Sending runs inline here (the queue's immediate mode): a POST commits, then its number's queue
sends to the simulator on loopback before the test goes on."""

import pytest
import requests

from tests.fixtures.line import CUSTOMER


class Outbox:
    """The business side of a test: send through the API, look at what the network got."""

    def __init__(self, line):
        self.line = line
        self.base = f"/organizations/{line.org_id}/messages"
        # A key: unlike a person's 15-minute token it outlives the tests that move the clock.
        self.key = line.api.post(f"/organizations/{line.org_id}/api-keys", {"name": "tienda"},
                                 token=line.owner["token"]).json["data"]["secret"]

    def call(self, method: str, path: str, body=None, **kwargs):
        return self.line.api.client.open(self.base + path, method=method, json=body,
                                         headers={"X-Api-Key": self.key}, **kwargs)

    def send(self, body: dict | None = None, *, path: str = "", **fields):
        body = {"phoneNumberId": self.line.number["id"], "to": CUSTOMER, **(body or {}), **fields}
        return self.call("POST", path, body)

    def text(self, text="Sí, recién salido del horno", **fields):
        answer = self.send(type="text", payload={"body": text}, **fields)
        assert answer.status_code == 201, answer.json
        return answer.json["data"]

    def get(self, message_id: str) -> dict:
        answer = self.call("GET", f"/{message_id}")
        assert answer.status_code == 200, answer.json
        return answer.json["data"]

    def network_got(self) -> list[dict]:
        return requests.get(f"{self.line.netsim_url}/_control/sent", timeout=5).json()["data"]

    def faults(self, **faults):
        assert requests.put(f"{self.line.netsim_url}/_control/faults", json=faults, timeout=5).status_code == 200


@pytest.fixture
def outbox(line):
    line.customer_writes()  # the customer opens the 24-hour window
    line.deliver()
    return Outbox(line)
