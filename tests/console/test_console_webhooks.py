"""The console's webhook pages without JavaScript (issue 22): create one by form (mistakes come back
by field, the form kept), send a test and find it in the delivery log with its request and
response, reveal the secret (not stored by the browser), change and turn it off, retry a failed
delivery, delete; a member who may only read sees the pages without their forms."""

import json

from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.fixtures.hook import Hook


def test_a_webhook_is_made_tested_and_followed_in_its_log(client, owner, hook):
    org = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    listing = client.get(f"/console/{org}/webhooks")
    assert "No webhooks yet" in listing.text
    form = {"csrf": csrf_of(listing), "url": "ftp://nope", "events": ["conversation.handoff_requested", "message.created"],
            "format": "", "unanswered_threshold_minutes": "2"}
    wrong = client.post(f"/console/{org}/webhooks", data=form)
    assert wrong.status_code == 400 and "http:// or https://" in wrong.text and 'value="ftp://nope"' in wrong.text
    made = client.post(f"/console/{org}/webhooks", data=form | {"url": hook.url})
    assert made.status_code == 302, made.text
    page = made.headers["Location"].split("?")[0]
    shown = client.get(made.headers["Location"])
    assert "Webhook created" in shown.text and "Nothing sent yet" in shown.text and "Working" in shown.text

    tested = client.post(page + "/test", data={"csrf": csrf_of(shown)})
    assert tested.status_code == 302
    log = client.get(tested.headers["Location"]).text
    assert "Test event sent" in log and "webhook.test" in log and "HTTP 200" in log and "Delivered" in log
    assert json.loads(Hook.requests[-1]["body"])["type"] == "webhook.test"

    revealed = client.post(page + "/secret", data={"csrf": csrf_of(shown)})
    assert revealed.status_code == 200 and "whsec_" in revealed.text
    assert revealed.headers["Cache-Control"] == "no-store"

    Hook.plan = [500]
    client.post(page + "/test", data={"csrf": csrf_of(shown)})
    failing = client.get(page + "?status=RETRYING").text
    assert "Retrying" in failing and "HTTP 500" in failing and "Send again" in failing
    Hook.plan = [200]
    delivery_id = failing.split("/deliveries/")[1].split("/retry")[0]
    retried = client.post(f"{page}/deliveries/{delivery_id}/retry", data={"csrf": csrf_of(shown)})
    assert retried.status_code == 302 and "Delivery sent again" in client.get(retried.headers["Location"]).text

    off = client.post(page, data={"csrf": csrf_of(shown), "url": hook.url, "events": ["message.created"], "format": "TEAMCHAT"})
    assert off.status_code == 302, off.text
    changed = client.get(page).text
    assert "Off" in changed and "Chat message" in changed
    gone = client.post(page + "/delete", data={"csrf": csrf_of(shown)})
    assert gone.status_code == 302 and "Webhook deleted" in client.get(gone.headers["Location"]).text


def test_a_member_who_may_only_read_sees_no_forms_and_a_supervisor_no_page(client, api, owner, hook):
    org = owner["org"]["id"]
    made = api.post(f"/organizations/{org}/webhooks-outbound", {"url": hook.url, "events": ["message.created"]},
                    token=owner["token"]).json["data"]
    role = api.post(f"/organizations/{org}/roles", {"name": "Integrations", "permissions": [
        "organizations:read", "webhooks:read"]}, token=owner["token"]).json["data"]
    factories.add_member(api, org, role["key"], "ivan@example.com")
    sign_in(client, email="ivan@example.com")
    page = client.get(f"/console/{org}/webhooks")
    assert page.status_code == 200 and hook.url in page.text
    assert f'action="/console/{org}/webhooks"' not in page.text
    one = client.get(f"/console/{org}/webhooks/{made['id']}").text.split("<main", 1)[1]  # the page, not the navigation
    assert "/test" not in one and "/secret" not in one and "/delete" not in one and "Settings" not in one
    assert client.post(f"/console/{org}/webhooks", data={"csrf": csrf_of(client.get("/console/account", follow_redirects=True)), "url": hook.url,
                                                         "events": ["message.created"]}).status_code == 403
    factories.add_member(api, org, "supervisor", "sara@example.com")
    supervisor = client.application.test_client()
    sign_in(supervisor, email="sara@example.com")
    assert supervisor.get(f"/console/{org}/webhooks").status_code == 403
    assert f"/console/{org}/webhooks" not in supervisor.get(f"/console/{org}/broadcasts").text
