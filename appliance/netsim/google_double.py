"""The Google double: Google's OAuth 2.0 endpoints and the Calendar API v3 calls the appliance
makes, for the sandbox and the tests (served by the simulator's app under /google).

- GET /google/o/oauth2/v2/auth shows a consent page for the sandbox's Google account; "Allow"
  redirects to the client's redirect_uri with a code, "Deny" with error=access_denied. As Google
  sends a browser only to a redirect URI registered for the client, the double sends it only to the
  appliance's callback (on the appliance's own origin, when it is mounted there): never anywhere a
  link says (a redirect from the business's own address would lend it to anyone's phishing).
- POST /google/token exchanges a code (client id, secret and redirect_uri checked) or a refresh
  token; access tokens last an hour, or less when a test says so.
- /google/calendar/v3: the primary calendar, events (create, patch, delete) and freeBusy.
- /_control/google: busy spans to report, revoke every grant (the person removed the app's
  access), make the next calls fail, expire access tokens; read the events and the calls.

app.py's routes call the functions here, which take the request's parts and answer (status, body):
a dict for JSON, a str for HTML. The client's secret is made anew by each process (a secret written
in the code would let anyone mint the double's tokens), and what the double keeps is bounded."""

from __future__ import annotations

import html
import re
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

from appliance.netsim.bounded import BoundedDict, BoundedLog, json_size

CLIENT_ID = "sandbox-google-client"
CLIENT_SECRET = "sandbox-" + secrets.token_urlsafe(18)  # this process's: the sandbox's settings read it here
ACCOUNT = "agenda@sandbox.test"
# The redirect URI the appliance registers with Google (docs/api.md, Agenda): its calendar callback.
REGISTERED_PATH = re.compile(r"/organizations/[0-9a-fA-F-]{36}/agenda/calendar-provider/callback")
MAX_GRANTS, MAX_EVENTS, MAX_EVENT_BYTES, MAX_CALLS, MAX_FAULTS = 1_000, 2_000, 64 << 10, 1_000, 100


@dataclass
class GoogleState:
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    account: str = ACCOUNT
    token_seconds: int = 3600
    codes: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_GRANTS))  # code -> redirect_uri
    access: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_GRANTS))  # token -> expires (monotonic)
    refresh: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_GRANTS))  # refresh token -> True
    events: dict = field(default_factory=lambda: BoundedDict(max_items=MAX_EVENTS, max_bytes=MAX_EVENTS * 4096))
    busy: list = field(default_factory=list)  # [{start, end}] as Google writes them
    fail_next: list = field(default_factory=list)  # HTTP statuses for the next Calendar calls
    calls: BoundedLog = field(default_factory=lambda: BoundedLog(max_items=MAX_CALLS, max_bytes=MAX_CALLS * 200))
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


SCOPE = "https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.readonly"


def _error(status: int, message: str, reason: str = "error") -> tuple[int, dict]:
    return status, {"error": {"code": status, "message": message, "status": reason}}


def redirect_allowed(uri: str, origin: str | None) -> bool:
    """Whether `uri` is the appliance's callback (on the origin of the address `origin`, when given)."""
    parts = urllib.parse.urlsplit(uri or "")
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment \
            or not REGISTERED_PATH.fullmatch(parts.path):
        return False
    if origin is None:
        return True
    expected = urllib.parse.urlsplit(origin)
    return (parts.scheme, parts.netloc.lower()) == (expected.scheme, expected.netloc.lower())


def consent_page(state: GoogleState, args: dict, *, redirect_origin: str | None = None) -> tuple[int, str]:
    """Google's consent page for the sandbox's account: Allow or Deny (a form to `decide`, beside it
    wherever the double is mounted)."""
    if args.get("client_id") != state.client_id or args.get("response_type") != "code" or not args.get("redirect_uri"):
        return 400, "<h1>Error 400: invalid_request</h1><p>Unknown client or missing redirect_uri.</p>"
    if not redirect_allowed(args["redirect_uri"], redirect_origin):
        return 400, "<h1>Error 400: redirect_uri_mismatch</h1><p>The redirect URI is not registered for this client.</p>"
    fields = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in args.items())
    return 200, ("<!doctype html><meta name=viewport content='width=device-width'><title>Sign in - Google Accounts</title>"
                 f"<main style='font-family:sans-serif;max-width:28rem;margin:3rem auto'><h1>Google (sandbox)</h1>"
                 f"<p><strong>{html.escape(state.account)}</strong>: allow the appliance to see your calendar's busy "
                 f"times and to add, change and delete its appointments there?</p>"
                 f"<form method=get action='decide'>{fields}<button name=decision value=allow>Allow</button> "
                 f"<button name=decision value=deny>Deny</button></form></main>")


def decide(state: GoogleState, args: dict, *, redirect_origin: str | None = None) -> str | None:
    """Where the browser goes back: the client's redirect_uri with a code, or error=access_denied;
    None for an address that is not the appliance's callback (nobody is sent there)."""
    target = args.get("redirect_uri", "")
    if args.get("client_id") != state.client_id or not redirect_allowed(target, redirect_origin):
        return None
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
            issued_for = state.codes.pop(form.get("code", ""), None)
            if issued_for is None or issued_for != form.get("redirect_uri"):  # an unknown code mints nothing
                return 400, {"error": "invalid_grant", "error_description": "Malformed auth code."}
            refresh = secrets.token_urlsafe(32)
            state.refresh[refresh] = True
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
    if json_size(body) > MAX_EVENT_BYTES:
        return _error(400, "The event is too large.", "INVALID_ARGUMENT")
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
        low, high = str(body.get("timeMin", "")), str(body.get("timeMax", ""))
        with state.lock:
            spans = [span for span in state.busy if span["end"] > low and span["start"] < high]
        return 200, {"kind": "calendar#freeBusy", "timeMin": low, "timeMax": high, "calendars": {"primary": {"busy": spans}}}
    return _error(404, "Not Found", "NOT_FOUND")


def control(state: GoogleState, body: dict) -> dict:
    """Busy spans to report, revoke every grant, expire access tokens, fail the next calls. A body
    of another shape raises (TypeError, ValueError, KeyError): the app answers 400."""
    busy = [{"start": str(s["start"]), "end": str(s["end"])} for s in body.get("busy", [])]
    failures = [int(status) for status in body.get("failNext", [])]
    if len(busy) > MAX_GRANTS or len(failures) > MAX_FAULTS or not all(400 <= f <= 599 for f in failures):
        raise ValueError(f"at most {MAX_GRANTS} busy spans and {MAX_FAULTS} failures (HTTP statuses 400-599)")
    with state.lock:
        if "busy" in body:
            state.busy = busy
        if body.get("revoke"):
            state.refresh.clear()
            state.access.clear()
        if body.get("expireAccessTokens"):
            for bearer in list(state.access):
                state.access[bearer] = 0.0
        if "failNext" in body:
            state.fail_next = failures
        if body.get("clearCalls"):
            state.calls.clear()
        return {"busy": list(state.busy), "events": len(state.events)}


def read(state: GoogleState) -> dict:
    with state.lock:
        return {"events": list(state.events.values()), "calls": list(state.calls), "busy": list(state.busy)}
