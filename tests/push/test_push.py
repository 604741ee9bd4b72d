"""Push through the API: the VAPID key made at the first start, browser subscriptions (https only,
keys checked), rotate without a session, devices, diagnose, test; Web Push that a browser decrypts
with its own keys and whose VAPID signature verifies; a subscription the push service says is gone
is removed; the decided triggers reach the right person in their language."""

import pytest

from tests import factories
from tests.fixtures.local_server import QuietHandler, serving
from tests.fixtures.push_service import Browser


def _me(api, token):
    def call(method, path, body=None, **query):
        url = "/push" + path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
        return api.client.open(url, method=method, json=body, headers={"Authorization": f"Bearer {token}"})
    return call


def test_the_config_offers_the_servers_public_key(api, owner):
    config = _me(api, owner["token"])("GET", "/config").json["data"]
    assert config["webPush"] is True and config["native"] == {"ios": False, "android": False}
    assert len(config["vapidPublicKey"]) == 87  # 65 bytes, base64url


def test_a_test_push_reaches_the_browser_encrypted_and_signed(api, owner, push_service):
    url, service = push_service
    call = _me(api, owner["token"])
    browser = Browser(url, "ana-laptop")
    made = call("POST", "/subscribe", browser.subscription)
    assert made.status_code == 200, made.json
    assert call("POST", "/test").json["data"] == {"subscriptions": 1, "devices": 0}
    [request] = browser.got()
    notice = browser.read(request, call("GET", "/config").json["data"]["vapidPublicKey"])
    assert notice == {"title": "Test notification", "body": "This is how customers will get your attention.",
                      "url": "/inbox", "tag": "test"}
    diagnosis = call("GET", "/diagnose", endpoint=browser.endpoint).json["data"]
    assert diagnosis["found"] is True and diagnosis["lastSuccessAt"] and diagnosis["failures"] == 0
    [mine] = call("GET", "/subscriptions").json["data"]
    assert mine["kind"] == "WEB" and mine["endpoint"] == browser.endpoint and mine["lastSuccessAt"]


def test_a_subscription_the_push_service_says_is_gone_is_removed(api, owner, push_service):
    url, service = push_service
    call = _me(api, owner["token"])
    gone, failing = Browser(url, "old"), Browser(url, "flaky")
    service.answers = {gone.path: 410, failing.path: 500}
    for browser in (gone, failing):
        assert call("POST", "/subscribe", browser.subscription).status_code == 200
    call("POST", "/test")
    assert call("GET", "/diagnose", endpoint=gone.endpoint).json["data"]["found"] is False
    flaky = call("GET", "/diagnose", endpoint=failing.endpoint).json["data"]
    assert flaky["found"] is True and flaky["failures"] == 1 and "500" in flaky["lastError"]


@pytest.mark.parametrize("change, field, code", [
    ({"endpoint": "http://push.example.com/x"}, "endpoint", "push_endpoint_not_secure"),
    ({"endpoint": "ftp://push.example.com/x"}, "endpoint", "push_endpoint_not_secure"),
    ({"p256dh": "bm90IGEga2V5"}, "p256dh", "validation_failed"),
    ({"p256dh": "BAAA" + "A" * 83}, "p256dh", "validation_failed"),
    ({"auth": "c2hvcnQ"}, "auth", "validation_failed"),
    ({"endpoint": ""}, "endpoint", "validation_failed"),
])
def test_bad_subscriptions_are_refused_by_field(api, owner, push_service, change, field, code):
    browser = Browser(push_service[0], "b")
    answer = _me(api, owner["token"])("POST", "/subscribe", {**browser.subscription, **change})
    assert answer.status_code == 400 and answer.json["code"] == code and field in answer.json["errors"], answer.json


def test_an_endpoint_urllib_cannot_split_is_a_400_not_a_500(api, owner, push_service, client):
    """A bracketed host that is no address made urlsplit raise (a 500 before), and a port out of
    range got past the first check (refused later as an address): both are the endpoint's field
    error, when subscribing and when the service worker renews a subscription."""
    browser = Browser(push_service[0], "kept")
    call = _me(api, owner["token"])
    assert call("POST", "/subscribe", browser.subscription).status_code == 200
    for endpoint in ("https://[not-an-ip]/x", "https://[zz:1]/x", "https://push.example:99999/x"):
        subscribed = call("POST", "/subscribe", {**browser.subscription, "endpoint": endpoint})
        rotated = client.post("/push/rotate", json={"oldEndpoint": browser.endpoint, **browser.subscription,
                                                    "endpoint": endpoint})
        for answer in (subscribed, rotated):
            assert answer.status_code == 400 and answer.json["code"] == "push_endpoint_not_secure" \
                and "endpoint" in answer.json["errors"], (endpoint, answer.json)


def test_https_endpoints_and_allowed_private_servers_are_accepted_and_other_private_ones_refused(api, owner, push_service):
    """Issue 44: a push endpoint follows the rule on addresses. The push service double's origin is
    on the installation's allowed private servers (tests/fixtures/doubles.py); loopback, the LAN and
    the metadata service are not, whatever the scheme."""
    browser = Browser(push_service[0], "b")
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc", browser.endpoint):
        answer = _me(api, owner["token"])("POST", "/subscribe", {**browser.subscription, "endpoint": endpoint})
        assert answer.status_code == 200, (endpoint, answer.json)
    for endpoint in ("http://localhost:9/x", "http://[::1]:9/x", "https://127.0.0.1/x", "https://10.1.2.3/push",
                     "https://169.254.169.254/latest", "https://[::ffff:192.168.1.1]/x"):
        answer = _me(api, owner["token"])("POST", "/subscribe", {**browser.subscription, "endpoint": endpoint})
        assert answer.status_code == 400 and answer.json["code"] == "url_not_allowed", (endpoint, answer.json)


def test_a_push_service_redirecting_elsewhere_is_not_followed(api, owner, push_service):
    """Issue 44, item 15: a push service that answers with a redirect (to a LAN host, played by a
    second server on this machine) is a failed push; nothing is posted there."""

    class Lan(QuietHandler):
        hits: list[str] = []

        def do_POST(self):  # noqa: N802
            Lan.hits.append(self.path)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

    with serving(Lan) as lan:
        url, service = push_service
        call = _me(api, owner["token"])
        browser = Browser(url, "moved")
        service.redirects = {browser.path: f"{lan.url}/admin/reboot"}
        assert call("POST", "/subscribe", browser.subscription).status_code == 200
        call("POST", "/test")
        assert len(browser.got()) == 1 and Lan.hits == []
        flaky = call("GET", "/diagnose", endpoint=browser.endpoint).json["data"]
        assert flaky["failures"] == 1 and "307" in flaky["lastError"]


def test_an_endpoint_no_longer_allowed_is_refused_when_the_push_goes(api, owner, push_service, settings):
    """Checked again at the connection: a subscription saved while its server was allowed gets
    nothing once the installation stops allowing it."""
    from appliance.core import runtime

    url, service = push_service
    call = _me(api, owner["token"])
    browser = Browser(url, "later")
    assert call("POST", "/subscribe", browser.subscription).status_code == 200
    runtime.get().settings = runtime.get().settings.replace(allowed_private_urls="")
    call("POST", "/test")
    assert browser.got() == []
    refused = call("GET", "/diagnose", endpoint=browser.endpoint).json["data"]
    assert refused["failures"] == 1 and "not a public address" in refused["lastError"]


def test_a_renewed_subscription_replaces_the_old_one_without_a_session(api, owner, push_service, client):
    url, _ = push_service
    old, new = Browser(url, "before"), Browser(url, "after")
    _me(api, owner["token"])("POST", "/subscribe", old.subscription)
    rotated = client.post("/push/rotate", json={"oldEndpoint": old.endpoint, **new.subscription})
    assert rotated.status_code == 200 and rotated.json["data"]["endpoint"] == new.endpoint
    unknown = client.post("/push/rotate", json={"oldEndpoint": old.endpoint, **new.subscription})
    assert unknown.status_code == 404 and unknown.json["code"] == "push_subscription_not_found"
    _me(api, owner["token"])("POST", "/test")
    assert len(new.got()) == 1 and old.got() == []


def test_a_rotation_onto_an_endpoint_already_known_keeps_one_subscription(api, owner, push_service, client):
    """Issue 44, item 11: rotating onto an endpoint already stored (the page subscribed it before the
    service worker spoke) broke the endpoint's uniqueness: a 500."""
    url, _ = push_service
    mine = _me(api, owner["token"])
    old, new = Browser(url, "before"), Browser(url, "after")
    mine("POST", "/subscribe", old.subscription)
    mine("POST", "/subscribe", new.subscription)
    rotated = client.post("/push/rotate", json={"oldEndpoint": old.endpoint, **new.subscription})
    assert rotated.status_code == 200 and rotated.json["data"]["endpoint"] == new.endpoint
    assert [s["endpoint"] for s in mine("GET", "/subscriptions").json["data"]] == [new.endpoint]
    # Another person's endpoint is theirs: an old endpoint of mine proves nothing about it.
    eve = _me(api, factories.person(api, email="eve@example.com")["tokens"]["accessToken"])
    hers = Browser(url, "hers")
    eve("POST", "/subscribe", hers.subscription)
    taken = client.post("/push/rotate", json={"oldEndpoint": new.endpoint, **hers.subscription})
    assert taken.status_code == 409 and taken.json["code"] == "push_endpoint_taken", taken.json
    assert [s["endpoint"] for s in mine("GET", "/subscriptions").json["data"]] == [new.endpoint]
    assert [s["endpoint"] for s in eve("GET", "/subscriptions").json["data"]] == [hers.endpoint]


def test_devices_are_kept_and_dropped_and_someone_elses_subscription_is_not_mine(api, owner, push_service):
    call = _me(api, owner["token"])
    device = call("POST", "/device", {"token": "fcm-token-1", "platform": "ANDROID", "appVersion": "1.2.0"})
    assert device.status_code == 200 and device.json["data"]["platform"] == "ANDROID"
    assert call("POST", "/device", {"token": "t", "platform": "WINDOWS"}).status_code == 400
    assert len(call("GET", "/subscriptions").json["data"]) == 1
    assert call("DELETE", "/device", {"token": "fcm-token-1"}).status_code == 204
    assert call("GET", "/subscriptions").json["data"] == []

    browser = Browser(push_service[0], "shared")
    call("POST", "/subscribe", browser.subscription)
    other = factories.person(api, email="eve@example.com")["tokens"]["accessToken"]
    assert _me(api, other)("GET", "/diagnose", endpoint=browser.endpoint).json["data"]["found"] is False
    assert _me(api, other)("DELETE", "/subscribe", {"endpoint": browser.endpoint}).status_code == 204
    assert call("GET", "/diagnose", endpoint=browser.endpoint).json["data"]["found"] is True  # still mine


def test_my_browsers_and_devices_are_one_list_in_the_decided_shape(api, owner, push_service):
    call = _me(api, owner["token"])
    browser = Browser(push_service[0], "ana-laptop")
    call("POST", "/subscribe", browser.subscription)
    iphone_token = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2"
    call("POST", "/device", {"token": iphone_token, "platform": "IOS", "appVersion": "2.1.0"})
    call("POST", "/device", {"token": "pixel-registration-token-0123456789", "platform": "ANDROID"})
    listed = call("GET", "/subscriptions").json["data"]
    keys = {"id", "kind", "endpoint", "token", "userAgent", "appVersion", "createdAt", "lastSuccessAt", "lastError",
            "failures"}
    assert all(set(item) == keys for item in listed), listed
    web, iphone, android = listed  # oldest first
    assert (web["kind"], web["endpoint"], web["token"], web["failures"]) == ("WEB", browser.endpoint, None, 0)
    assert (iphone["kind"], iphone["appVersion"], iphone["endpoint"], iphone["failures"]) == ("IOS", "2.1.0", None, 0)
    assert android["kind"] == "ANDROID" and android["appVersion"] is None
    # A native token is shown shortened: enough to tell two phones apart, not the token itself.
    assert iphone["token"].startswith(iphone_token[:6]) and iphone["token"].endswith(iphone_token[-4:])
    assert len(iphone["token"]) < 16 and iphone_token not in str(listed)


def test_an_api_key_cannot_use_push(line, api):
    key = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "k"}, token=line.owner["token"]).json["data"]["secret"]
    assert line.client.get("/push/subscriptions", headers={"X-Api-Key": key}).status_code == 403


def test_an_assigned_agent_is_pushed_in_their_language_and_preferences_hold(line, api, push_service):
    url, _ = push_service
    org = line.org_id
    sara_token = factories.add_member(api, org, "agent", "sara@example.com")
    api.patch("/users/me", {"locale": "es"}, token=sara_token)
    sara = api.get("/users/me", token=sara_token).json["data"]
    phone = Browser(url, "sara-phone")
    assert _me(api, sara_token)("POST", "/subscribe", phone.subscription).status_code == 200
    key = _me(api, sara_token)("GET", "/config").json["data"]["vapidPublicKey"]

    line.customer_writes({"type": "text", "text": {"body": "Hola, ¿tienen pan integral?"}})
    line.deliver()
    assert phone.got() == []  # nobody's conversation yet
    conversation = line.get("/conversations")["items"][0]
    answer = api.patch(f"/organizations/{org}/conversations/{conversation['id']}/assignee", {"userId": sara["id"]},
                       token=line.owner["token"])
    assert answer.status_code == 200, answer.json
    [assigned] = [phone.read(r, key) for r in phone.got()]
    assert assigned["title"] == "Conversación asignada a ti" and "Hola, ¿tienen pan integral?" in assigned["body"]
    assert assigned["url"] == f"/inbox/{org}/c/{conversation['id']}" and assigned["tag"] == conversation["id"]

    line.customer_writes({"type": "text", "text": {"body": "¿Y a qué hora abren?"}})
    line.deliver()
    message = phone.read(phone.got()[-1], key)
    assert message["title"] == "Ana Pérez" and message["body"] == "¿Y a qué hora abren?"

    assert _me(api, sara_token)("PUT", "/preferences", {"triggers": ["assigned"]}).json["data"]["triggers"] == ["assigned"]
    line.customer_writes({"type": "text", "text": {"body": "¿Hola?"}})
    line.deliver()
    assert len(phone.got()) == 2  # customer messages turned off
    assert _me(api, sara_token)("PUT", "/preferences", {"triggers": ["lunch"]}).status_code == 400


def test_a_handoff_reaches_the_team_who_reads_that_number(line, api, push_service):
    url, _ = push_service
    org = line.org_id
    owner_phone = Browser(url, "owner")
    _me(api, line.owner["token"])("POST", "/subscribe", owner_phone.subscription)
    line.customer_writes()
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    answer = api.post(f"/organizations/{org}/conversations/{conversation['id']}/request-handoff", {"reason": "billing"},
                      token=line.owner["token"])
    assert answer.status_code in (200, 201), answer.json
    notices = [owner_phone.read(r, _me(api, line.owner["token"])("GET", "/config").json["data"]["vapidPublicKey"])
               for r in owner_phone.got()]
    assert any(n["title"] == "A customer asks for a person" for n in notices), notices
