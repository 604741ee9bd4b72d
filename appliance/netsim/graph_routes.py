"""The Graph API double: the routes of Meta's Cloud API the appliance calls (numbers, templates,
messages and read marks, media, product catalogs, the business profile with its resumable upload, coexistence's
address book), each proven by one of the simulated accounts' tokens. network.py holds the state
and the rules; this is only their HTTP."""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, current_app, jsonify, request

from appliance.netsim.bounded import json_size
from appliance.netsim.calls import base_url, json_body, not_found, simulator, token_of_request as token
from appliance.netsim.network import MAX_PROFILE_FIELD, NetworkError

graph_api = Blueprint("graph_api", __name__)


def _account_of_token():
    network = simulator().network
    found = next((a for a in network.accounts.values() if a.access_token == token()), None)
    if found is None:
        raise NetworkError(190, "Error validating access token: the session is invalid or has expired")
    return found


@graph_api.get("/<version>/<waba_id>/phone_numbers")
def phone_numbers(version, waba_id):
    network = simulator().network
    account = network.account_for_token(token(), waba_id)
    return jsonify({"data": [network.numbers[n].as_graph() for n in account.numbers],
                    "paging": {"cursors": {"before": "QVFIU", "after": "QVFIU"}}})


@graph_api.post("/<version>/<waba_id>/subscribed_apps")
def subscribe(version, waba_id):
    simulator().network.account_for_token(token(), waba_id).subscribed = True
    return jsonify({"success": True})


@graph_api.get("/<version>/<waba_id>/message_templates")
def list_templates(version, waba_id):
    account = simulator().network.account_for_token(token(), waba_id)
    return jsonify({"data": list(account.templates.values()), "paging": {"cursors": {"before": "", "after": ""}}})


@graph_api.post("/<version>/<waba_id>/message_templates")
def create_template(version, waba_id):
    playing = simulator()
    account = playing.network.account_for_token(token(), waba_id)
    body = json_body()
    created = playing.network.create_template(account, body)
    playing.review_later(waba_id, body["name"], body.get("language"))
    return jsonify(created)


@graph_api.get("/<version>/<waba_id>/product_catalogs")
def product_catalogs(version, waba_id):
    playing = simulator()
    account = playing.network.account_for_token(token(), waba_id)
    catalog = playing.catalogs.connected(waba_id, account.name)
    return jsonify({"data": [{"id": catalog.catalog_id, "name": catalog.name}], "paging": {}})


@graph_api.post("/<version>/<catalog_id>/items_batch")
def items_batch(version, catalog_id):
    playing = simulator()
    owner = playing.catalogs.owner_of(catalog_id)
    if owner is None:
        raise NetworkError(100, f"Unsupported post request. Object with ID '{catalog_id}' does not exist")
    playing.network.account_for_token(token(), owner)
    body = json_body()
    try:
        answer = playing.catalogs.batch(playing.catalogs.by_id[catalog_id], body.get("item_type"), body.get("requests"))
    except ValueError as error:
        raise NetworkError(100, f"(#100) {error}") from None
    return jsonify(answer)


@graph_api.post("/<version>/<phone_number_id>/register")
def register(version, phone_number_id):
    network = simulator().network
    network.register(network.number_for_token(token(), phone_number_id), json_body())
    return jsonify({"success": True})


@graph_api.post("/<version>/<phone_number_id>/messages")
def send(version, phone_number_id):
    playing = simulator()
    network = playing.network
    number = network.number_for_token(token(), phone_number_id)
    body = json_body()
    if body.get("status") == "read":
        with network.lock:
            network.read_marks.append({"phone_number_id": phone_number_id, "message_id": str(body.get("message_id")),
                                       "typing": bool(body.get("typing_indicator"))})
        return jsonify({"success": True})
    if playing.faults.fail_next:
        raise NetworkError(playing.faults.fail_next.pop(0), "Simulated failure (failNext)")
    answer = network.send(number, body)
    playing.announce_statuses(network.sent[-1], ["sent", "delivered"])
    return jsonify(answer)


@graph_api.post("/<version>/<phone_number_id>/media")
def upload(version, phone_number_id):
    network = simulator().network
    number = network.number_for_token(token(), phone_number_id)
    upload = request.files.get("file")
    if upload is None or request.form.get("messaging_product") != "whatsapp":
        raise NetworkError(100, "file and messaging_product=whatsapp are required")
    mime_type = request.form.get("type") or upload.mimetype
    return jsonify({"id": network.store_media(number, upload.read(), mime_type).media_id})


@graph_api.get("/<version>/<media_id>")
def media_url(version, media_id):
    media = _media(media_id)
    return jsonify(media.as_graph(base_url()))


@graph_api.delete("/<version>/<media_id>")
def delete_media(version, media_id):
    _media(media_id)
    simulator().network.media.pop(media_id, None)
    return jsonify({"success": True})


@graph_api.get("/_pictures/<name>")
def picture(name):
    """Profile pictures are public, as on WhatsApp's CDN (no token)."""
    content, mime_type = simulator().network.pictures.get(name) or (None, None)
    if content is None:
        return not_found()
    return Response(content, mimetype=mime_type, headers={"Cache-Control": "public, max-age=86400"})


@graph_api.get("/_media/<media_id>")
def download(media_id):
    media = _media(media_id)
    return Response(media.content, mimetype=media.mime_type)


def _media(media_id: str):
    network = simulator().network
    media = network.media.get(media_id)
    if media is None:
        raise NetworkError(100, f"Object with ID '{media_id}' does not exist")
    network.number_for_token(token(), media.phone_number_id)
    return media


@graph_api.route("/<version>/<phone_number_id>/whatsapp_business_profile", methods=["GET", "POST"])
def profile(version, phone_number_id):
    network = simulator().network
    number = network.number_for_token(token(), phone_number_id)
    if request.method == "GET":
        return jsonify({"data": [{"messaging_product": "whatsapp", **number.profile}]})
    body = json_body()
    changes = {k: v for k, v in body.items() if k in number.profile and k != "profile_picture_url"}
    if any(json_size(value) > MAX_PROFILE_FIELD for value in changes.values()):
        raise NetworkError(100, f"A profile field is over {MAX_PROFILE_FIELD} characters")
    if body.get("profile_picture_handle"):
        changes["profile_picture_url"] = network.profile_picture(network.accounts[number.waba_id],
                                                                 str(body["profile_picture_handle"]),
                                                                 current_app.config.get("PUBLIC_URL") or base_url())
    number.profile.update(changes)
    return jsonify({"success": True})


@graph_api.get("/<version>/app")
def app_of_token(version):
    account = _account_of_token()
    return jsonify({"id": account.app_id, "name": "Simulated app", "link": "https://www.facebook.com/"})


@graph_api.post("/<version>/<app_id>/uploads")
def start_upload(version, app_id):
    upload_id = simulator().network.start_upload(_account_of_token(), app_id, request.args.get("file_length", ""),
                                                 request.args.get("file_type", ""))
    return jsonify({"id": upload_id})


@graph_api.post("/<version>/<upload_id>")
def upload_bytes(version, upload_id):
    if not upload_id.startswith("upload:"):
        raise NetworkError(100, f"Unsupported post request. Object with ID '{upload_id}' does not exist")
    # Meta's header is `file_offset`; WSGI servers (waitress) drop header names with underscores,
    # so a missing offset counts as the start, as the one-piece uploads of the appliance are.
    offset = request.headers.get("file_offset") or request.headers.get("file-offset") or "0"
    handle = simulator().network.upload_bytes(_account_of_token(), upload_id, offset, request.get_data())
    return jsonify({"h": handle})


@graph_api.post("/<version>/<phone_number_id>/smb_app_data")
def coexistence_sync(version, phone_number_id):
    playing = simulator()
    number = playing.network.number_for_token(token(), phone_number_id)
    body = json_body()
    if body.get("messaging_product") != "whatsapp" or body.get("sync_type") not in ("smb_app_state_sync", "history"):
        raise NetworkError(100, "messaging_product=whatsapp and sync_type smb_app_state_sync or history are required")
    if not number.on_biz_app:
        raise NetworkError(100, "This phone number was not onboarded from the WhatsApp Business app")
    if body["sync_type"] == "smb_app_state_sync":
        playing.announce_address_book(number)
    return jsonify({"messaging_product": "whatsapp", "request_id": secrets.token_hex(12)})
