import pytest

from tests.fixtures.line import CUSTOMER


class Inbox:
    """The team's side of a test: the conversations API as the owner."""

    def __init__(self, line):
        self.line, self.api = line, line.api
        self.base = f"/organizations/{line.org_id}/conversations"
        self.token = line.owner["token"]

    def call(self, method, path="", body=None, token=None, **query):
        url = self.base + path
        if query:
            url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
        return self.api.client.open(url, method=method, json=body,
                                    headers={"Authorization": f"Bearer {token or self.token}"})

    def ok(self, method, path="", body=None, expect=200, **query):
        answer = self.call(method, path, body, **query)
        assert answer.status_code == expect, answer.json
        return answer.json["data"] if answer.status_code != 204 else None

    def customer(self, text, wa_id=CUSTOMER, name="Ana Pérez"):
        """A customer writes in; answers their conversation."""
        self.line.customer_writes({"type": "text", "text": {"body": text}}, wa_id=wa_id, name=name)
        self.line.deliver()
        return next(c for c in self.ok("GET")["items"] if c["contact"]["waId"] == wa_id)

    def events(self, name):
        from sqlmodel import select

        from appliance.core import runtime
        from appliance.core.events import OutboxEvent
        with runtime.get().db.unit_of_work(write=False) as session:
            return [e.data for e in session.exec(select(OutboxEvent).where(OutboxEvent.name == name)
                                                 .order_by(OutboxEvent.id))]


@pytest.fixture
def inbox(line):
    return Inbox(line)
