"""The control API (`/_control/...`), with which tests and demos play the other side of the Graph
API double: business accounts made, a customer writing in (or the owner from the Business app),
read receipts, template reviews, a number's quality, what businesses sent and how much the
network refused, faults, and waiting for the webhooks in flight. It plays every customer and reads
every message, so it answers only on this machine (app.py's gate) unless told otherwise."""

from __future__ import annotations

import base64
import binascii
import urllib.parse

from flask import Blueprint, jsonify, request

from appliance.netsim.calls import json_body, loopback, simulator
from appliance.netsim.network import MEDIA_TYPES, NetworkError
from appliance.netsim.stickers import webp_facts

control_api = Blueprint("control_api", __name__, url_prefix="/_control")


def _local_webhook(url) -> str | None:
    """A webhook address on this machine, or none: deliveries never leave it."""
    if not url:
        return None
    parsed = urllib.parse.urlsplit(str(url))
    if parsed.scheme not in ("http", "https") or not loopback(parsed.hostname):
        raise NetworkError(100, "The simulator delivers webhooks only to this machine (http://127.0.0.1:...)")
    return str(url)


@control_api.post("/accounts")
def control_create_account():
    network = simulator().network
    body = json_body()
    body["webhookUrl"] = _local_webhook(body.get("webhookUrl"))
    account = network.create_account(name=str(body.get("name") or "Demo business"), numbers=body.get("numbers") or [],
                                      waba_id=body.get("wabaId"), access_token=body.get("accessToken"),
                                      app_secret=body.get("appSecret"), webhook_url=body.get("webhookUrl"))
    return jsonify({"wabaId": account.waba_id, "accessToken": account.access_token,
                    "appSecret": account.app_secret, "webhookUrl": account.webhook_url,
                    "numbers": [network.numbers[n].as_graph() for n in account.numbers]}), 201


@control_api.put("/accounts/<waba_id>/webhook")
def control_webhook(waba_id):
    account = simulator().network.accounts.get(waba_id)
    if account is None:
        raise NetworkError(100, f"No business account {waba_id}")
    account.webhook_url = _local_webhook(json_body().get("url"))
    return jsonify({"wabaId": waba_id, "webhookUrl": account.webhook_url})


@control_api.post("/inbound")
def control_inbound():
    playing = simulator()
    network = playing.network
    body = json_body()
    message = {k: v for k, v in body.items() if k not in ("phoneNumberId", "from", "name", "media")}
    media = body.get("media")
    if media and message.get("type") in MEDIA_TYPES:
        number = network.numbers.get(str(body.get("phoneNumberId")))
        if number is None:
            raise NetworkError(100, "Unknown phoneNumberId")
        try:
            content = base64.b64decode(media.get("contentBase64", ""), validate=True)
        except (binascii.Error, ValueError):
            raise NetworkError(100, "media.contentBase64 is not base64") from None
        stored = network.store_media(number, content, str(media.get("mimeType")))
        message[message["type"]] = {"id": stored.media_id, "mime_type": stored.mime_type,
                                    "sha256": stored.as_graph("")["sha256"], **message.get(message["type"], {})}
        if message["type"] == "sticker":  # the network says whether a sticker moves
            facts = webp_facts(content)
            message["sticker"].setdefault("animated", bool(facts and facts.animated))
    wamid = playing.customer_writes(str(body.get("phoneNumberId")), str(body.get("from") or ""), message,
                                    name=body.get("name"))
    return jsonify({"wamid": wamid}), 201


@control_api.post("/echo")
def control_echo():
    """The business writes from the WhatsApp Business app of a coexistence number."""
    body = json_body()
    message = {k: v for k, v in body.items() if k not in ("phoneNumberId", "to")}
    wamid = simulator().business_app_writes(str(body.get("phoneNumberId")), str(body.get("to") or ""), message)
    return jsonify({"wamid": wamid}), 201


@control_api.post("/read")
def control_read():
    playing = simulator()
    wamid = json_body().get("wamid")
    sent = next((m for m in playing.network.sent if m["wamid"] == wamid), None)
    if sent is None:
        raise NetworkError(100, f"No sent message {wamid}")
    playing.announce_statuses(sent, ["read"])
    return jsonify({"wamid": wamid, "status": "read"})


@control_api.post("/templates/<waba_id>/status")
def control_template_status(waba_id):
    playing = simulator()
    body = json_body()
    try:
        template = playing.network.set_template_status(waba_id, body.get("name"), body.get("language"),
                                                       body.get("status"))
    except KeyError:
        raise NetworkError(132001, "No such template") from None
    playing.announce_template(waba_id, template)
    return jsonify(template)


@control_api.post("/numbers/<phone_number_id>/quality")
def control_quality(phone_number_id):
    """{rating: GREEN | YELLOW | RED}: the number's quality changes and the webhook goes out."""
    playing = simulator()
    rating = json_body().get("rating")
    number = playing.network.numbers.get(phone_number_id)
    if number is None or rating not in ("GREEN", "YELLOW", "RED"):
        raise NetworkError(100, "Unknown number or rating (GREEN, YELLOW, RED)")
    playing.set_quality(number, rating)
    return jsonify({"phoneNumberId": phone_number_id, "qualityRating": rating})


@control_api.get("/sent")
def control_sent():
    phone_number_id = request.args.get("phoneNumberId")
    return jsonify({"data": [m for m in simulator().network.sent
                             if not phone_number_id or m["phone_number_id"] == phone_number_id]})


@control_api.get("/stats")
def control_stats():
    """How many sends the network accepted and refused (by code), and when the last was accepted."""
    network = simulator().network
    with network.lock:
        return jsonify({"sent": network.sent.total, "refused": {str(k): v for k, v in network.refused.items()},
                        "lastSentAt": network.sent[-1]["at"] if network.sent else None})


@control_api.put("/faults")
def control_faults():
    playing = simulator()
    try:
        playing.faults.update(json_body())
    except (ValueError, TypeError) as exc:
        raise NetworkError(100, str(exc)) from None
    return jsonify(vars(playing.faults))


@control_api.post("/wait")
def control_wait():
    """Answers once every queued webhook was delivered (or given up on), waiting at most `timeout`
    seconds (0 to 120; 30)."""
    try:
        timeout = float(request.args.get("timeout", 30))
    except ValueError:
        raise NetworkError(100, "timeout is a number of seconds") from None
    if not 0 <= timeout <= 120:
        raise NetworkError(100, "timeout is 0 to 120 seconds")
    return jsonify({"idle": simulator().deliverer.wait_idle(timeout=timeout)})
