"""The live-update stream, read over real HTTP from the app served by waitress on loopback."""

import json
import queue
import threading

import pytest
import requests
from tests.fixtures.local_server import waitress_serving

from appliance.live import feed
from tests.factories import another_number
from tests.conversations.test_inbox import OTHER
from tests.waiting import eventually


@pytest.fixture
def settings(settings):
    # Nine threads leave one stream slot (eight are kept for requests); quick heartbeats.
    return settings.replace(live_heartbeat_seconds=0.3, threads=9)


@pytest.fixture
def served(app):
    with waitress_serving(app, threads=9, channel_request_lookahead=1) as url:
        yield url
        # As the server does when it stops: every stream ends and gives its slot back.
        feed.signal.close()
        try:
            eventually(lambda: feed.slots.open, lambda open_slots: open_slots == 0, seconds=5)
        finally:
            feed.signal.reopen()


class Stream:
    """An SSE client on a thread: events arrive in a queue as (id, name, body)."""

    def __init__(self, url, headers):
        self.response = requests.get(url, headers=headers, stream=True, timeout=10)
        self.events, self.comments = queue.Queue(), queue.Queue()
        if self.response.status_code == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event = {}
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line == "":
                    if "data" in event:
                        self.events.put((int(event["id"]), event["event"], json.loads(event["data"])))
                    event = {}
                elif line.startswith(":"):
                    self.comments.put(line)
                else:
                    key, _, value = line.partition(": ")
                    event[key] = value
        except Exception:  # closed by the test
            pass

    def next(self, timeout=5.0):
        return self.events.get(timeout=timeout)

    def until(self, name, timeout=5.0):
        while True:
            got = self.next(timeout)
            if got[1] == name:
                return got

    def close(self):
        self.response.close()


def test_events_arrive_live_and_resume_after_a_reconnect(inbox, served, line):
    url = f"{served}/organizations/{line.org_id}/events"
    auth = {"Authorization": f"Bearer {inbox.token}"}
    stream = Stream(url, auth)
    assert stream.response.status_code == 200
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    conversation = inbox.customer("hola")
    event_id, name, body = stream.until("conversation.created")
    assert body["data"]["conversationId"] == conversation["id"] and body["organizationId"] == line.org_id
    _, _, created = stream.until("message.created")
    assert created["data"]["direction"] == "in"
    stream.close()

    # While nobody listens: a pin and an assignment; the reconnect gets both, in order.
    inbox.ok("POST", f"/{conversation['id']}/pin")
    me = inbox.api.get("/users/me", token=inbox.token).json["data"]["id"]
    inbox.ok("PATCH", f"/{conversation['id']}/assignee", {"userId": me})
    resumed = _eventually_open(url, {**auth, "Last-Event-ID": str(event_id)})
    names = [resumed.next()[1] for _ in range(3)]
    assert names == ["message.created", "conversation.updated", "conversation.assignment_changed"]
    resumed.close()


def _eventually_open(url, headers, seconds=5.0):
    """A new stream once the last one's slot is free (its client left; the next heartbeat notices)."""
    def attempt():
        stream = Stream(url, headers)
        if stream.response.status_code != 200:
            assert stream.response.status_code == 503 and stream.response.json()["code"] == "too_many_streams"
            assert stream.response.headers["Retry-After"] == "5"
        return stream

    return eventually(attempt, lambda stream: stream.response.status_code == 200, seconds=seconds, every=0.2)


def test_a_stream_holds_a_slot_until_its_client_leaves(inbox, served, line):
    url = f"{served}/organizations/{line.org_id}/events"
    auth = {"Authorization": f"Bearer {inbox.token}"}
    first = Stream(url, auth)
    assert first.response.status_code == 200
    assert first.comments.get(timeout=3) .startswith(": connected")
    assert first.comments.get(timeout=3) == ": heartbeat"
    second = Stream(url, auth)
    assert second.response.status_code == 503 and second.response.json()["code"] == "too_many_streams"
    first.close()
    third = _eventually_open(url, auth)
    assert third.response.status_code == 200
    third.close()


def test_a_key_limited_to_other_numbers_hears_nothing_of_this_one(inbox, served, line, api):
    key = api.post(f"/organizations/{line.org_id}/api-keys",
                   {"name": "otra", "phoneNumberIds": [another_number(line.org_id)["phoneNumberPk"]]}, token=inbox.token)
    url = f"{served}/organizations/{line.org_id}/events"
    limited = Stream(url, {"X-Api-Key": key.json["data"]["secret"]})
    assert limited.response.status_code == 200
    inbox.customer("hola", wa_id=OTHER)
    with pytest.raises(queue.Empty):
        limited.next(timeout=1.5)
    limited.close()


def test_bad_resume_ids_and_strangers_are_refused(inbox, served, line, api):
    url = f"{served}/organizations/{line.org_id}/events"
    bad = requests.get(url, headers={"Authorization": f"Bearer {inbox.token}", "Last-Event-ID": "yesterday"}, timeout=5)
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_last_event_id"
    assert requests.get(url, timeout=5).status_code == 401
    stranger = api.signup(email="otra@example.com")["tokens"]["accessToken"]
    refused = requests.get(url, headers={"Authorization": f"Bearer {stranger}"}, timeout=5)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_a_member")


def test_a_stream_the_server_never_started_still_gives_its_slot_back(app, line):
    from appliance.core import runtime
    from appliance.core.actor import OrgActor

    actor = OrgActor(user_id=None, organization_id=line.org_id, membership_id=None, role_key=None,
                     permissions=frozenset({"conversations:read"}))
    before = feed.slots.open
    stream = feed.open_stream(runtime.get().db, actor=actor, last_event_id=None, heartbeat_seconds=1, limit=5)
    assert feed.slots.open == before + 1
    stream.close()  # the client left before the first byte
    stream.close()  # closing twice gives back once
    assert feed.slots.open == before
