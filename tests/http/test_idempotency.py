"""Idempotency-Key on POSTs: the same key and body answer the first record, another body 422, and
keys belong to their caller."""

from sqlmodel import select

from appliance.core import clock, runtime
from appliance.http.idempotency import IdempotencyRecord
from tests.factories import add_member
from tests.problems import assert_problem


def _tag(api, owner, name, key, token=None, **headers):
    return api.client.post(f"/organizations/{owner['org']['id']}/tags", json={"name": name},
                           headers={"Authorization": f"Bearer {token or owner['token']}", "Idempotency-Key": key,
                                    **headers})


def _tags(api, owner):
    return api.get(f"/organizations/{owner['org']['id']}/tags", token=owner["token"]).json["data"]


def test_a_repeat_answers_the_first_record_and_creates_nothing(api, owner):
    first = _tag(api, owner, "VIP", "k-1")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = _tag(api, owner, "VIP", "k-1")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    assert [t["name"] for t in _tags(api, owner)] == ["VIP"]
    # Without a key the same body is a new request (and here a uniqueness clash).
    assert api.post(f"/organizations/{owner['org']['id']}/tags", {"name": "VIP"}, token=owner["token"]).status_code == 409


def test_the_same_key_with_another_body_is_422(api, owner):
    assert _tag(api, owner, "VIP", "k-2").status_code == 201
    assert_problem(_tag(api, owner, "Mayorista", "k-2"), 422, "idempotency_key_reused")
    assert [t["name"] for t in _tags(api, owner)] == ["VIP"]


def test_a_failed_request_keeps_nothing_and_can_be_repeated(api, owner):
    assert _tag(api, owner, "", "k-3").status_code == 400
    assert _tag(api, owner, "", "k-3").status_code == 400  # tried again, not replayed
    with runtime.get().db.unit_of_work(write=False) as session:
        assert session.exec(select(IdempotencyRecord)).all() == []


def test_keys_belong_to_their_caller(api, owner):
    other = add_member(api, owner["org"]["id"], "admin", "admin@example.com")
    assert _tag(api, owner, "VIP", "shared").status_code == 201
    theirs = _tag(api, owner, "Mayorista", "shared", token=other)  # another person, same key: their own
    assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs.headers
    assert sorted(t["name"] for t in _tags(api, owner)) == ["Mayorista", "VIP"]


def test_records_expire_after_24_hours_and_api_keys_have_their_own(api, owner):
    org_id = owner["org"]["id"]
    secret = api.post(f"/organizations/{org_id}/api-keys", {"name": "erp"}, token=owner["token"]).json["data"]["secret"]

    def post(name):
        return api.client.post(f"/organizations/{org_id}/tags", json={"name": name},
                               headers={"X-Api-Key": secret, "Idempotency-Key": "k-4"})

    assert post("VIP").status_code == 201
    assert_problem(post("Mayorista"), 422, "idempotency_key_reused")
    clock.advance(24 * 3600 + 1)
    assert post("Mayorista").status_code == 201  # the old record is gone: a new request
    with runtime.get().db.unit_of_work(write=False) as session:
        assert [r.key for r in session.exec(select(IdempotencyRecord)).all()] == ["k-4"]


def test_a_bad_key_is_400(api, owner):
    assert_problem(_tag(api, owner, "VIP", "x" * 256), 400, "invalid_idempotency_key")
