"""Issue 43, item 13: console pages that say they follow what changes do. A page with something
still changing names what it follows on its <main> (web/static/live.js does the following): a
template in review hears `template.status`, a campaign hears `broadcast.updated` (its status, and
each reply counted) and its messages' `message.updated` for as long as its counts can change, and a
webhook's log re-reads itself while a delivery is unfinished. The stream carries only what the
person may hear. (tests/e2e/test_live_pages_browser.py watches the same in a browser.)"""

import html
import json
import re
from datetime import timedelta

import pytest

from appliance.core import clock, runtime
from appliance.live import feed
from tests import factories
from tests.broadcasts.conftest import Campaigns
from tests.browser_forms import csrf_of, sign_in
from tests.fixtures.hook import Hook


@pytest.fixture
def settings(settings):
    return settings.replace(live_heartbeat_seconds=0.3)  # a quiet stream says so quickly


def _followed(page) -> dict:
    """What the page's <main> says it follows: {stream, events, about} or {every}; {} for nothing."""
    main = re.search(r"<main [^>]*>", page.text).group(0)
    return {key: html.unescape(value) for key, value in re.findall(r'data-live-(\w+)="([^"]*)"', main)}


def _heard(client, stream: str) -> list[tuple[str, dict]]:
    """The events the page's stream carries from the page's position, until it falls quiet."""
    answer = client.get(stream)
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream", answer.data[:300]
    got = []
    try:
        for chunk in answer.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            for block in text.split("\n\n"):
                fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
                if "event" in fields:
                    got.append((fields["event"], json.loads(fields["data"])["data"]))
            if ": heartbeat" in text:
                break
    finally:
        answer.close()
    return got


def test_a_template_in_review_is_followed_until_the_network_decides(client, line):
    campaigns = Campaigns(line)
    made = campaigns.call("POST", "/templates", {
        "businessAccountId": line.waba["id"], "name": "pedido_listo", "language": "es", "category": "UTILITY",
        "components": [{"type": "BODY", "text": "Tu pedido está listo"}]}).json["data"]
    sign_in(client, email="owner@example.com")
    listing = client.get(f"/console/{line.org_id}/templates")
    one = client.get(f"/console/{line.org_id}/templates/{made['id']}")
    followed, followed_one = _followed(listing), _followed(one)
    assert "In review" in listing.text and followed["events"] == "template.status"
    assert followed_one["about"] == f'{{"templateId": "{made["id"]}"}}'

    campaigns.template_status("pedido_listo", "APPROVED")
    heard = _heard(client, followed["stream"])  # from where the page was drawn: nothing in between is lost
    assert [(name, data["templateId"], data["status"]) for name, data in heard] == \
        [("template.status", made["id"], "APPROVED")]
    after = client.get(f"/console/{line.org_id}/templates")
    assert "Approved" in after.text and _followed(after) == {}  # nothing left in review: nothing followed


def test_a_campaign_is_followed_while_its_counts_can_change(client, line):
    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana")
    made = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]})
    broadcast_id = made.json["data"]["id"]
    assert campaigns.get(broadcast_id)["status"] == "COMPLETED"  # sent inline
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{line.org_id}/broadcasts/{broadcast_id}")
    followed = _followed(page)
    assert followed["events"] == "broadcast.updated"  # replies still come; receipts are no longer mostly its own
    assert followed["about"] == f'{{"broadcastId": "{broadcast_id}"}}'
    assert 'data-live-count="replied">0<' in page.text

    line.customer_writes({"type": "text", "text": {"body": "¿Hasta cuándo?"}}, wa_id="573001110001", name="Ana")
    line.deliver()
    replies = [data for name, data in _heard(client, followed["stream"]) if name == "broadcast.updated"]
    assert replies == [{"broadcastId": broadcast_id, "phoneNumberId": line.number["id"], "change": "replied"}]
    assert 'data-live-count="replied">1<' in client.get(f"/console/{line.org_id}/broadcasts/{broadcast_id}").text

    clock.advance(timedelta(days=2).total_seconds())  # most replies came: read as drawn, no stream held
    # (two days later, the same browser session)
    assert _followed(client.get(f"/console/{line.org_id}/broadcasts/{broadcast_id}")) == {}


def test_a_campaigns_status_changes_are_announced(client, line):
    campaigns = Campaigns(line)
    campaigns.approved_template()
    ana = campaigns.contact("573001110001", "Ana")
    made = campaigns.create(templateName="oferta", variables=["a", "b"], audience={"contactIds": [ana["id"]]},
                            scheduledAt=(clock.now() + timedelta(hours=1)).isoformat())
    broadcast_id = made.json["data"]["id"]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{line.org_id}/broadcasts/{broadcast_id}")
    stream = _followed(page)["stream"]
    cancelled = client.post(f"/console/{line.org_id}/broadcasts/{broadcast_id}/cancel", data={"csrf": csrf_of(page)})
    assert cancelled.status_code == 302
    assert ("broadcast.updated", {"broadcastId": broadcast_id, "phoneNumberId": line.number["id"], "change": "status",
                                  "status": "CANCELLED"}) in _heard(client, stream)


def test_the_stream_carries_only_what_the_person_may_hear(client, api, line):
    org = line.org_id
    factories.add_member(api, org, "agent", "agente@example.com")  # agents do not read campaigns
    sign_in(client, email="agente@example.com")
    refused = client.get(f"/console/{org}/events?events=broadcast.updated")
    assert refused.status_code == 403 and refused.json["code"] == "permission_missing"
    unknown = client.get(f"/console/{org}/events?events=contact.deleted")
    assert unknown.status_code == 400 and unknown.json["code"] == "unknown_live_events"
    assert client.get(f"/console/{org}/events").status_code == 400


def test_a_member_kept_to_some_accounts_hears_the_templates_of_those_only(client, api, line):
    role = api.post(f"/organizations/{line.org_id}/roles", {"name": "Plantillas", "permissions": [
        "organizations:read", "templates:read"]}, token=line.owner["token"]).json["data"]
    factories.add_member(api, line.org_id, role["key"], "tomas@example.com")
    members = api.get(f"/organizations/{line.org_id}/memberships", token=line.owner["token"]).json["data"]
    membership = next(m for m in members if m["email"] == "tomas@example.com")
    scoped = api.put(f"/organizations/{line.org_id}/memberships/{membership['id']}/waba-scope",
                     {"wabaIds": [factories.another_number(line.org_id)["wabaPk"]]}, token=line.owner["token"])
    assert scoped.status_code == 200, scoped.json
    with runtime.get().db.unit_of_work(write=False) as session:
        before = feed.position(session)
    Campaigns(line).approved_template()  # this account's template, approved: a template.status of it
    stream = f"/console/{line.org_id}/events?events=template.status&lastEventId={before}"
    owners = line.client.application.test_client()
    sign_in(owners, email="owner@example.com")
    assert "APPROVED" in [data["status"] for name, data in _heard(owners, stream) if name == "template.status"]
    sign_in(client, email="tomas@example.com")
    assert _heard(client, stream) == []
    api.put(f"/organizations/{line.org_id}/memberships/{membership['id']}/waba-scope", {"wabaIds": [line.waba["id"]]},
            token=line.owner["token"])  # kept to this account: its templates' news reach him
    assert "APPROVED" in [data["status"] for name, data in _heard(client, stream) if name == "template.status"]


def test_a_webhooks_log_follows_its_unfinished_deliveries(client, owner, hook):
    org = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    listing = client.get(f"/console/{org}/webhooks")
    made = client.post(f"/console/{org}/webhooks", data={"csrf": csrf_of(listing), "url": hook.url,
                                                         "events": ["message.created"], "format": ""})
    page = made.headers["Location"].split("?")[0]
    Hook.plan = [500]
    client.post(page + "/test", data={"csrf": csrf_of(listing)})
    retrying = client.get(page)
    assert "Retrying" in retrying.text and _followed(retrying) == {"every": "5"}
    assert 'id="delivery-log" data-live-part' in retrying.text  # what a re-read redraws
    secret = client.post(page + "/secret", data={"csrf": csrf_of(listing)})
    assert _followed(secret) == {}  # an answer to a form, at the form's address: nothing to re-read there
    Hook.plan = [200]
    delivery_id = retrying.text.split("/deliveries/")[1].split("/retry")[0]
    client.post(f"{page}/deliveries/{delivery_id}/retry", data={"csrf": csrf_of(listing)})
    done = client.get(page)
    assert "Delivered" in done.text and _followed(done) == {}
