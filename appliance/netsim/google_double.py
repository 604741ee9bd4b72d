"""The Google double: Google's OAuth 2.0 endpoints and the Calendar API v3 calls the appliance
makes, for the sandbox and the tests (served by the simulator's app under /google).

- GET /google/o/oauth2/v2/auth shows a consent page for the sandbox's Google account; "Allow"
  redirects to the client's redirect_uri with a code, "Deny" with error=access_denied.
- POST /google/token exchanges a code (client id, secret and redirect_uri checked) or a refresh
  token; access tokens last an hour, or less when a test says so.
- /google/calendar/v3: the primary calendar, events (create, patch, delete) and freeBusy.
- /_control/google: busy spans to report, revoke every grant (the person removed the app's
  access), make the next calls fail, expire access tokens; read the events and the calls."""

from __future__ import annotations

import html
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

from flask import Flask, Response, jsonify, redirect, request

CLIENT_ID = "sandbox-google-client"
CLIENT_SECRET = "sandbox-google-secret"
ACCOUNT = "agenda@sandbox.test"


@dataclass
class GoogleState:
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    account: str = ACCOUNT
    token_seconds: int = 3600
    codes: dict = field(default_factory=dict)  # code -> redirect_uri
    access: dict = field(default_factory=dict)  # access token -> expires (monotonic)
    refresh: set = field(default_factory=set)
    events: dict = field(default_factory=dict)  # id -> event
    busy: list = field(default_factory=list)  # [{start, end}] as Google writes them
    fail_next: list = field(default_factory=list)  # HTTP statuses for the next Calendar calls
    calls: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def _error(status: int, message: str, reason: str = "error"):
    return jsonify({"error": {"code": status, "message": message, "status": reason}}), status


def register(app: Flask, state: GoogleState) -> None:
    @app.get("/google/o/oauth2/v2/auth")
    def google_consent():
        args = request.args
        if args.get("client_id") != state.client_id or args.get("response_type") != "code" or not args.get("redirect_uri"):
            return Response("<h1>Error 400: invalid_request</h1><p>Unknown client or missing redirect_uri.</p>", 400)
        allow = "/".join(request.path.split("/")[:-1]) + "/decide"  # relative to wherever the double is mounted
        fields = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in args.items())
        return Response(
            "<!doctype html><meta name=viewport content='width=device-width'><title>Sign in - Google Accounts</title>"
            f"<main style='font-family:sans-serif;max-width:28rem;margin:3rem auto'><h1>Google (sandbox)</h1>"
            f"<p><strong>{html.escape(state.account)}</strong>: allow the appliance to see your calendar's busy times "
            f"and to add, change and delete its appointments there?</p>"
            f"<form method=get action='{allow}'>{fields}<button name=decision value=allow>Allow</button> "
            f"<button name=decision value=deny>Deny</button></form></main>", 200, content_type="text/html")

    @app.get("/google/o/oauth2/v2/decide")
    def google_decide():
        args = request.args
        target = args.get("redirect_uri", "")
        params = {"state": args.get("state", "")}
        if args.get("decision") == "allow":
            code = secrets.token_urlsafe(24)
            with state.lock:
                state.codes[code] = target
            params["code"] = code
        else:
            params["error"] = "access_denied"
        return redirect(f"{target}{'&' if '?' in target else '?'}{urllib.parse.urlencode(params)}")

    @app.post("/google/token")
    def google_token():
        form = request.form
        client_id, client_secret = form.get("client_id"), form.get("client_secret")
        if request.authorization and request.authorization.username:  # client_secret_basic
            client_id, client_secret = request.authorization.username, request.authorization.password
        if client_id != state.client_id or client_secret != state.client_secret:
            return jsonify({"error": "invalid_client", "error_description": "The OAuth client was not found."}), 401
        with state.lock:
            if form.get("grant_type") == "authorization_code":
                if state.codes.pop(form.get("code", ""), None) != form.get("redirect_uri"):
                    return jsonify({"error": "invalid_grant", "error_description": "Malformed auth code."}), 400
                refresh = secrets.token_urlsafe(32)
                state.refresh.add(refresh)
            elif form.get("grant_type") == "refresh_token":
                refresh = None
                if form.get("refresh_token") not in state.refresh:
                    return jsonify({"error": "invalid_grant", "error_description": "Token has been expired or revoked."}), 400
            else:
                return jsonify({"error": "unsupported_grant_type"}), 400
            access = "ya29." + secrets.token_urlsafe(32)
            state.access[access] = time.monotonic() + state.token_seconds
        answer = {"access_token": access, "expires_in": state.token_seconds, "token_type": "Bearer",
                  "scope": " ".join(("https://www.googleapis.com/auth/calendar.events",
                                     "https://www.googleapis.com/auth/calendar.readonly"))}
        if refresh:
            answer["refresh_token"] = refresh
        return jsonify(answer)

    def calendar_call():
        """Checks the bearer token and the injected faults; None when the call may go on."""
        token = (request.headers.get("Authorization") or "").removeprefix("Bearer ")
        with state.lock:
            state.calls.append({"method": request.method, "path": request.path})
            if state.fail_next:
                status = state.fail_next.pop(0)
                return _error(status, "Injected failure", "UNAVAILABLE" if status >= 500 else "FAILED_PRECONDITION")
            expires = state.access.get(token)
        if expires is None or expires < time.monotonic():
            return _error(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED")
        return None

    @app.get("/google/calendar/v3/calendars/primary")
    def google_primary():
        return calendar_call() or jsonify({"kind": "calendar#calendar", "id": state.account, "summary": state.account,
                                           "timeZone": "UTC"})

    @app.post("/google/calendar/v3/calendars/primary/events")
    def google_create_event():
        refused = calendar_call()
        if refused:
            return refused
        body = request.get_json(silent=True) or {}
        if not isinstance(body.get("start"), dict) or not isinstance(body.get("end"), dict):
            return _error(400, "Missing start or end.", "INVALID_ARGUMENT")
        event = {**body, "id": secrets.token_hex(13), "status": "confirmed", "kind": "calendar#event"}
        with state.lock:
            state.events[event["id"]] = event
        return jsonify(event)

    @app.route("/google/calendar/v3/calendars/primary/events/<event_id>", methods=["PATCH", "DELETE"])
    def google_event(event_id):
        refused = calendar_call()
        if refused:
            return refused
        with state.lock:
            event = state.events.get(event_id)
            if event is None:
                return _error(404, "Not Found", "NOT_FOUND")
            if request.method == "DELETE":
                del state.events[event_id]
                return Response(status=204)
            event.update(request.get_json(silent=True) or {})
            return jsonify(event)

    @app.post("/google/calendar/v3/freeBusy")
    def google_free_busy():
        refused = calendar_call()
        if refused:
            return refused
        body = request.get_json(silent=True) or {}
        low, high = body.get("timeMin", ""), body.get("timeMax", "")
        with state.lock:
            spans = [span for span in state.busy if span["end"] > low and span["start"] < high]
        return jsonify({"kind": "calendar#freeBusy", "timeMin": low, "timeMax": high,
                        "calendars": {"primary": {"busy": spans}}})

    @app.put("/_control/google")
    def control_google():
        body = request.get_json(silent=True) or {}
        with state.lock:
            if "busy" in body:
                state.busy = [{"start": s["start"], "end": s["end"]} for s in body["busy"]]
            if body.get("revoke"):
                state.refresh.clear()
                state.access.clear()
            if body.get("expireAccessTokens"):
                state.access = {token: 0.0 for token in state.access}
            if "failNext" in body:
                state.fail_next = [int(status) for status in body["failNext"]]
            if body.get("clearCalls"):
                state.calls.clear()
        return jsonify({"busy": state.busy, "events": len(state.events)})

    @app.get("/_control/google")
    def control_google_read():
        with state.lock:
            return jsonify({"events": list(state.events.values()), "calls": list(state.calls), "busy": state.busy})
