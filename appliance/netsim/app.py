"""The simulator over HTTP: the Graph API routes the appliance calls, and a small control API
(`/_control/...`) with which tests and demos play the other side: create business accounts, make a
customer write in, read what businesses sent, approve templates, inject faults.

A WSGI app of its own: served alone by `appliance netsim --port N`, or mounted in the appliance's
process for the sandbox (`mount_path`). In sandbox mode (and alone) it is the whole network: the Graph
API, the control API and the doubles of the other outside services (AI providers, Google). Mounted on
a server outside sandbox mode it is only the Graph API of the organizations that try the sandbox:
every other address answers 404, and so does any call without one of its accounts' tokens.

Whatever it is sent, it answers as the service it plays would: a body over the size a route takes is
413, a body it cannot read is 400 in that service's shape (never a 500), and what it keeps is
bounded (bounded.py).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import random
import secrets
import time
import urllib.parse

from flask import Flask, Response, jsonify, redirect, request

from appliance.netsim import ai_double, google_double
from appliance.netsim.bounded import json_size
from appliance.netsim.network import MAX_PROFILE_FIELD, MEDIA_TYPES, NetworkError
from appliance.netsim.simulator import Simulator


def _loopback(host: str | None) -> bool:
    host = (host or "").strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# The largest body each kind of route takes (more is 413): media as Meta takes it, the chat models'
# prompts, and the small JSON of everything else.
UPLOAD_BYTES = 100 << 20
AI_BYTES = 4 << 20
CONTROL_INBOUND_BYTES = 24 << 20  # a customer's media, as base64
JSON_BYTES = 1 << 20
# A page another site frames could be dressed as Google's sign-in: no page of the simulator is framed.
PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
# What Python raises on a body of the wrong shape (a list for an object, a number for a text).
UNREADABLE = (TypeError, ValueError, KeyError, AttributeError, IndexError)


def _body_limit(path: str) -> int:
    if path.endswith("/media") or "/upload:" in path:
        return UPLOAD_BYTES
    if path.startswith("/ai/"):
        return AI_BYTES
    if path == "/_control/inbound":
        return CONTROL_INBOUND_BYTES
    return JSON_BYTES


def _not_found() -> tuple:
    return jsonify({"error": {"message": "Not found", "code": 404}}), 404


def _token_of_request() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme not in ("Bearer", "OAuth") or not value.strip():  # uploads say "OAuth <token>"
        raise NetworkError(190, "An access token is required to request this resource")
    return value.strip()


def create_netsim_app(simulator: Simulator | None = None, *, sandbox: bool = True,
                      control_from_anywhere: bool = False, google_redirect_origin: str | None = None) -> Flask:
    """`sandbox=False`: only the Graph API, each call proven by one of its accounts' tokens; the
    control API, the doubles and every other address answer 404 (the appliance serving its sandbox
    accounts beside the real network: their customers are played through the console's signed-in
    routes instead). Profile pictures stay public, as WhatsApp's CDN serves them, at addresses made
    of the picture's hash.

    The control API has no accounts of its own (it plays every customer and reads every message
    sent), so it answers only on this machine unless `control_from_anywhere`; and webhooks it
    delivers (signed with the account's secret) may only go to this machine.

    `google_redirect_origin`: where the Google double's consent may send a browser back (the
    appliance's own origin, when mounted in it); without it, only to the appliance's callback path."""
    simulator = simulator or Simulator()
    network = simulator.network
    app = Flask("appliance.netsim")
    app.config["SIMULATOR"] = simulator

    @app.errorhandler(NetworkError)
    def network_error(error: NetworkError):
        return jsonify(error.envelope()), error.http_status

    @app.errorhandler(404)
    def unknown_path(_error):
        if not sandbox:
            return _not_found()
        return jsonify(NetworkError(100, f"Unknown path components: {request.path}").envelope()), 400

    @app.errorhandler(413)
    def too_large(_error):
        return jsonify(NetworkError(100, f"The request body is over {_body_limit(request.path)} bytes").envelope()), 413

    def unreadable(error: Exception):
        """A body of a shape no route expected: refused as the service played would, never a 500."""
        detail = f"The request could not be read ({type(error).__name__})"
        if request.path.startswith("/ai/"):
            return jsonify({"error": {"message": detail, "type": "invalid_request_error"}}), 400
        if request.path.startswith("/google/"):
            return jsonify({"error": {"code": 400, "message": detail, "status": "INVALID_ARGUMENT"}}), 400
        return jsonify(NetworkError(100, detail).envelope()), 400

    for kind in UNREADABLE:
        app.register_error_handler(kind, unreadable)

    @app.before_request
    def gate():
        request.max_content_length = _body_limit(request.path)
        if (request.content_length or 0) > request.max_content_length:
            return too_large(None)
        if not sandbox and not request.path.startswith("/_pictures/") and not _a_known_token():
            return _not_found()
        if request.path.startswith("/_control"):
            if not control_from_anywhere and not _loopback(request.remote_addr):
                return jsonify(NetworkError(10, "The simulator's control API answers only on its own machine "
                                                "(APPLIANCE_SANDBOX_CONTROL_FROM_ANYWHERE)").envelope()), 403
            return None
        if request.path.startswith(("/ai/", "/google/")):
            return None  # the AI and Google doubles have faults of their own (/_control/ai, /_control/google)
        if simulator.faults.slow_seconds:
            time.sleep(simulator.faults.slow_seconds)
        if random.random() < simulator.faults.error_rate:
            return jsonify(NetworkError(131000, "An unknown error occurred (simulated 500)").envelope()), 500
        return None

    @app.after_request
    def not_framed(response):
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        if response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    def _a_known_token() -> bool:
        """Outside sandbox mode, a caller without one of the sandbox accounts' tokens finds nothing."""
        try:
            presented = _token_of_request().encode()
        except NetworkError:
            return False
        with network.lock:
            tokens = [account.access_token.encode() for account in network.accounts.values()]
        return any(secrets.compare_digest(presented, known) for known in tokens)

    token = _token_of_request

    def account_of_token():
        found = next((a for a in network.accounts.values() if a.access_token == token()), None)
        if found is None:
            raise NetworkError(190, "Error validating access token: the session is invalid or has expired")
        return found

    def base_url() -> str:
        """Where this simulator answers, as the caller reached it."""
        return request.host_url.rstrip("/") + (app.config.get("MOUNT_PATH") or "")

    def json_body() -> dict:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise NetworkError(100, "The request body must be a JSON object")
        return body

    # Graph API -------------------------------------------------------------------------------

    @app.get("/<version>/<waba_id>/phone_numbers")
    def phone_numbers(version, waba_id):
        account = network.account_for_token(token(), waba_id)
        return jsonify({"data": [network.numbers[n].as_graph() for n in account.numbers],
                        "paging": {"cursors": {"before": "QVFIU", "after": "QVFIU"}}})

    @app.post("/<version>/<waba_id>/subscribed_apps")
    def subscribe(version, waba_id):
        network.account_for_token(token(), waba_id).subscribed = True
        return jsonify({"success": True})

    @app.get("/<version>/<waba_id>/message_templates")
    def list_templates(version, waba_id):
        account = network.account_for_token(token(), waba_id)
        return jsonify({"data": list(account.templates.values()), "paging": {"cursors": {"before": "", "after": ""}}})

    @app.post("/<version>/<waba_id>/message_templates")
    def create_template(version, waba_id):
        account = network.account_for_token(token(), waba_id)
        body = json_body()
        created = network.create_template(account, body)
        simulator.review_later(waba_id, body["name"], body.get("language"))
        return jsonify(created)

    @app.post("/<version>/<phone_number_id>/register")
    def register(version, phone_number_id):
        network.register(network.number_for_token(token(), phone_number_id), json_body())
        return jsonify({"success": True})

    @app.post("/<version>/<phone_number_id>/messages")
    def send(version, phone_number_id):
        number = network.number_for_token(token(), phone_number_id)
        body = json_body()
        if body.get("status") == "read":
            with network.lock:
                network.read_marks.append({"phone_number_id": phone_number_id, "message_id": str(body.get("message_id")),
                                           "typing": bool(body.get("typing_indicator"))})
            return jsonify({"success": True})
        if simulator.faults.fail_next:
            raise NetworkError(simulator.faults.fail_next.pop(0), "Simulated failure (failNext)")
        answer = network.send(number, body)
        simulator.announce_statuses(network.sent[-1], ["sent", "delivered"])
        return jsonify(answer)

    @app.post("/<version>/<phone_number_id>/media")
    def upload(version, phone_number_id):
        number = network.number_for_token(token(), phone_number_id)
        upload = request.files.get("file")
        if upload is None or request.form.get("messaging_product") != "whatsapp":
            raise NetworkError(100, "file and messaging_product=whatsapp are required")
        mime_type = request.form.get("type") or upload.mimetype
        return jsonify({"id": network.store_media(number, upload.read(), mime_type).media_id})

    @app.get("/<version>/<media_id>")
    def media_url(version, media_id):
        media = _media(media_id)
        return jsonify(media.as_graph(base_url()))

    @app.delete("/<version>/<media_id>")
    def delete_media(version, media_id):
        _media(media_id)
        network.media.pop(media_id, None)
        return jsonify({"success": True})

    @app.get("/_pictures/<name>")
    def picture(name):
        """Profile pictures are public, as on WhatsApp's CDN (no token)."""
        content, mime_type = network.pictures.get(name) or (None, None)
        if content is None:
            return _not_found()
        return Response(content, mimetype=mime_type, headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/_media/<media_id>")
    def download(media_id):
        media = _media(media_id)
        return Response(media.content, mimetype=media.mime_type)

    def _media(media_id: str):
        media = network.media.get(media_id)
        if media is None:
            raise NetworkError(100, f"Object with ID '{media_id}' does not exist")
        network.number_for_token(token(), media.phone_number_id)
        return media

    @app.route("/<version>/<phone_number_id>/whatsapp_business_profile", methods=["GET", "POST"])
    def profile(version, phone_number_id):
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
                                                                     app.config.get("PUBLIC_URL") or base_url())
        number.profile.update(changes)
        return jsonify({"success": True})

    @app.get("/<version>/app")
    def app_of_token(version):
        account = account_of_token()
        return jsonify({"id": account.app_id, "name": "Simulated app", "link": "https://www.facebook.com/"})

    @app.post("/<version>/<app_id>/uploads")
    def start_upload(version, app_id):
        upload_id = network.start_upload(account_of_token(), app_id, request.args.get("file_length", ""),
                                         request.args.get("file_type", ""))
        return jsonify({"id": upload_id})

    @app.post("/<version>/<upload_id>")
    def upload_bytes(version, upload_id):
        if not upload_id.startswith("upload:"):
            raise NetworkError(100, f"Unsupported post request. Object with ID '{upload_id}' does not exist")
        # Meta's header is `file_offset`; WSGI servers (waitress) drop header names with underscores,
        # so a missing offset counts as the start, as the one-piece uploads of the appliance are.
        offset = request.headers.get("file_offset") or request.headers.get("file-offset") or "0"
        handle = network.upload_bytes(account_of_token(), upload_id, offset, request.get_data())
        return jsonify({"h": handle})

    @app.post("/<version>/<phone_number_id>/smb_app_data")
    def coexistence_sync(version, phone_number_id):
        number = network.number_for_token(token(), phone_number_id)
        body = json_body()
        if body.get("messaging_product") != "whatsapp" or body.get("sync_type") not in ("smb_app_state_sync", "history"):
            raise NetworkError(100, "messaging_product=whatsapp and sync_type smb_app_state_sync or history are required")
        if not number.on_biz_app:
            raise NetworkError(100, "This phone number was not onboarded from the WhatsApp Business app")
        if body["sync_type"] == "smb_app_state_sync":
            simulator.announce_address_book(number)
        return jsonify({"messaging_product": "whatsapp", "request_id": secrets.token_hex(12)})

    if not sandbox:
        return app  # the Graph API alone: neither the control API nor the doubles are mounted

    # Control API -------------------------------------------------------------------------------

    def local_webhook(url) -> str | None:
        """A webhook address on this machine, or none: deliveries never leave it."""
        if not url:
            return None
        parsed = urllib.parse.urlsplit(str(url))
        if parsed.scheme not in ("http", "https") or not _loopback(parsed.hostname):
            raise NetworkError(100, "The simulator delivers webhooks only to this machine (http://127.0.0.1:...)")
        return str(url)

    @app.post("/_control/accounts")
    def control_create_account():
        body = json_body()
        body["webhookUrl"] = local_webhook(body.get("webhookUrl"))
        account = network.create_account(name=str(body.get("name") or "Demo business"), numbers=body.get("numbers") or [],
                                          waba_id=body.get("wabaId"), access_token=body.get("accessToken"),
                                          app_secret=body.get("appSecret"), webhook_url=body.get("webhookUrl"))
        return jsonify({"wabaId": account.waba_id, "accessToken": account.access_token,
                        "appSecret": account.app_secret, "webhookUrl": account.webhook_url,
                        "numbers": [network.numbers[n].as_graph() for n in account.numbers]}), 201

    @app.put("/_control/accounts/<waba_id>/webhook")
    def control_webhook(waba_id):
        account = network.accounts.get(waba_id)
        if account is None:
            raise NetworkError(100, f"No business account {waba_id}")
        account.webhook_url = local_webhook(json_body().get("url"))
        return jsonify({"wabaId": waba_id, "webhookUrl": account.webhook_url})

    @app.post("/_control/inbound")
    def control_inbound():
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
        wamid = simulator.customer_writes(str(body.get("phoneNumberId")), str(body.get("from") or ""), message,
                                          name=body.get("name"))
        return jsonify({"wamid": wamid}), 201

    @app.post("/_control/echo")
    def control_echo():
        """The business writes from the WhatsApp Business app of a coexistence number."""
        body = json_body()
        message = {k: v for k, v in body.items() if k not in ("phoneNumberId", "to")}
        wamid = simulator.business_app_writes(str(body.get("phoneNumberId")), str(body.get("to") or ""), message)
        return jsonify({"wamid": wamid}), 201

    @app.post("/_control/read")
    def control_read():
        wamid = json_body().get("wamid")
        sent = next((m for m in network.sent if m["wamid"] == wamid), None)
        if sent is None:
            raise NetworkError(100, f"No sent message {wamid}")
        simulator.announce_statuses(sent, ["read"])
        return jsonify({"wamid": wamid, "status": "read"})

    @app.post("/_control/templates/<waba_id>/status")
    def control_template_status(waba_id):
        body = json_body()
        try:
            template = network.set_template_status(waba_id, body.get("name"), body.get("language"), body.get("status"))
        except KeyError:
            raise NetworkError(132001, "No such template") from None
        simulator.announce_template(waba_id, template)
        return jsonify(template)

    @app.post("/_control/numbers/<phone_number_id>/quality")
    def control_quality(phone_number_id):
        """{rating: GREEN | YELLOW | RED}: the number's quality changes and the webhook goes out."""
        rating = json_body().get("rating")
        number = network.numbers.get(phone_number_id)
        if number is None or rating not in ("GREEN", "YELLOW", "RED"):
            raise NetworkError(100, "Unknown number or rating (GREEN, YELLOW, RED)")
        simulator.set_quality(number, rating)
        return jsonify({"phoneNumberId": phone_number_id, "qualityRating": rating})

    @app.get("/_control/sent")
    def control_sent():
        phone_number_id = request.args.get("phoneNumberId")
        return jsonify({"data": [m for m in network.sent if not phone_number_id or m["phone_number_id"] == phone_number_id]})

    @app.get("/_control/stats")
    def control_stats():
        """How many sends the network accepted and refused (by code), and when the last was accepted."""
        with network.lock:
            return jsonify({"sent": network.sent.total, "refused": {str(k): v for k, v in network.refused.items()},
                            "lastSentAt": network.sent[-1]["at"] if network.sent else None})

    @app.put("/_control/faults")
    def control_faults():
        try:
            simulator.faults.update(json_body())
        except (ValueError, TypeError) as exc:
            raise NetworkError(100, str(exc)) from None
        return jsonify(vars(simulator.faults))

    @app.post("/_control/wait")
    def control_wait():
        """Answers once every queued webhook was delivered (or given up on), waiting at most `timeout`
        seconds (0 to 120; 30)."""
        try:
            timeout = float(request.args.get("timeout", 30))
        except ValueError:
            raise NetworkError(100, "timeout is a number of seconds") from None
        if not 0 <= timeout <= 120:
            raise NetworkError(100, "timeout is 0 to 120 seconds")
        return jsonify({"idle": simulator.deliverer.wait_idle(timeout=timeout)})

    # The AI double (ai_double.py): three chat shapes, and its own faults and call log ----------------

    def ai_answer(answer):
        status, body = answer
        return (body, status) if isinstance(body, str) else (jsonify(body), status)

    def ai_call(shape_answer, key_header: str | None):
        body = request.get_json(silent=True)
        headers = dict(request.headers)
        refused = (ai_double.key_refused(headers, key_header) if key_header else None) or \
            ai_double.record_and_fault(simulator.ai, request.path, body, headers)
        return ai_answer(refused or shape_answer(body if isinstance(body, dict) else {}))

    @app.post("/ai/openai/v1/chat/completions")
    def ai_openai_chat():
        return ai_call(ai_double.openai_answer, None)  # LOCAL servers often take no key

    @app.post("/ai/anthropic/v1/messages")
    def ai_anthropic_messages():
        return ai_call(ai_double.anthropic_answer, "x-api-key")

    @app.post("/ai/gemini/v1beta/models/<path:model>:generateContent")
    def ai_gemini_generate(model):
        return ai_call(ai_double.gemini_answer, "x-goog-api-key")

    @app.get("/ai/<any(openai, anthropic):shape>/v1/models")
    @app.get("/ai/<any(gemini):shape>/v1beta/models")
    def ai_models(shape):
        key_header = {"anthropic": "x-api-key", "gemini": "x-goog-api-key"}.get(shape)  # as their chat routes
        refused = ai_double.key_refused(dict(request.headers), key_header) if key_header else None
        return ai_answer(refused) if refused else jsonify(ai_double.model_list(shape))

    @app.put("/_control/ai")
    def control_ai():
        try:
            simulator.ai.update(json_body())
        except ValueError as exc:
            raise NetworkError(100, str(exc)) from None
        return jsonify({"delaySeconds": simulator.ai.delay_seconds, "failNext": simulator.ai.fail_next})

    # The Google double (google_double.py): OAuth, the Calendar API calls, its control ------------

    google = simulator.google

    def google_answer(answer):
        status, body = answer
        if body is None:
            return Response(status=status)
        return (Response(body, status, content_type="text/html") if isinstance(body, str) else (jsonify(body), status))

    @app.get("/google/o/oauth2/v2/auth")
    def google_consent():
        return google_answer(google_double.consent_page(google, request.args.to_dict(),
                                                        redirect_origin=google_redirect_origin))

    @app.get("/google/o/oauth2/v2/decide")
    def google_decide():
        target = google_double.decide(google, request.args.to_dict(), redirect_origin=google_redirect_origin)
        if target is None:  # not the appliance's own callback: Google sends nobody to an address it was not given
            return google_answer((400, "<h1>Error 400: redirect_uri_mismatch</h1>"))
        return redirect(target)

    @app.post("/google/token")
    def google_token():
        auth = request.authorization
        basic = (auth.username, auth.password) if auth and auth.username else None  # client_secret_basic
        return google_answer(google_double.token(google, request.form.to_dict(), basic))

    @app.route("/google/calendar/v3/<path:path>", methods=["GET", "POST", "PATCH", "DELETE"])
    def google_calendar(path):
        return google_answer(google_double.calendar(google, request.method, "/" + path,
                                                    request.headers.get("Authorization", ""),
                                                    request.get_json(silent=True)))

    @app.put("/_control/google")
    def control_google():
        return jsonify(google_double.control(google, json_body()))

    @app.get("/_control/google")
    def control_google_read():
        return jsonify(google_double.read(google))

    @app.get("/_control/ai/calls")
    def control_ai_calls():
        with simulator.ai.lock:
            return jsonify({"data": list(simulator.ai.calls), "count": len(simulator.ai.calls)})

    return app
