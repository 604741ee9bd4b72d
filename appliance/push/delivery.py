"""Sending a notification to people: every browser subscription (Web Push: the payload encrypted
aes128gcm, RFC 8291, with a VAPID JWT, RFC 8292, by pywebpush; TTL one hour) and every device
token (APNs for iPhones and FCM, when configured). Read in one short unit, sent with no
transaction open, outcomes written in another: a 404 or 410 from a push service removes the
subscription (the browser dropped it), as APNs' and FCM's "this token is gone" remove the device;
other failures are counted and kept for /push/diagnose. Web Push goes through a session that keeps
the installation's rule on addresses at every connection and follows no redirect (a push service
answers; a redirect would send the notification where no one checked).

Payload ≤ 3 KB of JSON `{title, body, url, conversationId, tag}`; the service worker shows it."""

from __future__ import annotations

import json
import logging
from urllib.parse import urlsplit

import requests
from sqlmodel import select

from appliance.address_rule import NotAllowed, requests_session
from appliance.core import clock, runtime
from appliance.installation import addresses
from appliance.push import apns, fcm, vapid
from appliance.push.models import PushDevice, PushSubscription

log = logging.getLogger(__name__)
TTL_SECONDS, TIMEOUT_SECONDS, MAX_PAYLOAD = 3600, 10, 3072
GONE = (404, 410)


def payload_of(notice: dict) -> str:
    """The JSON a service worker receives, cut to fit 3 KB (the body gives way first)."""
    notice = {k: v for k, v in notice.items() if v is not None}
    text = json.dumps(notice, ensure_ascii=False)
    while len(text.encode()) > MAX_PAYLOAD and notice.get("body"):
        notice["body"] = notice["body"][: max(0, len(notice["body"]) - (len(text.encode()) - MAX_PAYLOAD) - 1)] + "…"
        text = json.dumps(notice, ensure_ascii=False)
    return text


def _subject(session) -> str:
    configured = runtime.get().settings.vapid_subject
    if configured:
        return configured
    from appliance.users.models import User
    first = session.exec(select(User.email).order_by(User.created_at)).first()
    return f"mailto:{first or 'admin@localhost'}"


def send(database, user_ids: list[str], notice: dict) -> dict:
    """Answers {sent, failed, removed}."""
    with database.unit_of_work(write=False) as session:
        subscriptions = [(s.id, s.endpoint, s.p256dh, s.auth) for s in session.exec(
            select(PushSubscription).where(PushSubscription.user_id.in_(user_ids))).all()]
        devices = [(d.id, d.token, d.platform) for d in session.exec(
            select(PushDevice).where(PushDevice.user_id.in_(user_ids))).all()]
        private_key = vapid.private_key(session) if subscriptions else None
        subject = _subject(session) if subscriptions else None
    data = payload_of(notice)
    outcomes: list[tuple[type, str, str | None, bool]] = []  # (model, id, error, gone)
    http = requests_session(addresses.rule())
    for row_id, endpoint, p256dh, auth in subscriptions:
        outcomes.append((PushSubscription, row_id, *_web_push(http, endpoint, p256dh, auth, data, private_key, subject)))
    for row_id, token, platform in devices:
        sender = _native_sender(platform)
        if sender is not None:
            outcomes.append((PushDevice, row_id, *sender(token, notice)))
    return _record(database, outcomes)


def _native_sender(platform: str):
    """An iPhone's token goes to APNs when it is configured; every other one (and an iPhone's,
    without APNs: an app that registers through Firebase) to FCM when that is; else it is kept."""
    if platform == "IOS" and apns.configured():
        return apns.send
    return fcm.send if fcm.configured() else None


def _web_push(http, endpoint, p256dh, auth, data, private_key, subject) -> tuple[str | None, bool]:
    # Imported on the first push, not at start: pywebpush brings aiohttp (~38 MB of a server that may
    # never push).
    from pywebpush import WebPushException, webpush

    parts = urlsplit(endpoint)
    try:
        webpush({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}, data=data,
                vapid_private_key=private_key, vapid_claims={"sub": subject, "aud": f"{parts.scheme}://{parts.netloc}"},
                ttl=TTL_SECONDS, timeout=TIMEOUT_SECONDS, headers={"Urgency": "high"}, requests_session=http)
        return None, False
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        return (f"The push service answered {status}." if status else str(exc)[:300]), status in GONE
    except requests.RequestException as exc:
        return f"The push service could not be reached: {type(exc).__name__}.", False
    except NotAllowed as refused:
        return str(refused), False


def _record(database, outcomes) -> dict:
    now, counts = clock.now(), {"sent": 0, "failed": 0, "removed": 0}
    with database.unit_of_work(write=True) as session:
        for model, row_id, error, gone in outcomes:
            row = session.get(model, row_id)
            if row is None:
                continue
            if gone:
                session.delete(row)
                counts["removed"] += 1
                continue
            if error is None:
                row.last_success_at, row.last_error, row.failures = now, None, 0
                counts["sent"] += 1
            else:
                row.last_error, row.failures = error, row.failures + 1
                counts["failed"] += 1
            session.add(row)
    return counts
