"""My notifications without JavaScript: what I am told (saved, used by the triggers), the browsers
and phones listed with remove, a test sent; and the inbox's switch endpoints (a browser's session,
CSRF-checked) that keep and drop this browser's subscription."""

from tests.browser_forms import csrf_of, sign_in
from tests.fixtures.push_service import Browser
from tests.push.test_push import _me


def test_preferences_browsers_and_a_test_from_the_console(client, api, owner, push_service):
    url, _ = push_service
    sign_in(client, email="owner@example.com")
    page = client.get("/console/account/notifications")
    assert page.status_code == 200 and "No browser or phone" in page.text and "HTTPS" in page.text
    assert "Notifications" in client.get("/console/account").text

    inbox = client.get(f"/inbox/{owner['org']['id']}")
    assert 'id="push-switch"' in inbox.text and "data-vapid=" in inbox.text
    laptop = Browser(url, "laptop")
    refused = client.post("/inbox/push/subscribe", data={"csrf": "wrong", **laptop.subscription})
    assert refused.status_code in (400, 403)
    kept = client.post("/inbox/push/subscribe", data={"csrf": csrf_of(inbox), **laptop.subscription})
    assert kept.status_code == 204
    assert client.get("/inbox/sw.js").headers["Content-Type"].startswith("text/javascript")

    listed = client.get("/console/account/notifications")
    assert "Browser" in listed.text and "Remove" in listed.text
    saved = client.post("/console/account/notifications", data={"csrf": csrf_of(listed), "triggers": ["assigned", "handoff"]})
    assert saved.status_code == 302
    assert _me(api, owner["token"])("GET", "/preferences").json["data"]["triggers"] == ["assigned", "handoff"]
    tested = client.post("/console/account/notifications/test", data={"csrf": csrf_of(listed)})
    assert "Test sent to 1 browsers and phones" in client.get(tested.headers["Location"]).text
    assert len(laptop.got()) == 1

    item = _me(api, owner["token"])("GET", "/subscriptions").json["data"][0]["id"]
    removed = client.post(f"/console/account/notifications/{item}/remove", data={"csrf": csrf_of(listed)})
    assert removed.status_code == 302 and "No browser or phone" in client.get("/console/account/notifications").text
    client.post("/inbox/push/subscribe", data={"csrf": csrf_of(inbox), **laptop.subscription})
    dropped = client.post("/inbox/push/unsubscribe", data={"csrf": csrf_of(inbox), "endpoint": laptop.endpoint})
    assert dropped.status_code == 204 and "No browser or phone" in client.get("/console/account/notifications").text
