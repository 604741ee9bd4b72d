"""The Wompi client (appliance/billing/wompi.py) against the Wompi double over loopback: a card token
made a payment source and charged (4242 approves, 4111 declines once settled, by the control or by
the clock's delay), Nequi (3991111111 approves, 3992222222 declines), a reference found and taken
once, a charge whose answer was lost (a timeout, a 502) found by its reference, the events posted
signed and believed, an altered or unsigned one forged, and what the double refuses as Wompi does
(a bad integrity signature, a wrong key, missing acceptance tokens, a voided source)."""

from __future__ import annotations

import hashlib
import json

import pytest
import requests

from appliance.billing.processor import APPROVED, DECLINED, ERROR, PENDING, ProcessorError
from appliance.billing.wompi import Wompi
from appliance.core import clock
from tests.fixtures.local_server import QuietHandler, serving

EMAIL = "pagos@panaderia.test"


class Events(QuietHandler):
    """The appliance's events address, as Wompi reaches it: records each post, answers `status`."""

    posts: list = []
    statuses: list = []  # the answers to give, in order; 200 once they run out

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Events.posts.append((dict(self.headers), body))
        self.send_response(Events.statuses.pop(0) if Events.statuses else 200)
        self.end_headers()


@pytest.fixture
def events(netsim_url):
    Events.posts, Events.statuses = [], []
    with serving(Events) as server:
        control(netsim_url, eventsUrl=f"{server.url}/billing/wompi/events")
        yield Events


@pytest.fixture
def keys(simulator) -> dict:
    state = simulator.wompi
    return {"public_key": state.public_key, "private_key": state.private_key, "events_secret": state.events_secret,
            "integrity_secret": state.integrity_secret}


@pytest.fixture
def wompi(netsim_url, keys) -> Wompi:
    return Wompi(url=f"{netsim_url}/wompi/v1", timeout=5.0, **keys)


def control(netsim_url: str, **fields) -> dict:
    answer = requests.put(f"{netsim_url}/_control/wompi", json=fields, timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()


def settle(netsim_url: str, **body) -> list[dict]:
    answer = requests.post(f"{netsim_url}/_control/wompi/settle", json=body, timeout=15)
    assert answer.status_code == 200, answer.text
    assert answer.json()["idle"]
    return answer.json()["settled"]


def card_token(netsim_url: str, keys: dict, number: str = "4242 4242 4242 4242") -> dict:
    """What the browser does with the public key: Wompi's answer for the card."""
    year = f"{(clock.now().year + 4) % 100:02d}"
    answer = requests.post(f"{netsim_url}/wompi/v1/tokens/cards", timeout=5,
                           headers={"Authorization": f"Bearer {keys['public_key']}"},
                           json={"number": number, "cvc": "123", "exp_month": "08", "exp_year": year,
                                 "card_holder": "Lucía Restrepo"})
    assert answer.status_code == 201, answer.text
    return answer.json()["data"]


def test_a_card_becomes_a_source_and_its_charge_is_approved_once_wompi_settles_it(netsim_url, keys, wompi):
    token = card_token(netsim_url, keys)
    assert token["id"].startswith("tok_test_") and token["last_four"] == "4242" and token["brand"] == "VISA"

    card = wompi.card_source(card_token=token["id"], email=EMAIL)
    assert card.source_id.isdigit() and (card.brand, card.last4, card.exp_month) == ("VISA", "4242", 8)
    assert card.exp_year == 2000 + int(token["exp_year"])

    charged = wompi.charge_card(source_id=card.source_id, amount_minor=4_990_000, currency="COP",
                                reference="inv:1:try:1", email=EMAIL)
    assert (charged.status, charged.amount_minor, charged.currency, charged.method, charged.reference) == \
        (PENDING, 4_990_000, "COP", "CARD", "inv:1:try:1")
    assert wompi.transaction(charged.transaction_id).status == PENDING  # nothing ends it until told

    assert [t["id"] for t in settle(netsim_url, reference="inv:1:try:1")] == [charged.transaction_id]
    approved = wompi.transaction(charged.transaction_id)
    assert approved.status == APPROVED and approved.status_message is None


def test_the_card_the_sandbox_declines_is_declined(netsim_url, keys, wompi):
    card = wompi.card_source(card_token=card_token(netsim_url, keys, "4111111111111111")["id"], email=EMAIL)
    assert (card.brand, card.last4) == ("VISA", "1111")
    charged = wompi.charge_card(source_id=card.source_id, amount_minor=150_000, currency="COP", reference="d-1",
                                email=EMAIL)
    settle(netsim_url, id=charged.transaction_id)
    declined = wompi.transaction(charged.transaction_id)
    assert declined.status == DECLINED and "rechazada" in declined.status_message


def test_a_charge_ends_by_itself_once_its_delay_has_passed_on_the_clock(netsim_url, keys, wompi):
    control(netsim_url, settleSeconds=60)
    card = wompi.card_source(card_token=card_token(netsim_url, keys)["id"], email=EMAIL)
    charged = wompi.charge_card(source_id=card.source_id, amount_minor=150_000, currency="COP", reference="c-1",
                                email=EMAIL)
    clock.advance(59)
    assert wompi.transaction(charged.transaction_id).status == PENDING
    clock.advance(2)
    assert wompi.transaction(charged.transaction_id).status == APPROVED


@pytest.mark.parametrize(("phone", "status"), [("3991111111", APPROVED), ("+57 399 222 2222", DECLINED),
                                               ("3001234567", ERROR)])
def test_nequi_ends_as_the_sandbox_numbers_say(netsim_url, wompi, phone, status):
    charged = wompi.charge_nequi(phone_number=phone, amount_minor=2_000_000, currency="COP", reference=f"n-{phone}",
                                 email=EMAIL)
    assert (charged.status, charged.method) == (PENDING, "NEQUI")  # the person accepts in the app, later
    settle(netsim_url)
    assert wompi.transaction(charged.transaction_id).status == status


def test_a_nequi_number_that_is_not_one_is_refused_before_wompi_is_asked(netsim_url, wompi):
    with pytest.raises(ProcessorError) as refused:
        wompi.charge_nequi(phone_number="12345", amount_minor=100, currency="COP", reference="n-x", email=EMAIL)
    assert refused.value.kind == "refused"
    assert requests.get(f"{netsim_url}/_control/wompi", timeout=5).json()["calls"] == []


def test_a_reference_is_found_by_and_taken_once(netsim_url, keys, wompi):
    card = wompi.card_source(card_token=card_token(netsim_url, keys)["id"], email=EMAIL)
    first = wompi.charge_card(source_id=card.source_id, amount_minor=500_000, currency="COP", reference="inv:7:try:1",
                              email=EMAIL)
    assert [t.transaction_id for t in wompi.by_reference("inv:7:try:1")] == [first.transaction_id]
    assert wompi.by_reference("inv:7:try:2") == []

    with pytest.raises(ProcessorError) as again:
        wompi.charge_card(source_id=card.source_id, amount_minor=500_000, currency="COP", reference="inv:7:try:1",
                          email=EMAIL)
    assert (again.value.kind, again.value.status) == ("refused", 422)
    assert "reference" in again.value.message and "usada" in again.value.message
    assert len(wompi.by_reference("inv:7:try:1")) == 1  # never charged twice


@pytest.mark.parametrize("fault", ["timeout", "502"])
def test_a_charge_whose_answer_was_lost_is_unavailable_and_found_by_its_reference(netsim_url, keys, fault):
    wompi = Wompi(url=f"{netsim_url}/wompi/v1", timeout=0.3, **keys)
    card = wompi.card_source(card_token=card_token(netsim_url, keys)["id"], email=EMAIL)
    control(netsim_url, fail=fault, hangSeconds=1.0)
    with pytest.raises(ProcessorError) as lost:
        wompi.charge_card(source_id=card.source_id, amount_minor=990_000, currency="COP", reference="inv:9:try:1",
                          email=EMAIL)
    assert lost.value.kind == "unavailable"

    found = wompi.by_reference("inv:9:try:1")  # the charge happened: reconcile, never charge again
    assert [(t.reference, t.status, t.amount_minor) for t in found] == [("inv:9:try:1", PENDING, 990_000)]
    settle(netsim_url)
    assert wompi.transaction(found[0].transaction_id).status == APPROVED


def test_a_charge_refused_by_a_failing_wompi_is_unavailable_and_never_happened(netsim_url, wompi):
    control(netsim_url, fail="500")
    with pytest.raises(ProcessorError) as failed:
        wompi.charge_nequi(phone_number="3991111111", amount_minor=100_000, currency="COP", reference="f-1",
                           email=EMAIL)
    assert (failed.value.kind, failed.value.status) == ("unavailable", 500)
    assert wompi.by_reference("f-1") == []
    control(netsim_url, fail="429", failOn="all")
    with pytest.raises(ProcessorError) as busy:
        wompi.by_reference("f-1")
    assert (busy.value.kind, busy.value.status) == ("unavailable", 429)
    assert wompi.by_reference("f-1") == []  # one failure only


def test_wompi_is_unavailable_when_it_cannot_be_reached(keys):
    wompi = Wompi(url="http://127.0.0.1:9/wompi/v1", timeout=1.0, **keys)
    with pytest.raises(ProcessorError) as unreachable:
        wompi.transaction("1234-1700000000-00001")
    assert unreachable.value.kind == "unavailable" and keys["private_key"] not in unreachable.value.message


def test_the_events_wompi_posts_are_signed_and_believed(netsim_url, keys, wompi, events):
    charged = wompi.charge_nequi(phone_number="3991111111", amount_minor=4_490_000, currency="COP",
                                 reference="topup:1", email=EMAIL)
    settle(netsim_url)
    [(headers, body)] = events.posts
    posted = json.loads(body)
    assert posted["event"] == "transaction.updated" and posted["environment"] == "test"
    assert posted["signature"]["properties"] == ["transaction.id", "transaction.status", "transaction.amount_in_cents"]
    assert headers["X-Event-Checksum"] == posted["signature"]["checksum"]
    transaction = posted["data"]["transaction"]
    assert posted["signature"]["checksum"] == hashlib.sha256(
        f"{transaction['id']}APPROVED4490000{posted['timestamp']}{keys['events_secret']}".encode()).hexdigest()

    event = wompi.parse_event(body)
    assert (event.transaction.transaction_id, event.transaction.status, event.transaction.amount_minor) == \
        (charged.transaction_id, APPROVED, 4_490_000)
    assert event.key == f"{charged.transaction_id}:APPROVED"
    shouting = json.dumps({**posted, "signature": {**posted["signature"],
                                                   "checksum": posted["signature"]["checksum"].upper()}}).encode()
    assert wompi.parse_event(shouting).key == event.key  # Wompi's own example writes the checksum in capitals


def test_an_altered_or_unsigned_event_is_forged(netsim_url, keys, wompi, events):
    wompi.charge_nequi(phone_number="3992222222", amount_minor=1_000_000, currency="COP", reference="topup:2",
                       email=EMAIL)
    settle(netsim_url)
    [(_, body)] = events.posts
    posted = json.loads(body)

    def forged(raw: bytes, client: Wompi = wompi) -> str:
        with pytest.raises(ProcessorError) as error:
            client.parse_event(raw)
        assert error.value.kind == "forged"
        return error.value.message

    def altered(**transaction) -> bytes:
        changed = {**posted["data"]["transaction"], **transaction}
        return json.dumps({**posted, "data": {"transaction": changed}}).encode()

    assert "checksum" in forged(altered(status="APPROVED"))
    assert "checksum" in forged(altered(amount_in_cents=1))
    assert "checksum" in forged(json.dumps({**posted, "timestamp": posted["timestamp"] + 1}).encode())
    assert "checksum" in forged(body, Wompi(url="http://127.0.0.1:9", **{**keys, "events_secret": "test_events_other"}))
    for garbage in (b"", b"not json", b"[]", b'{"event": "transaction.updated"}',
                    json.dumps({**posted, "data": []}).encode(), b"[" * 60_000):
        forged(garbage)
    assert "secret" in forged(body, Wompi(url="http://127.0.0.1:9", **{**keys, "events_secret": ""}))

    # Signed with the secret, but over less than the transaction's id, status and amount: proves too little.
    thin = {**posted, "signature": {"properties": ["transaction.id"], "checksum": hashlib.sha256(
        f"{posted['data']['transaction']['id']}{posted['timestamp']}{keys['events_secret']}".encode()).hexdigest()}}
    assert "sign" in forged(json.dumps(thin).encode())

    # Wompi's own, well signed, but not a transaction's: nothing for billing to do.
    token_event = {"event": "nequi_token.updated",
                   "data": {"nequi_token": {"id": "nequi_test_1", "status": "APPROVED"}}, "timestamp": 1530291411,
                   "signature": {"properties": ["nequi_token.id", "nequi_token.status"]}}
    token_event["signature"]["checksum"] = hashlib.sha256(
        f"nequi_test_1APPROVED1530291411{keys['events_secret']}".encode()).hexdigest()
    with pytest.raises(ProcessorError) as other:
        wompi.parse_event(json.dumps(token_event).encode())
    assert other.value.kind == "refused"


def test_an_event_not_taken_is_posted_again_30_minutes_on(netsim_url, wompi, events):
    events.statuses = [500]
    wompi.charge_nequi(phone_number="3991111111", amount_minor=300_000, currency="COP", reference="topup:3",
                       email=EMAIL)
    settle(netsim_url)
    assert len(events.posts) == 1
    clock.advance(29 * 60)
    settle(netsim_url)
    assert len(events.posts) == 1
    clock.advance(61)
    settle(netsim_url)
    assert len(events.posts) == 2 and events.posts[0][1] == events.posts[1][1]  # the same event, again
    wompi.parse_event(events.posts[1][1])


def test_the_double_refuses_a_bad_integrity_signature_and_a_wrong_key(netsim_url, keys, wompi):
    card = wompi.card_source(card_token=card_token(netsim_url, keys)["id"], email=EMAIL)
    unsigned = Wompi(url=f"{netsim_url}/wompi/v1", **{**keys, "integrity_secret": "test_integrity_not_ours"})
    with pytest.raises(ProcessorError) as bad_signature:
        unsigned.charge_card(source_id=card.source_id, amount_minor=100_000, currency="COP", reference="s-1",
                             email=EMAIL)
    assert (bad_signature.value.kind, bad_signature.value.status) == ("refused", 422)
    assert "signature" in bad_signature.value.message
    assert wompi.by_reference("s-1") == []  # refused before anything was charged: the reference is still free

    stranger = Wompi(url=f"{netsim_url}/wompi/v1", **{**keys, "private_key": "prv_test_not_ours_at_all"})
    with pytest.raises(ProcessorError) as wrong_key:
        stranger.charge_card(source_id=card.source_id, amount_minor=100_000, currency="COP", reference="s-1",
                             email=EMAIL)
    assert (wrong_key.value.kind, wrong_key.value.status) == ("refused", 401)
    assert "APPLIANCE_WOMPI" in wrong_key.value.message and "prv_test_not_ours" not in wrong_key.value.message

    # What the browser holds (the public key) charges no saved card.
    signature = hashlib.sha256(f"s-2100000COP{keys['integrity_secret']}".encode()).hexdigest()
    public = requests.post(f"{netsim_url}/wompi/v1/transactions", timeout=5,
                           headers={"Authorization": f"Bearer {keys['public_key']}"},
                           json={"amount_in_cents": 100_000, "currency": "COP", "customer_email": EMAIL,
                                 "reference": "s-2", "payment_source_id": int(card.source_id), "signature": signature})
    assert public.status_code == 401 and public.json()["error"]["type"] == "INVALID_ACCESS_TOKEN"
    assert requests.get(f"{netsim_url}/wompi/v1/transactions", params={"reference": "s-1"}, timeout=5,
                        headers={"Authorization": f"Bearer {keys['public_key']}"}).status_code == 401


def test_a_source_and_a_nequi_charge_need_both_fresh_acceptance_tokens(netsim_url, keys):
    token = card_token(netsim_url, keys)["id"]
    merchant = requests.get(f"{netsim_url}/wompi/v1/merchants/info", timeout=5,
                            headers={"x-merchant-public-key": keys["public_key"]}).json()["data"]
    assert merchant["presigned_acceptance"]["type"] == "END_USER_POLICY"
    assert merchant["presigned_personal_data_auth"]["type"] == "PERSONAL_DATA_AUTH"
    private = {"Authorization": f"Bearer {keys['private_key']}"}

    def source(**acceptance):
        return requests.post(f"{netsim_url}/wompi/v1/payment_sources", headers=private, timeout=5,
                             json={"type": "CARD", "token": token, "customer_email": EMAIL, **acceptance})

    only_terms = source(acceptance_token=merchant["presigned_acceptance"]["acceptance_token"])
    assert only_terms.status_code == 422
    assert list(only_terms.json()["error"]["messages"]) == ["accept_personal_auth"]
    invented = source(acceptance_token="eyJ.invented.x", accept_personal_auth="eyJ.invented.y")
    assert invented.status_code == 422 and invented.json()["error"]["type"] == "INPUT_VALIDATION_ERROR"
    clock.advance(3601)  # they last an hour
    late = source(acceptance_token=merchant["presigned_acceptance"]["acceptance_token"],
                  accept_personal_auth=merchant["presigned_personal_data_auth"]["acceptance_token"])
    assert late.status_code == 422
    retired = requests.get(f"{netsim_url}/wompi/v1/merchants/{keys['public_key']}", timeout=5)
    assert retired.status_code == 404  # the key-in-the-path form Wompi retired on 31 October 2026


def test_removing_a_card_voids_its_source_and_it_charges_nothing_more(netsim_url, keys, wompi):
    card = wompi.card_source(card_token=card_token(netsim_url, keys)["id"], email=EMAIL)
    wompi.remove_source(card.source_id)
    wompi.remove_source(card.source_id)  # twice is still what was wanted
    wompi.remove_source("999999999")  # one Wompi never had, too
    with pytest.raises(ProcessorError) as voided:
        wompi.charge_card(source_id=card.source_id, amount_minor=100_000, currency="COP", reference="v-1", email=EMAIL)
    assert voided.value.kind == "refused" and "payment_source_id" in voided.value.message
    source = requests.get(f"{netsim_url}/wompi/v1/payment_sources/{card.source_id}", timeout=5,
                          headers={"Authorization": f"Bearer {keys['private_key']}"}).json()["data"]
    assert source["status"] == "VOIDED"


def test_an_unknown_transaction_is_refused_as_not_found(wompi):
    with pytest.raises(ProcessorError) as missing:
        wompi.transaction("1234-1700000000-99999")
    assert (missing.value.kind, missing.value.status) == ("refused", 404)


def test_the_double_keeps_no_card_number_and_the_client_shows_no_key(netsim_url, keys, wompi):
    wompi.card_source(card_token=card_token(netsim_url, keys)["id"], email=EMAIL)
    held = requests.get(f"{netsim_url}/_control/wompi", timeout=5).text
    assert "4242424242424242" not in held and '"cvc"' not in held
    assert all(secret not in repr(wompi) for secret in keys.values())


def test_what_the_double_cannot_read_is_wompis_422_and_a_path_it_does_not_serve_its_404(netsim_url, keys):
    private = {"Authorization": f"Bearer {keys['private_key']}"}
    for body in ([1], "x", {"amount_in_cents": "many", "reference": ["r"], "payment_method": 3}):
        answer = requests.post(f"{netsim_url}/wompi/v1/transactions", json=body, headers=private, timeout=5)
        assert answer.status_code == 422 and answer.json()["error"]["type"] == "INPUT_VALIDATION_ERROR", answer.text
    deep = requests.post(f"{netsim_url}/wompi/v1/transactions", data="[" * 50_000, timeout=5,
                         headers={**private, "Content-Type": "application/json"})
    assert deep.status_code == 422  # nested past what the parser reads: unreadable, never a 500
    unknown = requests.get(f"{netsim_url}/wompi/v1/refunds/1", headers=private, timeout=5)
    assert unknown.status_code == 404 and unknown.json()["error"]["type"] == "NOT_FOUND_ERROR"
    assert requests.put(f"{netsim_url}/_control/wompi", json={"fail": "sometimes"}, timeout=5).status_code == 400
    assert requests.put(f"{netsim_url}/_control/wompi", json={"eventsUrl": "https://example.com/x"},
                        timeout=5).status_code == 400
