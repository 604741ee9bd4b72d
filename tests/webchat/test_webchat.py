"""Issue 51, the web chat: widgets (origins, pre-chat form, identity secret shown once) through the
API; visitors on Socket.IO's namespace /wc over long-polling, against the real app served by
waitress: refused for an origin not allowed or a forged identity, their messages in the inbox as
`webchat` conversations, the team's answers back on their socket with the ticks moving."""

from __future__ import annotations


import pytest
import socketio

from appliance.webchat import gateway, service as widgets_service
from tests import factories
from tests.fixtures.local_server import waitress_serving
from tests.problems import assert_problem
from tests.waiting import eventually

SHOP = "https://shop.example"


def widgets(line) -> str:
    return f"/organizations/{line.org_id}/webchat/widgets"


@pytest.fixture
def served(app):
    """The app (with the gateway in front of it, as the server runs it) on a loopback port."""
    with waitress_serving(app, threads=24) as url:
        yield url
        if gateway.current() is not None:  # visitors' pending polls answer now, not at the next ping
            for engine_socket in list(gateway.current().sio.eio.sockets.values()):
                engine_socket.close(wait=False, abort=True)


class Visitor:
    """A browser tab with the widget: a Socket.IO client on /wc that keeps what it heard."""

    def __init__(self, base: str, token: str, origin: str = SHOP, **auth):
        self.client = socketio.Client(reconnection=False)
        self.ready, self.heard, self.refused = [], [], []
        self.client.on("message", self.heard.append, namespace="/wc")
        self.client.on("connect_error", self.refused.append, namespace="/wc")
        self.base, self.token, self.origin, self.auth = base, token, origin, auth

    def connect(self) -> bool:
        try:
            self.client.connect(f"{self.base}?websiteToken={self.token}", namespaces=["/wc"], transports=["polling"],
                                headers={"Origin": self.origin}, auth={"websiteToken": self.token, **self.auth},
                                wait_timeout=10)
        except socketio.exceptions.ConnectionError:
            return False
        self.ready.append(self.call("hello", {}))
        return True

    def call(self, event: str, data: dict) -> dict:
        return self.client.call(event, data, namespace="/wc", timeout=10)

    def close(self):
        """As a tab closing: the server hears the namespace and the connection end; the client does
        not wait for its pending poll to come back (the server answers it at the next ping)."""
        self.client._send_packet(self.client.packet_class(socketio.packet.DISCONNECT, namespace="/wc"))
        self.client.eio.disconnect(abort=True)


def test_widgets_are_validated_and_their_secret_shown_once(line, api):
    token = line.owner["token"]
    made = api.post(widgets(line), {"name": "Tienda", "allowedOrigins": ["https://Shop.example:443/", "http://localhost:8000"],
                                    "preChatFields": [{"field": "email", "required": True}], "greeting": "¡Hola!"},
                    token=token)
    assert made.status_code == 201, made.json
    widget = made.json["data"]
    assert widget["allowedOrigins"] == [SHOP, "http://localhost:8000"]
    assert widget["phoneNumberId"] == line.number["id"] and len(widget["identitySecret"]) >= 32
    assert widget["websiteToken"] in widget["snippet"] and "/static/webchat/widget.js" in widget["snippet"]
    shown = line.get(f"/webchat/widgets/{widget['id']}")
    assert "identitySecret" not in shown and shown["preChatFields"] == [{"field": "email", "required": True}]
    for wrong, field in (({"allowedOrigins": ["https://shop.example/path"]}, "allowedOrigins"),
                         ({"allowedOrigins": ["ftp://shop.example"]}, "allowedOrigins"),
                         ({"preChatFields": [{"field": "age"}]}, "preChatFields"), ({"name": ""}, "name"),
                         ({"offlineEmail": "not-mail"}, "offlineEmail")):
        refused = api.post(widgets(line), {"name": "Otra", **wrong}, token=token)
        assert refused.status_code == 400 and any(key.split(".")[0] == field for key in refused.json["errors"]), (wrong, refused.json)
    rotated = api.post(f"{widgets(line)}/{widget['id']}/identity-secret", token=token).json["data"]
    assert rotated["identitySecret"] != widget["identitySecret"]
    changed = api.patch(f"{widgets(line)}/{widget['id']}", {"enforceIdentity": True, "offlineEmail": "Ventas@Shop.example"},
                        token=token).json["data"]
    assert (changed["enforceIdentity"], changed["offlineEmail"]) == (True, "ventas@shop.example")
    # Another organization's widget is not there, for reading or changing.
    other_token = factories.person(api, email="otro@example.com")["tokens"]["accessToken"]
    other = {"token": other_token, "org": factories.organization(api, other_token, name="Otra", slug="otra")}
    for call in (api.get(f"/organizations/{other['org']['id']}/webchat/widgets/{widget['id']}", token=other["token"]),
                 api.patch(f"/organizations/{other['org']['id']}/webchat/widgets/{widget['id']}", {"name": "x"},
                           token=other["token"])):
        assert_problem(call, 404, "widget_not_found")
    # Without a number there is no inbox to join.
    assert_problem(api.post(f"/organizations/{other['org']['id']}/webchat/widgets", {"name": "Sin número"},
                            token=other["token"]), 409, "no_phone_number")
    assert api.delete(f"{widgets(line)}/{widget['id']}", token=token).status_code == 204


def test_a_visitor_chats_with_the_team_through_the_inbox(line, api, served):
    token = line.owner["token"]
    widget = api.post(widgets(line), {"name": "Tienda", "allowedOrigins": [SHOP], "greeting": "¡Hola! ¿En qué te ayudamos?",
                                      "preChatFields": [{"field": "name", "required": True},
                                                        {"field": "email", "required": False}]},
                      token=token).json["data"]
    stranger = Visitor(served, widget["websiteToken"], origin="https://evil.example")
    assert not stranger.connect()
    assert stranger.refused and stranger.refused[0]["code"] == "origin_not_allowed" if isinstance(stranger.refused[0], dict) \
        else "origin" in str(stranger.refused)

    ana = Visitor(served, widget["websiteToken"])
    assert ana.connect()
    ready = ana.ready[0]
    assert (ready["greeting"], ready["begun"], [f["field"] for f in ready["preChatFields"]]) == (
        "¡Hola! ¿En qué te ayudamos?", False, ["name", "email"])
    assert ana.call("message", {"clientId": "m0", "text": "hola"})["error"]["code"] == "not_begun"
    wrong = ana.call("begin", {"email": "not-an-address"})
    assert wrong["error"]["code"] == "validation_failed" and set(wrong["error"]["errors"]) == {"name", "email"}
    begun = ana.call("begin", {"name": "Ana Web", "email": "ana@web.example"})
    assert begun["ok"] and begun["visitorToken"]
    sent = ana.call("message", {"clientId": "m1", "text": "¿Hacen envíos a Medellín?"})
    assert sent["ok"], sent
    assert ana.call("message", {"clientId": "m1", "text": "¿Hacen envíos a Medellín?"})["id"] == sent["id"]  # a resend
    for wrong in ({"clientId": {"a": 1}, "text": "x"}, {"clientId": "m2", "text": 5}, {"clientId": "m3", "text": ""},
                  {"clientId": "m4", "text": "x" * 4097}, {"clientId": "m5", "reply": "yes"}, ["not", "an", "object"]):
        refused = ana.call("message", wrong)
        assert refused["error"]["code"] == "validation_failed", (wrong, refused)

    conversations = line.get("/conversations")["items"]
    chat = next(c for c in conversations if c["channel"] == "webchat")
    assert chat["unread"] and chat["phoneNumberId"] == line.number["id"] and chat["contact"]["name"] == "Ana Web"
    thread = line.get(f"/conversations/{chat['id']}/messages")["items"]
    assert [m["id"] for m in thread if m["direction"] == "in"] == [sent["id"]]
    visitor_address = api.get(f"/organizations/{line.org_id}/contacts/{chat['contactId']}", token=token).json["data"]["userId"]
    assert visitor_address.startswith("wc:")

    # The team answers (as the inbox does: to the contact's address); the visitor's socket hears it.
    answer = api.post(f"/organizations/{line.org_id}/messages", {"phoneNumberId": line.number["id"], "to": visitor_address,
                                                                  "type": "text", "payload": {"body": "Sí, en 2 días."}},
                      token=token)
    assert answer.status_code in (200, 201, 202), answer.json
    heard = eventually(lambda: [m for m in ana.heard if m["direction"] == "out"])
    assert heard[0]["text"] == "Sí, en 2 días." and heard[0]["id"] == answer.json["data"]["id"]
    assert ana.call("mark", {"ids": [heard[0]["id"]], "status": "read"})["moved"] == 1
    statuses = {m["id"]: m["status"] for m in line.get(f"/conversations/{chat['id']}/messages")["items"]}
    assert statuses[heard[0]["id"]] == "read"
    # No templates nor media through the web chat: said in a sentence.
    refused = api.post(f"/organizations/{line.org_id}/messages", {"phoneNumberId": line.number["id"], "to": visitor_address,
                                                                   "type": "image", "payload": {"link": "https://x.example/a.png"}},
                       token=token)
    assert_problem(refused, 400, "unsupported_on_webchat")
    ana.close()

    # Coming back with the token the browser kept: the same visitor, the conversation's history.
    again = Visitor(served, widget["websiteToken"], visitorToken=begun["visitorToken"])
    assert again.connect()
    assert again.ready[0]["begun"] and [m["text"] for m in again.ready[0]["history"]] == [
        "¿Hacen envíos a Medellín?", "Sí, en 2 días."]
    again.close()


def test_identity_is_checked_when_enforced(line, api, served):
    token = line.owner["token"]
    widget = api.post(widgets(line), {"name": "Clientes", "allowedOrigins": [SHOP], "enforceIdentity": True},
                      token=token).json["data"]
    secret = widget["identitySecret"]
    anonymous = Visitor(served, widget["websiteToken"])
    assert not anonymous.connect()
    forged = Visitor(served, widget["websiteToken"], identifier="user-42",
                     identifierHash=widgets_service.identity_hash("guessed", "user-42"))
    assert not forged.connect()
    real_hash = widgets_service.identity_hash(secret, "user-42")
    first = Visitor(served, widget["websiteToken"], identifier="user-42", identifierHash=real_hash)
    assert first.connect()
    begun = first.call("begin", {"identifier": "user-42", "identifierHash": real_hash})
    assert begun["ok"] and begun.get("visitorToken") is None  # the website's sign-in brings them back, not a token
    assert first.call("message", {"clientId": "a", "text": "Soy el 42"})["ok"]
    first.close()
    # Another device of the same user: the same visitor and conversation.
    second = Visitor(served, widget["websiteToken"], identifier="user-42", identifierHash=real_hash)
    assert second.connect()
    assert second.ready[0]["begun"] and [m["text"] for m in second.ready[0]["history"]] == ["Soy el 42"]
    second.close()


def test_out_of_hours_the_bot_answers_the_visitor_and_the_team_gets_a_mail(line, api, served, mailbox, running_workers):
    token = line.owner["token"]
    # Closed all day but a minute long past: the bot's out-of-hours notice answers, and the team hears by mail.
    assert api.patch(f"/organizations/{line.org_id}", {"timezone": "America/Bogota", "country": "CO",
                     "businessHoursSchedule": {d: [{"open": "00:00", "close": "00:01"}] for d in
                                               ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}},
                     token=token).status_code == 200
    assert api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}",
                   {"enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0, "outOfHoursEnabled": True,
                    "outOfHoursMessage": "Estamos cerrados; te respondemos mañana a primera hora."},
                   token=token).status_code == 200
    widget = api.post(widgets(line), {"name": "Tienda", "allowedOrigins": [SHOP], "offlineEmail": "ventas@shop.example",
                                      "preChatFields": [{"field": "email", "required": True}]}, token=token).json["data"]
    luis = Visitor(served, widget["websiteToken"])
    assert luis.connect() and luis.ready[0]["open"] is False
    assert luis.call("begin", {"email": "luis@correo.example"})["ok"]
    assert luis.call("message", {"clientId": "1", "text": "¿Abren el domingo?"})["ok"]
    answers = eventually(lambda: [m for m in luis.heard if m["direction"] == "out"], seconds=30)
    assert answers[0]["text"] == "Estamos cerrados; te respondemos mañana a primera hora." and answers[0]["sentBy"] == "bot"
    mail = eventually(lambda: [m for m in list(mailbox.messages) if m["To"] == "ventas@shop.example"], seconds=30)
    body = mail[0].get_body().get_content()
    assert "luis@correo.example" in body and "¿Abren el domingo?" in body
    # A second message minutes later is not mailed again.
    assert luis.call("message", {"clientId": "2", "text": "¿Y el lunes?"})["ok"]
    running_workers.advance(1)
    assert len([m for m in list(mailbox.messages) if m["To"] == "ventas@shop.example"]) == 1
    luis.close()
