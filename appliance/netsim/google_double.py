"""The Google double: Google's OAuth 2.0 endpoints and the Calendar API v3 calls the appliance
makes, for the sandbox and the tests (served by the simulator's app under /google).

- GET /google/o/oauth2/v2/auth shows a consent page for the sandbox's Google account; "Allow"
  redirects to the client's redirect_uri with a code, "Deny" with error=access_denied.
- POST /google/token exchanges a code (client id, secret and redirect_uri checked) or a refresh
  token; access tokens last an hour, or less when a test says so.
- /google/calendar/v3: the primary calendar, events (create, patch, delete) and freeBusy.
- /_control/google: busy spans to report, revoke every grant (the person removed the app's
  access), make the next calls fail, expire access tokens; read the events and the calls.

app.py's routes call the functions here, which take the request's parts and answer (status, body):
a dict for JSON, a str for HTML."""

from __future__ import annotations

import html
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

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


SCOPE = "https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.readonly"


def _error(status: int, message: str, reason: str = "error") -> tuple[int, dict]:
    return status, {"error": {"code": status, "message": message, "status": reason}}


def consent_page(state: GoogleState, args: dict) -> tuple[int, str]:
    """Google's consent page for the sandbox's account: Allow or Deny (a form to `decide`, beside it
    wherever the double is mounted)."""
    if args.get("client_id") != state.client_id or args.get("response_type") != "code" or not args.get("redirect_uri"):
        return 400, "<h1>Error 400: invalid_request</h1><p>Unknown client or missing redirect_uri.</p>"
    fields = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in args.items())
    return 200, ("<!doctype html><meta name=viewport content='width=device-width'><title>Sign in - Google Accounts</title>"
                 f"<main style='font-family:sans-serif;max-width:28rem;margin:3rem auto'><h1>Google (sandbox)</h1>"
                 f"<p><strong>{html.escape(state.account)}</strong>: allow the appliance to see your calendar's busy "
                 f"times and to add, change and delete its appointments there?</p>"
                 f"<form method=get action='decide'>{fields}<button name=decision value=allow>Allow</button> "
                 f"<button name=decision value=deny>Deny</button></form></main>")


def decide(state: GoogleState, args: dict) -> str:
    """Where the browser goes back: the client's redirect_uri with a code, or error=access_denied."""
    target = args.get("redirect_uri", "")
    params = {"state": args.get("state", "")}
    if args.get("decision") == "allow":
        code = secrets.token_urlsafe(24)
        with state.lock:
            state.codes[code] = target
        params["code"] = code
    else:
        params["error"] = "access_denied"
    return f"{target}{'&' if '?' in target else '?'}{urllib.parse.urlencode(params)}"


def token(state: GoogleState, form: dict, basic: tuple[str, str] | None) -> tuple[int, dict]:
    """The token endpoint: a code (with its redirect_uri) or a refresh token, for our client only."""
    client_id, client_secret = basic or (form.get("client_id"), form.get("client_secret"))
    if client_id != state.client_id or client_secret != state.client_secret:
        return 401, {"error": "invalid_client", "error_description": "The OAuth client was not found."}
    with state.lock:
        refresh = None
        if form.get("grant_type") == "authorization_code":
            if state.codes.pop(form.get("code", ""), None) != form.get("redirect_uri"):
                return 400, {"error": "invalid_grant", "error_description": "Malformed auth code."}
            refresh = secrets.token_urlsafe(32)
            state.refresh.add(refresh)
        elif form.get("grant_type") == "refresh_token":
            if form.get("refresh_token") not in state.refresh:
                return 400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."}
        else:
            return 400, {"error": "unsupported_grant_type"}
        access = "ya29." + secrets.token_urlsafe(32)
        state.access[access] = time.monotonic() + state.token_seconds
    answer = {"access_token": access, "expires_in": state.token_seconds, "token_type": "Bearer", "scope": SCOPE}
    if refresh:
        answer["refresh_token"] = refresh
    return 200, answer


def calendar(state: GoogleState, method: str, path: str, authorization: str, body) -> tuple[int, dict | None]:
    """The Calendar API v3 calls the appliance makes, `path` after /calendar/v3."""
    bearer = (authorization or "").removeprefix("Bearer ")
    with state.lock:
        state.calls.append({"method": method, "path": "/google/calendar/v3" + path})
        if state.fail_next:
            status = state.fail_next.pop(0)
            return _error(status, "Injected failure", "UNAVAILABLE" if status >= 500 else "FAILED_PRECONDITION")
        expires = state.access.get(bearer)
    if expires is None or expires < time.monotonic():
        return _error(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED")
    body = body if isinstance(body, dict) else {}
    if path == "/calendars/primary" and method == "GET":
        return 200, {"kind": "calendar#calendar", "id": state.account, "summary": state.account, "timeZone": "UTC"}
    if path == "/calendars/primary/events" and method == "POST":
        if not isinstance(body.get("start"), dict) or not isinstance(body.get("end"), dict):
            return _error(400, "Missing start or end.", "INVALID_ARGUMENT")
        event = {**body, "id": secrets.token_hex(13), "status": "confirmed", "kind": "calendar#event"}
        with state.lock:
            state.events[event["id"]] = event
        return 200, event
    if path.startswith("/calendars/primary/events/") and method in ("PATCH", "DELETE"):
        event_id = urllib.parse.unquote(path.rsplit("/", 1)[1])
        with state.lock:
            event = state.events.get(event_id)
            if event is None:
                return _error(404, "Not Found", "NOT_FOUND")
            if method == "DELETE":
                del state.events[event_id]
                return 204, None
            event.update(body)
            return 200, dict(event)
    if path == "/freeBusy" and method == "POST":
        low, high = body.get("timeMin", ""), body.get("timeMax", "")
        with state.lock:
            spans = [span for span in state.busy if span["end"] > low and span["start"] < high]
        return 200, {"kind": "calendar#freeBusy", "timeMin": low, "timeMax": high, "calendars": {"primary": {"busy": spans}}}
    return _error(404, "Not Found", "NOT_FOUND")


def control(state: GoogleState, body: dict) -> dict:
    """Busy spans to report, revoke every grant, expire access tokens, fail the next calls."""
    with state.lock:
        if "busy" in body:
            state.busy = [{"start": s["start"], "end": s["end"]} for s in body["busy"]]
        if body.get("revoke"):
            state.refresh.clear()
            state.access.clear()
        if body.get("expireAccessTokens"):
            state.access = {bearer: 0.0 for bearer in state.access}
        if "failNext" in body:
            state.fail_next = [int(status) for status in body["failNext"]]
        if body.get("clearCalls"):
            state.calls.clear()
        return {"busy": list(state.busy), "events": len(state.events)}


def read(state: GoogleState) -> dict:
    with state.lock:
        return {"events": list(state.events.values()), "calls": list(state.calls), "busy": list(state.busy)}
