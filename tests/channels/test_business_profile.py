"""A number's business profile and picture, passed through to the network; coexistence numbers'
Business-app contacts synced by webhook; refusals that say what to do."""

import io
import struct
import zlib

import pytest
import requests

from tests.fixtures.line import Line
from tests.problems import assert_problem


def _png(size=2) -> bytes:
    raw = b"".join(b"\x00" + b"\xff\x80\x00" * size for _ in range(size))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _profile_url(line, suffix=""):
    return f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}/profile{suffix}"


def test_profile_read_and_update_go_to_the_network(line):
    assert line.get(f"/phone-numbers/{line.number['id']}/profile")["vertical"] == "OTHER"
    changed = line.api.put(_profile_url(line), {
        "about": "Pan recién hecho", "description": "Panadería de barrio\ndesde 1987", "email": "hola@sol.mx",
        "vertical": "RESTAURANT", "websites": ["https://sol.mx"]}, token=line.owner["token"])
    assert changed.status_code == 200, changed.json
    assert changed.json["data"]["about"] == "Pan recién hecho" and changed.json["data"]["websites"] == ["https://sol.mx"]
    on_network = line.simulator.network.numbers[line.account["numbers"][0]["id"]].profile
    assert on_network["vertical"] == "RESTAURANT" and on_network["email"] == "hola@sol.mx"
    for body, field in (({"vertical": "BAKERY"}, "vertical"), ({"email": "no"}, "email"),
                        ({"websites": ["https://a.mx", "https://b.mx", "https://c.mx"]}, "websites"),
                        ({"websites": ["ftp://a.mx"]}, "websites"), ({"about": "x" * 140}, "about"),
                        ({}, "_schema"), ({"profilePictureUrl": "https://x"}, "profilePictureUrl")):
        answer = line.api.put(_profile_url(line), body, token=line.owner["token"])
        assert answer.status_code == 400 and any(k.split(".")[0] == field for k in answer.json["errors"]), (body, answer.json)


def test_profile_picture_jpg_or_png_up_to_5_mb(line):
    headers = {"Authorization": f"Bearer {line.owner['token']}"}
    url = _profile_url(line, "/picture")
    posted = line.client.post(url, data={"file": (io.BytesIO(_png()), "logo.png", "image/png")}, headers=headers,
                              content_type="multipart/form-data")
    assert posted.status_code == 201, posted.json
    picture_url = posted.json["data"]["profilePictureUrl"]
    assert picture_url.startswith("http") and "/_pictures/" in picture_url
    served = requests.get(line.netsim_url + "/_pictures/" + picture_url.rsplit("/", 1)[1], timeout=5)
    assert served.status_code == 200 and served.content == _png() and served.headers["Content-Type"] == "image/png"
    as_body = line.client.post(url, data=b"\xff\xd8\xff\xe0" + b"\x00" * 64, headers={**headers, "Content-Type": "image/jpeg"})
    assert as_body.status_code == 201, as_body.json
    disguised = line.client.post(url, data={"file": (io.BytesIO(b"GIF89a..."), "logo.png", "image/png")},
                                 headers=headers, content_type="multipart/form-data")
    assert_problem(disguised, 400, "unsupported_picture_type")
    huge = line.client.post(url, data=b"\xff\xd8\xff" + b"\x00" * (5 * 1024 * 1024), headers={
        **headers, "Content-Type": "image/jpeg"})
    assert huge.status_code == 413
    webp = line.client.post(url, data=b"RIFF", headers={**headers, "Content-Type": "image/webp"})
    assert_problem(webp, 400, "unsupported_content_type")


def test_network_refusals_and_other_tenants(line, api):
    requests.put(f"{line.netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    down = line.api.get(_profile_url(line), token=line.owner["token"])
    assert_problem(down, 503, "graph_unavailable")
    requests.put(f"{line.netsim_url}/_control/faults", json={"errorRate": 0.0}, timeout=5)
    line.simulator.network.accounts[line.account["wabaId"]].access_token = "EAAGrotated"
    refused = line.api.put(_profile_url(line), {"about": "Hola"}, token=line.owner["token"])
    assert_problem(refused, 400, "graph_token_invalid")
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]["id"]
    their_url = f"/organizations/{theirs}/phone-numbers/{line.number['id']}/profile"
    assert api.get(their_url, token=stranger).status_code == 404
    assert api.put(their_url, {"about": "mine"}, token=stranger).status_code == 404


@pytest.fixture
def coexistence_line(api, client, owner, netsim_url, receiver, simulator):
    answer = requests.post(f"{netsim_url}/_control/accounts", json={
        "name": "Tacos Lupita", "webhookUrl": receiver[0],
        "numbers": [{"displayPhoneNumber": "+52 55 1000 2000", "coexistence": True, "addressBook": [
            {"phoneNumber": "5215511112222", "fullName": "Doña Rosa", "firstName": "Rosa"},
            {"phoneNumber": "5215533334444", "fullName": "Proveedor Tortillas"}]}]}, timeout=5)
    return Line(api, client, owner, answer.json(), netsim_url, receiver, simulator)


def test_coexistence_sync_brings_the_business_apps_contacts(coexistence_line):
    line = coexistence_line
    assert line.number["coexistence"] is True
    line.customer_writes(wa_id="5215511112222", name="Rosa 🌹")  # already a contact, named by her profile only
    line.deliver()
    synced = line.api.post(f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}/coexistence/sync", {},
                           token=line.owner["token"])
    assert synced.status_code == 201, synced.json
    assert synced.json["data"]["coexistenceSyncRequestedAt"]
    answers = line.deliver()
    assert [a.json["data"]["contacts"] for a in answers] == [2]
    contacts = {c["waId"]: c for c in line.get("/contacts")["items"]}
    assert contacts["5215511112222"]["name"] == "Doña Rosa" and contacts["5215511112222"]["profileName"] == "Rosa 🌹"
    assert contacts["5215533334444"]["displayName"] == "Proveedor Tortillas"
    line.api.patch(f"/organizations/{line.org_id}/contacts/{contacts['5215533334444']['id']}", {"name": "Tortillería"},
                   token=line.owner["token"])
    line.api.post(f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}/coexistence/sync", {},
                  token=line.owner["token"])
    assert [a.json["data"]["contacts"] for a in line.deliver()] == [0]  # our names are kept
    assert {c["name"] for c in line.get("/contacts")["items"]} == {"Doña Rosa", "Tortillería"}


def test_coexistence_sync_needs_a_coexistence_number(line):
    answer = line.api.post(f"/organizations/{line.org_id}/phone-numbers/{line.number['id']}/coexistence/sync", {},
                           token=line.owner["token"])
    assert_problem(answer, 409, "not_coexistence_number")


def test_echoes_of_the_business_app_are_kept_as_sent_messages(coexistence_line):
    line = coexistence_line
    answer = requests.post(f"{line.netsim_url}/_control/echo", json={
        "phoneNumberId": line.account["numbers"][0]["id"], "to": "5215599990000", "type": "text",
        "text": {"body": "¡Su pedido ya salió!"}}, timeout=5)
    assert answer.status_code == 201, answer.text
    [(headers, body)] = line.deliveries()
    first = line.replay(headers, body)
    assert first.status_code == 200 and first.json["data"]["echoes"] == 1
    again = line.replay(headers, body)  # a redelivery changes nothing
    assert again.json["data"]["echoes"] == 0 and again.json["data"]["duplicates"] == 1
    [conversation] = line.get("/conversations")["items"]
    assert conversation["unread"] is False and conversation["lastInboundAt"] is None
    [message] = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    assert (message["direction"], message["status"], message["sentFrom"], message["payload"]) == (
        "out", "sent", "business_app", {"text": {"body": "¡Su pedido ya salió!"}})
    line.customer_writes(wa_id="5215599990000", message={"type": "text", "text": {"body": "¡Gracias!"}})
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    assert conversation["unread"] is True and len(line.get(f"/conversations/{conversation['id']}/messages")["items"]) == 2


def test_malformed_echoes_are_refused_whole(coexistence_line):
    import json

    from appliance.netsim import webhooks
    line = coexistence_line
    number = line.simulator.network.numbers[line.account["numbers"][0]["id"]]
    change = webhooks.messages_change(number, field_name="smb_message_echoes")
    change["value"]["message_echoes"] = [{"id": "wamid.x", "type": "text", "timestamp": "1"}]  # no "to"
    body = webhooks.encode(webhooks.envelope(line.account["wabaId"], [change]))
    answer = line.replay({"X-Hub-Signature-256": webhooks.sign(line.account["appSecret"], body)}, body)
    assert answer.status_code == 400 and "entry[0].changes[0].value.message_echoes[0]" in answer.json["errors"]
    assert json.loads(body)["entry"][0]["changes"][0]["field"] == "smb_message_echoes"
    assert line.get("/conversations")["items"] == [] and line.get("/contacts")["items"] == []  # nothing stored
