"""Contacts through the API: create, list with filters and cursor, read, update (botExcluded),
delete (with their conversations); every change an event; tenancy and bad input."""

from sqlmodel import select

from appliance.core import runtime
from appliance.core.events import OutboxEvent
from tests.problems import assert_problem


def _url(owner, path=""):
    return f"/organizations/{owner['org']['id']}/contacts{path}"


def _create(api, owner, **body):
    return api.post(_url(owner), {"waId": "+52 1 55 1234-5678", **body}, token=owner["token"])


def _event_names():
    with runtime.get().db.unit_of_work(write=False) as session:
        return [e.name for e in session.exec(select(OutboxEvent).where(OutboxEvent.name.like("contact%"))
                                             .order_by(OutboxEvent.id)).all()]


def test_create_read_update_delete(api, owner):
    created = _create(api, owner, name="  Ana Pérez ", attributes={"ciudad": "CDMX", "vip": True})
    assert created.status_code == 201, created.json
    contact = created.json["data"]
    assert (contact["waId"], contact["name"], contact["displayName"], contact["botExcluded"], contact["optedOut"]) == (
        "5215512345678", "Ana Pérez", "Ana Pérez", False, False)
    assert contact["attributes"] == {"ciudad": "CDMX", "vip": True}
    again = _create(api, owner, waId="5215512345678")
    assert_problem(again, 409, "contact_exists")
    assert again.json["contactId"] == contact["id"]

    updated = api.patch(_url(owner, f"/{contact['id']}"), {"botExcluded": True}, token=owner["token"])
    assert updated.status_code == 200 and updated.json["data"]["botExcluded"] is True
    assert api.get(_url(owner, f"/{contact['id']}"), token=owner["token"]).json["data"]["botExcluded"] is True
    unchanged = api.patch(_url(owner, f"/{contact['id']}"), {"botExcluded": True}, token=owner["token"])
    assert unchanged.status_code == 200
    assert _event_names() == ["contact.created", "contact.updated"]

    assert api.delete(_url(owner, f"/{contact['id']}"), token=owner["token"]).status_code == 204
    assert api.get(_url(owner, f"/{contact['id']}"), token=owner["token"]).json["code"] == "contact_not_found"
    assert _event_names()[-1] == "contact.deleted"


def test_listing_filters_and_cursor(api, owner):
    ids = [_create(api, owner, waId=f"34600000{i:03d}", name=f"Cliente {i}").json["data"]["id"] for i in range(5)]
    api.patch(_url(owner, f"/{ids[1]}"), {"botExcluded": True}, token=owner["token"])
    _create(api, owner, waId="+1 650 555 1234", name="Sheena_100%")
    first = api.get(_url(owner, "?take=4"), token=owner["token"]).json["data"]
    assert len(first["items"]) == 4 and first["items"][0]["name"] == "Sheena_100%"
    rest = api.get(_url(owner, f"?take=4&cursor={first['nextCursor']}"), token=owner["token"]).json["data"]
    assert len(rest["items"]) == 2 and rest["nextCursor"] is None
    assert {c["id"] for c in first["items"] + rest["items"]} >= set(ids)

    def names(query):
        return [c["name"] for c in api.get(_url(owner, query), token=owner["token"]).json["data"]["items"]]
    assert names("?botExcluded=true") == ["Cliente 1"]
    assert names("?waIdPrefix=1") == ["Sheena_100%"]
    assert names("?search=100%25") == ["Sheena_100%"]  # % and _ are literal
    assert names("?search=_") == ["Sheena_100%"]
    assert sorted(names("?search=cliente")) == [f"Cliente {i}" for i in range(5)]
    assert names("?search=34600000003") == ["Cliente 3"]
    _create(api, owner, waId="34600000999", name="ÁNGEL Núñez")  # capitals with accents, folded on both engines
    assert names("?search=angel nu") == names("?search=NUÑ") == ["ÁNGEL Núñez"]


def test_bad_input_and_other_tenants(api, owner):
    for body, field in (({"waId": "12"}, "waId"), ({"waId": "52155abc12345"}, "waId"),
                        ({"waId": "5215512345678", "userId": "nope"}, "userId"),
                        ({"waId": "5215512345678", "attributes": {"a": {"nested": 1}}}, "attributes"),
                        ({"waId": "5215512345678", "attributes": {f"k{i}": i for i in range(51)}}, "attributes"),
                        ({"waId": "5215512345678", "name": "a\x00b"}, "name"),
                        ({"waId": "5215512345678", "extra": 1}, "extra")):
        answer = api.post(_url(owner), body, token=owner["token"])
        assert answer.status_code == 400 and field in answer.json["errors"], (body, answer.json)
    contact = _create(api, owner).json["data"]
    empty = api.patch(_url(owner, f"/{contact['id']}"), {}, token=owner["token"])
    assert empty.status_code == 400
    assert api.patch(_url(owner, f"/{contact['id']}"), {"waId": "1"}, token=owner["token"]).status_code == 400
    for query in ("?take=0", "?botExcluded=maybe", "?waIdPrefix=%2B52", "?listId=nope", "?cursor=forged"):
        assert api.get(_url(owner, query), token=owner["token"]).status_code == 400, query
    assert api.get(_url(owner, "?listId=00000000-0000-0000-0000-000000000000"),
                   token=owner["token"]).json["code"] == "contact_list_not_found"

    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]
    other = {"token": stranger, "org": theirs}
    assert api.get(_url(other), token=stranger).json["data"]["items"] == []
    for method in (api.get, api.delete):
        assert_problem(method(_url(other, f"/{contact['id']}"), token=stranger), 404, "contact_not_found")
    assert_problem(api.patch(_url(other, f"/{contact['id']}"), {"name": "x"}, token=stranger), 404, "contact_not_found")
    assert_problem(api.get(_url(owner, f"/{contact['id']}"), token=stranger), 403, "not_a_member")
    # The same number is a separate contact in another organization.
    assert _create(api, other).status_code == 201


def test_number_variants_are_the_same_phone_written_the_other_way():
    from appliance.contacts.service import number_variants

    assert number_variants("5215512345678") == ["525512345678"]  # Mexico: the network keeps the mobile 1
    assert number_variants("525512345678") == ["5215512345678"]
    assert number_variants("5491123456789") == ["541123456789"]  # Argentina: the mobile 9
    assert number_variants("541123456789") == ["5491123456789"]
    assert number_variants("5511987654321") == ["551187654321"]  # Brazil: the ninth digit of a mobile
    assert number_variants("551187654321") == ["5511987654321"]
    assert number_variants("551132654321") == []  # a landline (2 to 5) never had one
    assert number_variants("16505551234") == [] and number_variants("34600123456") == []


def test_a_contact_imported_without_the_networks_digit_is_the_customer_who_writes(line):
    """Imported as people write a Mexican mobile (+52 55 ...), the customer writes in as the network
    calls them (52 1 55 ...): one contact, now with the network's number, and their conversation."""
    created = line.api.post(f"/organizations/{line.org_id}/contacts", {"waId": "+52 55 1234 5678", "name": "Ana"},
                            token=line.owner["token"])
    assert created.status_code == 201 and created.json["data"]["waId"] == "525512345678"
    line.customer_writes(wa_id="5215512345678")
    assert [a.status_code for a in line.deliver()] == [200]
    contacts = line.get("/contacts")["items"]
    assert [(c["id"], c["waId"], c["name"]) for c in contacts] == [(created.json["data"]["id"], "5215512345678", "Ana")]
    assert [c["contactId"] for c in line.get("/conversations")["items"]] == [created.json["data"]["id"]]
    # A send to the number as people dial it finds the same contact and leaves its number as the
    # network wrote it.
    sent = line.api.post(f"/organizations/{line.org_id}/messages", {
        "phoneNumberId": line.number["id"], "to": "525512345678", "type": "text", "payload": {"body": "¡Hola Ana!"}},
        token=line.owner["token"])
    assert sent.status_code in (201, 202), sent.json
    assert [(c["id"], c["waId"]) for c in line.get("/contacts")["items"]] == [(created.json["data"]["id"], "5215512345678")]
