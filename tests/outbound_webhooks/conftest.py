"""The API of one organization's webhooks. Delivery runs inline (the queue's immediate mode): when a
request that made deliveries returns, they have been tried. The receiver is tests/fixtures/hook.py."""

from __future__ import annotations

import pytest

from tests.fixtures.hook import Hook  # noqa: F401  (tests import it from here)


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
