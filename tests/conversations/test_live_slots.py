"""Issue 17, finding 2, reproduced as observed: one organization's key opened every live-update
stream and every other organization's inbox answered 503; slots came back 15-40 s after the
sockets closed. Now an organization holds at most three quarters of the slots, a person or key at
most five, and a slot is free as soon as its client goes (not at the next heartbeat)."""


import pytest
from tests.fixtures.local_server import waitress_serving

from appliance.live import feed
from tests.conversations.test_live_events import Stream
from tests.factories import organization, person
from tests.waiting import eventually

THREADS = 20  # twelve stream slots: nine for one organization at most, five per caller


@pytest.fixture
def settings(settings):
    return settings.replace(live_heartbeat_seconds=60, threads=THREADS)  # a heartbeat would be far too late


@pytest.fixture
def served(app):
    with waitress_serving(app, threads=THREADS, channel_request_lookahead=1) as url:
        yield url
        # As the server does when it stops: every stream ends and gives its slot back.
        feed.signal.close()
        try:
            eventually(lambda: feed.slots.open, lambda open_slots: open_slots == 0, seconds=5)
        finally:
            feed.signal.reopen()


def _key(api, org_id, token, name):
    return {"X-Api-Key": api.post(f"/organizations/{org_id}/api-keys", {"name": name}, token=token).json["data"]["secret"]}


def test_one_tenant_cannot_take_every_slot_and_slots_come_back_at_once(api, owner, served):
    limit = feed.stream_limit(THREADS)
    org_id = owner["org"]["id"]
    url = f"{served}/organizations/{org_id}/events"
    leaked = _key(api, org_id, owner["token"], "leaked")
    streams = [Stream(url, leaked) for _ in range(feed.STREAMS_PER_CALLER)]
    assert all(s.response.status_code == 200 for s in streams)
    sixth = Stream(url, leaked)
    assert sixth.response.status_code == 429 and sixth.response.json()["code"] == "too_many_streams_for_caller"
    assert sixth.response.headers["Retry-After"] == "5"

    keys = [_key(api, org_id, owner["token"], f"k{i}") for i in range(3)]
    while feed.slots.open < feed.organization_limit(limit):
        opened = Stream(url, keys[feed.slots.open % 3])
        assert opened.response.status_code == 200
        streams.append(opened)
    over = Stream(url, keys[0])
    assert over.response.status_code == 429 and over.response.json()["code"] == "too_many_streams_for_organization"

    other = person(api, email="otra@example.com")["tokens"]["accessToken"]
    other_org = organization(api, other, name="Otra", slug="otra")["id"]
    theirs = Stream(f"{served}/organizations/{other_org}/events", {"Authorization": f"Bearer {other}"})
    assert theirs.response.status_code == 200  # another organization's inbox still opens
    streams.append(theirs)

    before = feed.slots.open
    for stream in streams:
        stream.close()
    eventually(lambda: feed.slots.open, lambda open_slots: open_slots == 0, seconds=3)  # heartbeat is 60 s
    assert before == feed.organization_limit(limit) + 1
