"""Push through the API: the VAPID key made at the first start, browser subscriptions (https only,
keys checked), rotate without a session, devices, diagnose, test; Web Push that a browser decrypts
with its own keys and whose VAPID signature verifies; a subscription the push service says is gone
is removed; the decided triggers reach the right person in their language."""

import pytest

from tests import factories
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


def test_https_endpoints_and_loopback_are_accepted(api, owner, push_service):
    browser = Browser(push_service[0], "b")
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc", "http://localhost:9/x", "http://[::1]:9/x"):
        answer = _me(api, owner["token"])("POST", "/subscribe", {**browser.subscription, "endpoint": endpoint})
        assert answer.status_code == 200, (endpoint, answer.json)


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
