"""Firebase Cloud Messaging, HTTP v1: the mobile app's native pushes. The service account's key
(APPLIANCE_FCM_CREDENTIALS, the JSON file Firebase gives) signs a JWT that Google's token endpoint
(the key's `token_uri`) trades for an access token, kept until a minute before it expires; each
device token gets one `messages:send`. An UNREGISTERED (404) or invalid token answer means the app
was removed or the token replaced: the device is forgotten."""

from __future__ import annotations

import json
import threading

import jwt
import requests

from appliance.core import clock, runtime

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
TIMEOUT_SECONDS = 10
_lock = threading.Lock()
_token: dict = {}  # {"value", "expires", "path"}


def configured() -> bool:
    return bool(runtime.get().settings.fcm_credentials)


def _credentials() -> dict:
    with open(runtime.get().settings.fcm_credentials, encoding="utf-8") as file:
        return json.load(file)


def _access_token(credentials: dict) -> str:
    with _lock:
        path = runtime.get().settings.fcm_credentials
        now = int(clock.now().timestamp())
        if _token.get("path") == path and _token.get("expires", 0) > now + 60:
            return _token["value"]
        assertion = jwt.encode({"iss": credentials["client_email"], "scope": SCOPE, "aud": credentials["token_uri"],
                                "iat": now, "exp": now + 3600}, credentials["private_key"], algorithm="RS256")
        answer = requests.post(credentials["token_uri"], data={
            "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": assertion}, timeout=TIMEOUT_SECONDS)
        answer.raise_for_status()
        body = answer.json()
        _token.update(value=body["access_token"], expires=now + int(body.get("expires_in", 3600)), path=path)
        return _token["value"]


def send(device_token: str, notice: dict) -> tuple[str | None, bool]:
    """(error in words or None, the token is gone)."""
    try:
        credentials = _credentials()
        access = _access_token(credentials)
    except (OSError, KeyError, ValueError, requests.RequestException) as exc:
        return f"FCM is not usable: {type(exc).__name__}: {str(exc)[:200]}", False
    url = f"{runtime.get().settings.fcm_url.rstrip('/')}/v1/projects/{credentials['project_id']}/messages:send"
    message = {"token": device_token,
               "notification": {"title": notice.get("title", ""), "body": notice.get("body", "")},
               "data": {k: str(v) for k, v in notice.items() if k not in ("title", "body") and v is not None},
               "android": {"priority": "high", "ttl": "3600s"}}
    try:
        answer = requests.post(url, json={"message": message}, headers={"Authorization": f"Bearer {access}"},
                               timeout=TIMEOUT_SECONDS)
    except requests.RequestException as exc:
        return f"FCM could not be reached: {type(exc).__name__}.", False
    if answer.status_code == 200:
        return None, False
    reason = _reason(answer)
    gone = answer.status_code == 404 or reason in ("UNREGISTERED", "INVALID_ARGUMENT") and "token" in answer.text.lower()
    return f"FCM answered {answer.status_code} {reason}".strip()[:300], gone


def _reason(answer: requests.Response) -> str:
    try:
        error = answer.json().get("error", {})
        details = [d.get("errorCode") for d in error.get("details", []) if isinstance(d, dict) and d.get("errorCode")]
        return details[0] if details else str(error.get("status") or "")
    except ValueError:
        return ""
