"""Issue 45: connecting an account is checked against Graph before anything is stored: the token
reads the account, the app is subscribed to its webhooks, a number not yet registered for the
Cloud API is registered with its two-step verification PIN; each refusal said with its guidance."""

import pytest
import requests

from tests.problems import assert_problem


@pytest.fixture
def unregistered(netsim_url):
    """An account whose number was never registered for the Cloud API, and whose PIN is 246810."""
    answer = requests.post(f"{netsim_url}/_control/accounts", json={
        "name": "Panadería Sol", "numbers": [{"displayPhoneNumber": "+57 300 555 0101", "registered": False,
                                              "pin": "246810"}]}, timeout=5)
    assert answer.status_code == 201, answer.text
    return answer.json()


def _connect(api, owner, account, **extra):
    return api.post(f"/organizations/{owner['org']['id']}/wabas", {
        "wabaId": account["wabaId"], "accessToken": account["accessToken"], "appSecret": account["appSecret"], **extra},
        token=owner["token"])


def _accounts(api, owner):
    return api.get(f"/organizations/{owner['org']['id']}/wabas", token=owner["token"]).json["data"]


def test_a_number_not_registered_needs_its_pin_and_is_registered_on_connect(api, owner, unregistered, simulator):
    number_id = unregistered["numbers"][0]["id"]
    network = simulator.network
    network.accounts[unregistered["wabaId"]].subscribed = False

    refused = assert_problem(_connect(api, owner, unregistered), 400, "pin_required")
    assert "+57 300 555 0101" in refused["detail"] and refused["errors"]["pin"]
    assert _accounts(api, owner) == [] and not network.accounts[unregistered["wabaId"]].subscribed

    wrong = assert_problem(_connect(api, owner, unregistered, pin="111111"), 400, "graph_refused")
    assert wrong["graphCode"] == 133005 and wrong["guidance"]["en"] and wrong["guidance"]["es"]
    assert _accounts(api, owner) == [] and not network.numbers[number_id].registered

    connected = _connect(api, owner, unregistered, pin="246810")
    assert connected.status_code == 201, connected.json
    assert network.numbers[number_id].registered and network.accounts[unregistered["wabaId"]].subscribed
    assert [a["wabaId"] for a in _accounts(api, owner)] == [unregistered["wabaId"]]


def test_a_pin_that_is_not_six_digits_is_400_with_the_field(api, owner, unregistered):
    for pin in ("12345", "1234567", "abcdef", "12 456"):
        answer = assert_problem(_connect(api, owner, unregistered, pin=pin), 400, "validation_failed")
        assert answer["errors"]["pin"]


def test_a_registered_account_is_subscribed_and_needs_no_pin(api, owner, account, simulator):
    simulator.network.accounts[account["wabaId"]].subscribed = False
    assert _connect(api, owner, account).status_code == 201
    assert simulator.network.accounts[account["wabaId"]].subscribed


def test_a_token_that_does_not_read_the_account_is_said_with_guidance(api, owner, account):
    refused = assert_problem(_connect(api, owner, {**account, "accessToken": "EAAGnot-the-token"}), 400,
                             "graph_token_invalid")
    assert refused["graphCode"] == 190 and refused["guidance"]["es"]
    assert _accounts(api, owner) == []
