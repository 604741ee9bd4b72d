"""Issue 45: Meta's webhook right the first time. One verify token per organization, stable until
rotated, that Meta's verification may use before any account is connected; what Meta last did
(verifiedAt, lastDeliveryAt, lastRejectedAt)."""


import pytest

from appliance.core import clock
from appliance.netsim import webhooks
from appliance.wabas import webhook_setup
from tests import factories
from tests.fixtures.line import VERIFY_TOKEN
from tests.problems import assert_problem


def _setup(api, owner):
    answer = api.get(f"/organizations/{owner['org']['id']}/wabas/webhook-setup", token=owner["token"])
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def _verify(client, token, challenge="1158201444"):
    return client.get("/webhooks/whatsapp", query_string={"hub.mode": "subscribe", "hub.verify_token": token,
                                                          "hub.challenge": challenge})


@pytest.fixture
def owner(api):
    return factories.owner(api)


def test_meta_verifies_with_the_shown_token_before_any_account_is_connected(api, client, owner):
    first = _setup(api, owner)
    assert first["callbackUrl"] == "http://appliance.test/webhooks/whatsapp"
    assert len(first["verifyToken"]) >= 24 and first["verifiedAt"] is None
    assert first["lastDeliveryAt"] is None and first["lastRejectedAt"] is None
    assert _setup(api, owner)["verifyToken"] == first["verifyToken"]  # every load shows the same one

    answer = _verify(client, first["verifyToken"])
    assert (answer.status_code, answer.text, answer.mimetype) == (200, "1158201444", "text/plain")
    assert _setup(api, owner)["verifiedAt"] is not None


def test_a_wrong_token_is_403_and_counted(api, client, owner):
    _setup(api, owner)
    refused = webhook_setup.refused_verifications()
    for token in ("wrong", "", "x" * 201):
        assert _verify(client, token).status_code == 403
    assert webhook_setup.refused_verifications() == refused + 3
    assert _setup(api, owner)["verifiedAt"] is None


def test_rotating_makes_a_new_token_and_the_old_one_stops_verifying(api, client, owner):
    old = _setup(api, owner)["verifyToken"]
    assert _verify(client, old).status_code == 200
    rotated = api.post(f"/organizations/{owner['org']['id']}/wabas/webhook-setup/rotate", token=owner["token"])
    assert rotated.status_code == 200, rotated.json
    new = rotated.json["data"]
    assert new["verifyToken"] != old and new["verifiedAt"] is None
    assert _verify(client, old).status_code == 403
    assert _verify(client, new["verifyToken"]).status_code == 200


def test_each_organization_has_its_own_and_no_one_else_reads_it(api, client, owner):
    mine = _setup(api, owner)["verifyToken"]
    other = factories.person(api, email="bo@example.com")["tokens"]["accessToken"]
    theirs_org = factories.organization(api, other, name="Otra", slug="otra")
    theirs = api.get(f"/organizations/{theirs_org['id']}/wabas/webhook-setup", token=other).json["data"]["verifyToken"]
    assert theirs != mine
    assert_problem(api.get(f"/organizations/{owner['org']['id']}/wabas/webhook-setup", token=other), 403, "not_a_member")
    assert_problem(api.post(f"/organizations/{owner['org']['id']}/wabas/webhook-setup/rotate", token=other), 403,
                   "not_a_member")
    agent = factories.add_member(api, owner["org"]["id"], "agent", "agente@example.com")
    assert_problem(api.get(f"/organizations/{owner['org']['id']}/wabas/webhook-setup", token=agent), 403, "permission_missing")


def test_deliveries_and_refusals_show_what_meta_last_did(api, line):
    owner = line.owner
    assert _verify(line.client, VERIFY_TOKEN).status_code == 200  # an account's own token still verifies
    assert _setup(api, owner)["verifiedAt"] is not None

    line.customer_writes()
    assert [a.status_code for a in line.deliver()] == [200]
    delivered = _setup(api, owner)
    assert delivered["lastDeliveryAt"] is not None and delivered["lastRejectedAt"] is None

    clock.advance(300)
    line.customer_writes()
    [(headers, body)] = line.deliveries()
    forged = line.replay({"X-Hub-Signature-256": webhooks.sign("not-the-app-secret", body)}, body)
    assert_problem(forged, 401, "webhook_signature_invalid")
    refused = _setup(api, owner)
    assert refused["lastRejectedAt"] is not None and refused["lastDeliveryAt"] == delivered["lastDeliveryAt"]

    # Rotating the verify token changes nothing for deliveries: they are signed with the app secret.
    api.post(f"/organizations/{owner['org']['id']}/wabas/webhook-setup/rotate", token=owner["token"])
    assert line.replay(headers, body).status_code == 200
    assert _setup(api, owner)["lastDeliveryAt"] > delivered["lastDeliveryAt"]
