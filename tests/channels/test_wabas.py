"""Connecting business accounts against the simulator: numbers imported, secrets sealed and never
returned, network refusals as answers a person can act on, tenancy and scopes."""

import requests

from appliance.core import runtime
from appliance.wabas.models import BusinessAccount
from tests.factories import add_member, another_number
from tests.problems import assert_problem


def _connect(api, owner, account, **extra):
    body = {"wabaId": account["wabaId"], "accessToken": account["accessToken"], "appSecret": account["appSecret"],
            "verifyToken": "my verify token", **extra}
    return api.post(f"/organizations/{owner['org']['id']}/wabas", body, token=owner["token"])


def test_connect_imports_numbers_and_keeps_secrets_sealed(api, owner, account):
    org_id = owner["org"]["id"]
    answer = _connect(api, owner, account)
    assert answer.status_code == 201, answer.json
    waba = answer.json["data"]
    assert waba["wabaId"] == account["wabaId"] and waba["name"] == "Panadería Sol" and waba["needsReauth"] is False
    text = str(answer.json)
    assert account["accessToken"] not in text and account["appSecret"] not in text
    numbers = api.get(f"/organizations/{org_id}/phone-numbers", token=owner["token"]).json["data"]
    assert [(n["phoneNumberId"], n["displayPhoneNumber"], n["businessAccountId"]) for n in numbers] == [
        (account["numbers"][0]["id"], "+1 555 010 2000", waba["id"])]
    one = api.get(f"/organizations/{org_id}/phone-numbers/{numbers[0]['id']}", token=owner["token"])
    assert one.status_code == 200 and one.json["data"]["messagesPerSecond"] == 80
    with runtime.get().db.unit_of_work(write=False) as session:
        stored = session.get(BusinessAccount, waba["id"])
        assert account["accessToken"] not in stored.access_token_sealed
        assert account["appSecret"] not in stored.app_secret_sealed
        assert stored.verify_token_hash != "my verify token"
    listed = api.get(f"/organizations/{org_id}/wabas", token=owner["token"]).json["data"]
    assert [w["id"] for w in listed] == [waba["id"]]
    assert _connect(api, owner, account).json["code"] == "waba_already_connected"


def test_network_refusals_are_clear_and_store_nothing(api, owner, account, netsim_url):
    org_id = owner["org"]["id"]
    wrong_token = _connect(api, owner, account, accessToken="EAAGwrong")
    assert_problem(wrong_token, 400, "graph_token_invalid")
    assert wrong_token.json["graphCode"] == 190
    unknown = _connect(api, owner, account, wabaId="999999")
    assert_problem(unknown, 400, "graph_object_not_found")
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    down = _connect(api, owner, account)
    assert_problem(down, 503, "graph_unavailable")
    requests.put(f"{netsim_url}/_control/faults", json={"errorRate": 0.0, "slowSeconds": 3}, timeout=5)
    slow = _connect(api, owner, account)
    assert_problem(slow, 503, "graph_unavailable")
    assert api.get(f"/organizations/{org_id}/wabas", token=owner["token"]).json["data"] == []
    assert api.get(f"/organizations/{org_id}/phone-numbers", token=owner["token"]).json["data"] == []


def test_bad_input(api, owner, account):
    for body, field in (({"wabaId": "12ab", "accessToken": "t", "appSecret": "s"}, "wabaId"),
                        ({"wabaId": "123", "appSecret": "s"}, "accessToken"),
                        ({"wabaId": "123", "accessToken": "t", "appSecret": "s", "extra": 1}, "extra")):
        answer = api.post(f"/organizations/{owner['org']['id']}/wabas", body, token=owner["token"])
        assert answer.status_code == 400 and field in answer.json["errors"], body


def test_disconnect_keeps_the_row_and_allows_connecting_again(api, owner, account):
    org_id = owner["org"]["id"]
    waba = _connect(api, owner, account).json["data"]
    assert api.delete(f"/organizations/{org_id}/wabas/{waba['id']}", token=owner["token"]).status_code == 204
    assert api.get(f"/organizations/{org_id}/wabas/{waba['id']}", token=owner["token"]).status_code == 404
    assert api.get(f"/organizations/{org_id}/phone-numbers", token=owner["token"]).json["data"] == []
    again = _connect(api, owner, account)
    assert again.status_code == 201 and again.json["data"]["id"] != waba["id"]


def test_other_tenants_and_scopes_see_nothing(api, owner, account):
    org_id = owner["org"]["id"]
    waba = _connect(api, owner, account).json["data"]
    number = api.get(f"/organizations/{org_id}/phone-numbers", token=owner["token"]).json["data"][0]
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]["id"]
    for path in (f"/organizations/{theirs}/wabas/{waba['id']}", f"/organizations/{theirs}/phone-numbers/{number['id']}"):
        assert api.get(path, token=stranger).status_code == 404
    assert api.get(f"/organizations/{org_id}/wabas", token=stranger).status_code == 403
    assert api.delete(f"/organizations/{theirs}/wabas/{waba['id']}", token=stranger).status_code == 404
    # A member scoped to another business account, and a key restricted to another number.
    agent = add_member(api, org_id, "admin", "ada@example.com")
    members = api.get(f"/organizations/{org_id}/memberships", token=owner["token"]).json["data"]
    ada = next(m for m in members if m["email"] == "ada@example.com")
    other = another_number(org_id)
    scoped = api.put(f"/organizations/{org_id}/memberships/{ada['id']}/waba-scope",
                     {"wabaIds": [other["wabaPk"]]}, token=owner["token"])
    assert scoped.status_code == 200, scoped.json
    assert [w["id"] for w in api.get(f"/organizations/{org_id}/wabas", token=agent).json["data"]] == [other["wabaPk"]]
    assert [n["id"] for n in api.get(f"/organizations/{org_id}/phone-numbers", token=agent).json["data"]] == [
        other["phoneNumberPk"]]
    assert api.get(f"/organizations/{org_id}/wabas/{waba['id']}", token=agent).status_code == 404
    key = api.post(f"/organizations/{org_id}/api-keys", {"name": "other number", "phoneNumberIds": [other["phoneNumberPk"]]},
                   token=owner["token"]).json["data"]["secret"]
    listed = api.client.get(f"/organizations/{org_id}/phone-numbers", headers={"X-Api-Key": key})
    assert listed.status_code == 200 and [n["id"] for n in listed.json["data"]] == [other["phoneNumberPk"]]


def test_resubscribe_calls_the_network(api, owner, account, simulator):
    org_id = owner["org"]["id"]
    waba = _connect(api, owner, account).json["data"]
    simulator.network.accounts[account["wabaId"]].subscribed = False
    answer = api.post(f"/organizations/{org_id}/waba/{waba['id']}/webhooks/resubscribe", token=owner["token"])
    assert answer.status_code == 200
    assert simulator.network.accounts[account["wabaId"]].subscribed is True
