"""Google's double over HTTP (google_double.py answers): the OAuth consent page and its decision,
the token endpoint, the Calendar API v3 calls, and its control (`/_control/google`). Its consent
sends a browser back only to the appliance's own callback, or to the origin create_netsim_app was
given (`GOOGLE_REDIRECT_ORIGIN` in the app's config)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, redirect, request

from appliance.netsim import google_double
from appliance.netsim.calls import json_body, simulator

google = Blueprint("google", __name__)


def _answer(answer):
    status, body = answer
    if body is None:
        return Response(status=status)
    return (Response(body, status, content_type="text/html") if isinstance(body, str) else (jsonify(body), status))


def _redirect_origin() -> str | None:
    return current_app.config.get("GOOGLE_REDIRECT_ORIGIN")


@google.get("/google/o/oauth2/v2/auth")
def google_consent():
    return _answer(google_double.consent_page(simulator().google, request.args.to_dict(),
                                              redirect_origin=_redirect_origin()))


@google.get("/google/o/oauth2/v2/decide")
def google_decide():
    target = google_double.decide(simulator().google, request.args.to_dict(), redirect_origin=_redirect_origin())
    if target is None:  # not the appliance's own callback: Google sends nobody to an address it was not given
        return _answer((400, "<h1>Error 400: redirect_uri_mismatch</h1>"))
    return redirect(target)


@google.post("/google/token")
def google_token():
    auth = request.authorization
    basic = (auth.username, auth.password) if auth and auth.username else None  # client_secret_basic
    return _answer(google_double.token(simulator().google, request.form.to_dict(), basic))


@google.route("/google/calendar/v3/<path:path>", methods=["GET", "POST", "PATCH", "DELETE"])
def google_calendar(path):
    return _answer(google_double.calendar(simulator().google, request.method, "/" + path,
                                          request.headers.get("Authorization", ""),
                                          request.get_json(silent=True)))


@google.put("/_control/google")
def control_google():
    return jsonify(google_double.control(simulator().google, json_body()))


@google.get("/_control/google")
def control_google_read():
    return jsonify(google_double.read(simulator().google))
