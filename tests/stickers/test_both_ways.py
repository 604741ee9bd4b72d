"""A sticker goes both ways: one of the library's sent with `type: sticker` and `stickerId` reaches the
network as a sticker message (its WEBP uploaded to the number once, never sent as an image), and a
customer's sticker is drawn in the inbox's thread as a sticker. The simulated network holds a
sticker to WhatsApp's rules, as the real one does."""

import base64

import requests

from appliance.netsim.network import Network, NetworkError, Number
from tests.browser_forms import csrf_of, sign_in
from tests.factories import organization, person
from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem
from tests.stickers import pictures


def _window_open(line):
    line.customer_writes()
    line.deliver()


def _send(line, body: dict, token: str | None = None):
    return line.api.post(f"/organizations/{line.org_id}/messages",
                         {"phoneNumberId": line.number["id"], "to": CUSTOMER, **body}, token=token or line.owner["token"])


def _network_got(line) -> list[dict]:
    return requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"]


def test_a_sticker_of_the_library_reaches_the_network_as_a_sticker_uploaded_once(library):
    line = library.line
    _window_open(line)
    sticker = library.added(pictures.animation(5, 400, 400), filename="hola.webp", content_type="image/webp")
    sent = _send(line, {"type": "sticker", "stickerId": sticker["id"]})
    assert sent.status_code == 201, sent.json
    message = sent.json["data"]
    assert message["type"] == "sticker" and message["payload"] == {"local": {"source": "sticker", "id": sticker["id"]}}
    [got] = _network_got(line)
    assert got["type"] == "sticker" and "image" not in got and set(got["sticker"]) == {"id"}
    media = line.simulator.network.media[got["sticker"]["id"]]
    assert media.mime_type == "image/webp" and media.content == library.get(f"/{sticker['id']}/file").data
    again = _send(line, {"type": "sticker", "stickerId": sticker["id"]})
    assert again.status_code == 201
    assert [m["sticker"]["id"] for m in _network_got(line)] == [got["sticker"]["id"]] * 2  # uploaded once
    read = line.get(f"/messages/{message['id']}")
    assert read["status"] in ("sent", "delivered") and read["errorCode"] is None
    # The thread's picture is the sticker's file, also once the sticker left the library.
    assert library.delete(f"/{sticker['id']}").status_code == 204
    shown = line.client.get(f"/organizations/{line.org_id}/messages/{message['id']}/media",
                            headers=library.auth)
    assert shown.status_code == 200 and shown.mimetype == "image/webp" and shown.data == media.content


def test_a_sticker_is_named_by_the_library_or_sent_as_the_network_shapes_it(library):
    line = library.line
    _window_open(line)
    sticker = library.added(pictures.drawing(300, 300))
    wrong_type = assert_problem(_send(line, {"type": "image", "stickerId": sticker["id"]}), 400, "validation_failed")
    assert "stickerId" in wrong_type["errors"]
    both = assert_problem(_send(line, {"type": "sticker", "stickerId": sticker["id"], "payload": {"id": "123"}}), 400,
                          "validation_failed")
    assert "payload" in both["errors"]
    assert_problem(_send(line, {"type": "sticker", "stickerId": "01a00000-0000-7000-8000-000000000000"}), 404,
                   "sticker_not_found")
    eve = person(line.api, email="eve@example.com")["tokens"]["accessToken"]
    theirs = organization(line.api, eve, name="Eve", slug="eve")["id"]
    stolen = line.api.post(f"/organizations/{theirs}/messages", {"phoneNumberId": line.number["id"], "to": CUSTOMER,
                                                                 "type": "sticker", "stickerId": sticker["id"]}, token=eve)
    assert stolen.status_code == 404  # their organization has neither our number nor our sticker
    assert _network_got(line) == []


def test_the_network_refuses_a_sticker_that_is_not_one(library):
    """Sent by the network's own media id, a PNG is no sticker: the network fails the message (131053)."""
    line = library.line
    _window_open(line)
    uploaded = line.client.post(f"/organizations/{line.org_id}/messages/upload?phoneNumberId={line.number['id']}",
                                data=pictures.drawing(512, 512), headers={**library.auth, "Content-Type": "image/png"})
    assert uploaded.status_code == 201, uploaded.json
    sent = _send(line, {"type": "sticker", "payload": {"id": uploaded.json["data"]["mediaId"]}})
    assert sent.status_code == 201
    failed = line.get(f"/messages/{sent.json['data']['id']}")
    assert failed["status"] == "failed" and failed["errorCode"] == 131053, failed
    assert _network_got(line) == []


def test_the_simulated_network_holds_stickers_to_whatsapps_rules():
    network = Network()
    account = network.create_account(name="Sol", numbers=[{"displayPhoneNumber": "+57 300 000 0000"}])
    number = network.numbers[account.numbers[0]]
    network.record_inbound(network.customer(CUSTOMER), number)

    def sent(content: bytes, mime_type: str = "image/webp"):
        media = network.store_media(number, content, mime_type)
        return network.send(number, {"messaging_product": "whatsapp", "to": CUSTOMER, "type": "sticker",
                                     "sticker": {"id": media.media_id}})

    assert sent(pictures.drawing(512, 512, fmt="WEBP"))["messages"][0]["message_status"] == "accepted"
    for content, mime_type, reason in ((pictures.drawing(512, 512), "image/png", "image/webp"),
                                       (pictures.drawing(300, 512, fmt="WEBP"), "image/webp", "512x512"),
                                       (pictures.noise(512, 512, fmt="WEBP"), "image/webp", "at most 100 KB")):
        try:
            sent(content, mime_type)
        except NetworkError as error:
            assert error.code == 131053 and reason in error.details, error.details
        else:
            raise AssertionError(f"{reason}: sent")
    try:
        network.send(number, {"messaging_product": "whatsapp", "to": CUSTOMER, "type": "sticker",
                              "sticker": {"id": "999"}})
    except NetworkError as error:
        assert error.code == 131053
    else:
        raise AssertionError("an unknown media id was sent")
    other = Number(phone_number_id="1", waba_id=account.waba_id, display_phone_number="+1", verified_name="x")
    try:
        network.store_media(other, b"RIFF" + b"0" * (600 * 1024), "image/webp")
    except NetworkError as error:
        assert error.code == 131053  # a WEBP is taken up to an animated sticker's 500 KB
    else:
        raise AssertionError("a 600 KB WEBP was taken")


def test_a_customers_sticker_is_drawn_as_a_sticker_in_the_thread(line):
    animated = pictures.animation(4, 512, 512)
    line.customer_writes({"type": "sticker", "sticker": {}},
                         media={"contentBase64": base64.b64encode(animated).decode(), "mimeType": "image/webp"})
    line.deliver()
    conversation = line.get("/conversations")["items"][0]
    [message] = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    assert message["type"] == "sticker" and message["payload"]["sticker"]["animated"] is True
    assert conversation["preview"] == "💟"
    sign_in(line.client, email="owner@example.com")
    page = line.client.get(f"/inbox/{line.org_id}/c/{conversation['id']}").text
    bubble = page.split(f'id="m-{message["id"]}"')[0].rsplit("<li", 1)[1] + page.split(f'id="m-{message["id"]}"')[1]
    assert "sticker-bubble" in bubble and 'class="sticker"' in bubble and 'class="media"' not in bubble.split("</li>")[0]
    assert 'alt="Animated sticker"' in bubble
    file = line.client.get(f"/inbox/{line.org_id}/media/{message['id']}")
    assert file.status_code == 200 and file.mimetype == "image/webp" and file.data == animated


def test_the_inbox_picker_sends_a_sticker_without_javascript(library):
    line = library.line
    _window_open(line)
    sticker = library.added(pictures.drawing(300, 300), name="Sol")
    conversation = line.get("/conversations")["items"][0]
    sign_in(line.client, email="owner@example.com")
    page = line.client.get(f"/inbox/{line.org_id}/c/{conversation['id']}")
    assert f'data-sticker-choice="{sticker["id"]}"' in page.text and "Send the sticker “Sol”" in page.text
    answer = line.client.post(f"/inbox/{line.org_id}/c/{conversation['id']}/do/sticker",
                              data={"csrf": csrf_of(page), "sticker_id": sticker["id"]})
    assert answer.status_code == 303 and answer.location.endswith(f"/c/{conversation['id']}")
    [got] = _network_got(line)
    assert got["type"] == "sticker"
    thread = line.client.get(f"/inbox/{line.org_id}/c/{conversation['id']}").text
    assert thread.count("sticker-bubble") == 1 and "data-sticker-message" in thread
    refused = line.client.post(f"/inbox/{line.org_id}/c/{conversation['id']}/do/sticker",
                               data={"csrf": csrf_of(page), "sticker_id": "01a00000-0000-7000-8000-000000000000"})
    assert refused.status_code == 404
