"""Push as a person manages it: the server's public key and what it can send to, browser
subscriptions (made, dropped, rotated by the service worker), native device tokens, what each
person wants to be told, diagnose and test. Sending is delivery.py's; what triggers a push,
listeners.py's; the server's key pair, vapid.py's.

Web Push endpoints follow the installation's rule on addresses (installation/addresses.py: public,
unless the installation allows a private server), and must be https unless they are on such an
allowed private server (a local push service): anything else would let a person make the server
post to any address. Delivery checks them again and follows no redirect (delivery.py)."""

from __future__ import annotations

import base64
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.actor import Actor
from appliance.core.errors import Conflict, Invalid, NotFound
from appliance.core.i18n import gettext, in_language
from appliance.core.queue import enqueue_after_commit
from appliance.installation import addresses
from appliance.push import apns, fcm, tasks
from appliance.push.models import TRIGGERS, PushDevice, PushPreference, PushSubscription, VapidKey

PLATFORMS = ("IOS", "ANDROID")
MAX_SUBSCRIPTIONS = 20  # a person's browsers; the oldest goes when a 21st subscribes


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def config(session: Session) -> dict:
    key = session.get(VapidKey, 1)
    return {"vapid_public_key": key.public_key if key else None, "web_push": key is not None,
            "native": {"ios": apns.configured() or fcm.configured(), "android": fcm.configured()}}


# Browser subscriptions ------------------------------------------------------------------------------

def _invalid(field: str, message: str, code: str = "validation_failed") -> Invalid:
    return Invalid(message, code=code, errors={field: [message]})


def check_endpoint(endpoint: str, field: str = "endpoint") -> str:
    """400 push_endpoint_not_secure (not https, nor on an allowed private server) or
    url_not_allowed (an address the appliance may not reach)."""
    endpoint = endpoint.strip()
    try:
        parts = urlsplit(endpoint)
        parts.port  # a bracketed host that is no address, or a port out of range, raises here too
    except ValueError:
        raise _invalid(field, _NOT_SECURE, "push_endpoint_not_secure") from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise _invalid(field, _NOT_SECURE, "push_endpoint_not_secure")
    endpoint = addresses.check_url(endpoint, field=field)
    if parts.scheme == "http" and not addresses.listed(endpoint):
        raise _invalid(field, _NOT_SECURE, "push_endpoint_not_secure")
    return endpoint


_NOT_SECURE = "A push endpoint must be https (http only on a private server the installation allows)."


def _check_keys(p256dh: str, auth: str) -> None:
    try:
        point, secret = _unb64url(p256dh.strip()), _unb64url(auth.strip())
    except (ValueError, TypeError):
        raise _invalid("p256dh", "The subscription's keys are not base64url.") from None
    if len(point) != 65 or point[0] != 4:
        raise _invalid("p256dh", "p256dh must be the browser's P-256 public key (65 bytes, uncompressed).")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise _invalid("p256dh", "p256dh is not a point of the P-256 curve.") from None
    if len(secret) != 16:
        raise _invalid("auth", "auth must be the subscription's 16-byte secret.")


def do_subscribe(session: Session, *, actor: Actor, endpoint: str, p256dh: str, auth: str,
                 user_agent: str | None = None) -> PushSubscription:
    """Store (or take over) the browser's subscription for this person."""
    endpoint = check_endpoint(endpoint)
    _check_keys(p256dh, auth)
    row = session.exec(select(PushSubscription).where(PushSubscription.endpoint == endpoint)).first()
    if row is None:
        row = PushSubscription(user_id=actor.user_id, endpoint=endpoint, p256dh=p256dh.strip(), auth=auth.strip(),
                               created_at=clock.now())
    row.user_id, row.p256dh, row.auth, row.user_agent = actor.user_id, p256dh.strip(), auth.strip(), user_agent
    row.failures, row.last_error = 0, None
    session.add(row)
    session.flush()
    mine = session.exec(select(PushSubscription).where(PushSubscription.user_id == actor.user_id)
                        .order_by(PushSubscription.created_at.desc())).all()
    for old in mine[MAX_SUBSCRIPTIONS:]:
        session.delete(old)
    return row


def do_unsubscribe(session: Session, *, actor: Actor, endpoint: str) -> None:
    row = session.exec(select(PushSubscription).where(PushSubscription.endpoint == endpoint.strip(),
                                                      PushSubscription.user_id == actor.user_id)).first()
    if row is not None:
        session.delete(row)


def do_rotate(session: Session, *, old_endpoint: str, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """The service worker's `pushsubscriptionchange`: no session there, so the old endpoint (a long
    secret address only the browser and we know) is the proof."""
    row = session.exec(select(PushSubscription).where(PushSubscription.endpoint == old_endpoint.strip())).first()
    if row is None:
        raise NotFound("No subscription with this endpoint.", code="push_subscription_not_found")
    endpoint = check_endpoint(endpoint)
    _check_keys(p256dh, auth)
    known = session.exec(select(PushSubscription).where(PushSubscription.endpoint == endpoint)).first()
    if known is not None and known.id != row.id:
        # The page subscribed the renewed endpoint before the worker told us (both run on a change).
        # The same person's: it stays, the old one goes. Another person's (who signed in on this
        # browser since): theirs, and the old endpoint proves nothing about it.
        if known.user_id != row.user_id:
            raise Conflict("This endpoint is another person's subscription.", code="push_endpoint_taken")
        session.delete(row)
        session.flush()
        row = known
    row.endpoint = endpoint
    row.p256dh, row.auth, row.failures, row.last_error = p256dh.strip(), auth.strip(), 0, None
    session.add(row)
    session.flush()
    return row


# Devices --------------------------------------------------------------------------------------------

def do_register_device(session: Session, *, actor: Actor, token: str, platform: str,
                       app_version: str | None = None) -> PushDevice:
    now = clock.now()
    row = session.exec(select(PushDevice).where(PushDevice.token == token)).first()
    if row is None:
        row = PushDevice(user_id=actor.user_id, token=token, platform=platform, created_at=now, updated_at=now)
    row.user_id, row.platform, row.app_version, row.updated_at, row.last_error, row.failures = (
        actor.user_id, platform, app_version, now, None, 0)
    session.add(row)
    session.flush()
    return row


def do_remove_device(session: Session, *, actor: Actor, token: str) -> None:
    row = session.exec(select(PushDevice).where(PushDevice.token == token, PushDevice.user_id == actor.user_id)).first()
    if row is not None:
        session.delete(row)


def do_remove_by_id(session: Session, *, actor: Actor, item_id: str) -> None:
    """A browser or device of mine, by its id (the console's remove button)."""
    for model in (PushSubscription, PushDevice):
        row = session.get(model, item_id)
        if row is not None and row.user_id == actor.user_id:
            session.delete(row)
            return
    raise NotFound("No browser or device with this id.", code="push_subscription_not_found")


# Reading, preferences, test -------------------------------------------------------------------------

WEB = "WEB"  # the kind of a browser's subscription; a device's is its platform (IOS, ANDROID)


def list_mine(session: Session, *, actor: Actor) -> list[dict]:
    """My browsers and devices, oldest first, each in the one decided shape: a browser shows its
    endpoint and user agent, a device its token shortened and its app's version."""
    browsers = session.exec(select(PushSubscription).where(PushSubscription.user_id == actor.user_id)).all()
    devices = session.exec(select(PushDevice).where(PushDevice.user_id == actor.user_id)).all()
    items = [{"id": row.id, "kind": WEB, "endpoint": row.endpoint, "token": None, "user_agent": row.user_agent,
              "app_version": None, "created_at": row.created_at, "last_success_at": row.last_success_at,
              "last_error": row.last_error, "failures": row.failures} for row in browsers]
    items += [{"id": row.id, "kind": row.platform, "endpoint": None, "token": shortened_token(row.token),
               "user_agent": None, "app_version": row.app_version, "created_at": row.created_at,
               "last_success_at": row.last_success_at, "last_error": row.last_error, "failures": row.failures}
              for row in devices]
    return sorted(items, key=lambda item: item["created_at"])


def shortened_token(token: str) -> str:
    """Enough of a device token to tell two phones apart; the whole token lets anyone holding the
    app's push credentials reach that phone, so it is not shown."""
    return token if len(token) <= 12 else f"{token[:6]}…{token[-4:]}"


def diagnose(session: Session, *, actor: Actor, endpoint: str) -> dict:
    row = session.exec(select(PushSubscription).where(PushSubscription.endpoint == endpoint.strip(),
                                                      PushSubscription.user_id == actor.user_id)).first()
    if row is None:
        return {"found": False, "last_success_at": None, "last_error": None, "failures": 0}
    return {"found": True, "last_success_at": row.last_success_at, "last_error": row.last_error,
            "failures": row.failures}


def preferences(session: Session, user_id: str) -> list[str]:
    row = session.get(PushPreference, user_id)
    return list(row.triggers) if row is not None else list(TRIGGERS)


def do_set_preferences(session: Session, *, actor: Actor, triggers: list[str]) -> list[str]:
    unknown = [t for t in triggers if t not in TRIGGERS]
    if unknown:
        raise _invalid("triggers", f"Unknown: {', '.join(unknown)}. Known: {', '.join(TRIGGERS)}.")
    row = session.get(PushPreference, actor.user_id) or PushPreference(user_id=actor.user_id, updated_at=clock.now())
    row.triggers, row.updated_at = [t for t in TRIGGERS if t in triggers], clock.now()
    session.add(row)
    return list(row.triggers)


def do_send_test(session: Session, *, actor: Actor, locale: str = "en") -> dict:
    """A test notification to all of my browsers and devices, sent right after this request."""
    mine = list_mine(session, actor=actor)
    with in_language(locale):
        title, body = gettext("Test notification"), gettext("This is how customers will get your attention.")
    enqueue_after_commit(session, tasks.push_to_users, [actor.user_id],
                         {"title": title, "body": body, "url": "/inbox", "tag": "test"})
    browsers = sum(1 for item in mine if item["kind"] == WEB)
    return {"subscriptions": browsers, "devices": len(mine) - browsers}
