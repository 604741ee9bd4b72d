"""Apple Push Notification service: the mobile app's native pushes to iPhones, with token-based
authentication. The team's signing key (APPLIANCE_APNS_KEY, the .p8 file Apple gives) signs an
ES256 JWT `{iss: team id, iat}` with the key's id in its header; it is reused for 50 minutes (APNs
refuses one older than an hour, and one renewed more often than every 20 minutes). Each device
token gets one `POST /3/device/{token}`. A 410 (Unregistered), or a 400 saying the token is bad or
not this app's, means the app was removed or the token replaced: the device is forgotten.

APNs speaks only HTTP/2: libcurl (pycurl, built with nghttp2) over TLS, one connection kept and
reused, as Apple asks (a connection per notification is treated as a denial of service). A plain
`http://` base URL, which only a local double has, is spoken to with HTTP/2 prior knowledge."""

from __future__ import annotations

import json
import threading
from io import BytesIO
from urllib.parse import quote

from typing import TYPE_CHECKING

import jwt

from appliance import libcurl
from appliance.core import clock, runtime

if TYPE_CHECKING:
    import pycurl

TIMEOUT_SECONDS = 10
TOKEN_SECONDS = 50 * 60
TTL_SECONDS = 3600  # as Web Push's: a notification an hour late is not worth showing
GONE_REASONS = ("BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered")
_STALE_TOKEN = ("ExpiredProviderToken", "InvalidProviderToken")
_lock = threading.Lock()  # one connection, one request at a time on it
_state: dict = {}  # {"handle", "token", "made", "key"}


def configured() -> bool:
    settings = runtime.get().settings
    return bool(settings.apns_key and settings.apns_key_id and settings.apns_team_id and settings.apns_topic)


def _provider_token(settings) -> str:
    made = _state.get("made", 0)
    identity = (settings.apns_key, settings.apns_key_id, settings.apns_team_id)
    now = int(clock.now().timestamp())
    if _state.get("key") == identity and now - made < TOKEN_SECONDS:
        return _state["token"]
    with open(settings.apns_key, encoding="utf-8") as file:
        private_key = file.read()
    _state.update(token=jwt.encode({"iss": settings.apns_team_id, "iat": now}, private_key, algorithm="ES256",
                                   headers={"kid": settings.apns_key_id}), made=now, key=identity)
    return _state["token"]


def _handle(base_url: str) -> pycurl.Curl:
    import pycurl  # on the first notice to an iPhone, not at start (appliance/libcurl.py says why)

    handle = _state.get("handle")
    if handle is None:
        handle = _state["handle"] = libcurl.new_handle()
        handle.setopt(pycurl.TIMEOUT_MS, TIMEOUT_SECONDS * 1000)
    handle.setopt(pycurl.HTTP_VERSION, pycurl.CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE if base_url.startswith("http://")
                  else pycurl.CURL_HTTP_VERSION_2TLS)
    return handle


def payload(notice: dict) -> dict:
    """The notification as an iPhone shows it (`aps.alert`), the rest as the app's own keys."""
    aps = {"alert": {"title": notice.get("title") or "", "body": (notice.get("body") or "")[:1000]}, "sound": "default"}
    if notice.get("conversationId"):
        aps["thread-id"] = str(notice["conversationId"])  # one conversation's notices are grouped
    return {"aps": aps, **{k: v for k, v in notice.items() if k not in ("title", "body") and v is not None}}


def send(device_token: str, notice: dict) -> tuple[str | None, bool]:
    """(error in words or None, the token is gone)."""
    import pycurl  # on first use (see _handle)

    if not pycurl.version_info()[4] & pycurl.VERSION_HTTP2:  # pycurl's wheels build libcurl with nghttp2
        return "APNs is not usable: this build's libcurl has no HTTP/2, the only protocol APNs speaks.", False
    settings = runtime.get().settings
    base_url = settings.apns_url.rstrip("/")
    headers = {"apns-topic": settings.apns_topic, "apns-push-type": "alert", "apns-priority": "10",
               "apns-expiration": str(int(clock.now().timestamp()) + TTL_SECONDS), "content-type": "application/json"}
    if notice.get("tag"):
        headers["apns-collapse-id"] = str(notice["tag"])[:64]  # a newer notice of the same tag replaces it
    body = json.dumps(payload(notice), ensure_ascii=False).encode()
    answer = BytesIO()
    with _lock:
        try:
            token = _provider_token(settings)
        except (OSError, ValueError, TypeError) as exc:  # no key file, or not an EC private key
            return f"APNs is not usable: {type(exc).__name__}: {str(exc)[:200]}", False
        handle = _handle(base_url)
        handle.setopt(pycurl.URL, libcurl.ascii_url(f"{base_url}/3/device/{quote(device_token, safe='')}"))
        handle.setopt(pycurl.POSTFIELDS, body)
        handle.setopt(pycurl.HTTPHEADER, libcurl.header_lines({**headers, "authorization": f"bearer {token}"}))
        handle.setopt(pycurl.WRITEFUNCTION, answer.write)
        try:
            handle.perform()
        except pycurl.error as exc:
            return f"APNs could not be reached: {exc.args[-1] if exc.args else exc}"[:300], False
        status = handle.getinfo(pycurl.RESPONSE_CODE)
        reason = _reason(answer.getvalue())
        if reason in _STALE_TOKEN:
            _state.pop("made", None)  # the next notice signs a new one
    if status == 200:
        return None, False
    gone = status == 410 or (status == 400 and reason in GONE_REASONS)
    return f"APNs answered {status} {reason}".strip()[:300], gone


def _reason(raw: bytes) -> str:
    try:
        answer = json.loads(raw or b"{}")
        return str(answer.get("reason") or "") if isinstance(answer, dict) else ""
    except ValueError:
        return ""
