"""Web-chat widgets: a chat box on the business's websites whose visitors land in the inbox of one
of its numbers (docs/webchat.md). What the visitors do: visitors.py; the socket: gateway.py.

A widget names the websites that may embed it (`allowedOrigins`, checked at the socket's
handshake), a public website token (in the page's snippet), and an identity secret (shown once)
with which a website vouches for its signed-in users: HMAC-SHA256 of the user's identifier. With
`enforceIdentity` a visitor without a matching hash is refused; without it, an identifier without
one is ignored (the visitor is anonymous), so nobody can chat as someone else by naming them."""

from __future__ import annotations

import hashlib
import hmac
import re
from urllib.parse import urlsplit

from sqlmodel import Session, select

from appliance.core import clock, crypto, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid
from appliance.phone_numbers import service as phone_numbers_service
from appliance.webchat.models import WebchatWidget

PRE_CHAT_FIELDS = ("name", "email", "phone")
MAX_ORIGINS = 20
_ORIGIN = re.compile(r"^https?://[a-z0-9.-]+(:[0-9]{1,5})?$")


def normalize_origin(value: str) -> str | None:
    """`https://Shop.example:443/` -> `https://shop.example`: scheme, host and a port other than the
    scheme's own, as a browser's Origin header says them; None when it is not an origin."""
    try:
        parts = urlsplit(str(value).strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username:
        return None
    default = 443 if parts.scheme == "https" else 80
    origin = f"{parts.scheme}://{parts.hostname.lower()}" + (f":{port}" if port and port != default else "")
    return origin if _ORIGIN.fullmatch(origin) else None


def _origins(values: list) -> list[str]:
    if len(values) > MAX_ORIGINS:
        raise Invalid(f"At most {MAX_ORIGINS} websites.", code="validation_failed",
                      errors={"allowedOrigins": [f"At most {MAX_ORIGINS}."]})
    origins = []
    for value in values:
        origin = normalize_origin(value)
        if origin is None:
            raise Invalid(f"{value!r} is not a website's origin: write its scheme and host, like https://shop.example.",
                          code="invalid_origin", errors={"allowedOrigins": [f"Not an origin: {str(value)[:100]}"]})
        if origin not in origins:
            origins.append(origin)
    return origins


def _pre_chat(values: list) -> list[dict]:
    fields, seen = [], set()
    for value in values:
        field = value.get("field")
        if field not in PRE_CHAT_FIELDS or field in seen:
            raise Invalid("Each pre-chat field once: name, email or phone.", code="validation_failed",
                          errors={"preChatFields": [f"Unknown or repeated: {field}"]})
        seen.add(field)
        fields.append({"field": field, "required": bool(value.get("required"))})
    return fields


def list_widgets(session: Session, *, actor: OrgActor) -> list[WebchatWidget]:
    scope = phone_numbers_service.scope_of(session, actor)
    widgets = session.exec(select(WebchatWidget).where(WebchatWidget.organization_id == actor.organization_id)
                           .order_by(WebchatWidget.name, WebchatWidget.id)).all()
    return [widget for widget in widgets if scope.concerns([widget.phone_number_pk])]


def access_widget(session: Session, *, actor: OrgActor, widget_id: str) -> WebchatWidget:
    scope = phone_numbers_service.scope_of(session, actor)
    return tenancy.access_in_org(session, WebchatWidget, widget_id, actor, what="web-chat widget",
                                 code="widget_not_found", usable=lambda row: scope.concerns([row.phone_number_pk]))


def _number_pk(session: Session, actor: OrgActor, phone_number_pk: str | None) -> str:
    if phone_number_pk:
        return phone_numbers_service.access_phone_number(session, actor=actor, phone_number_pk=phone_number_pk).id
    numbers = phone_numbers_service.list_phone_numbers(session, actor=actor)
    if not numbers:
        raise Conflict("A widget's conversations join a number's inbox: connect a WhatsApp number first.",
                       code="no_phone_number")
    return numbers[0].id


def _apply(session: Session, actor: OrgActor, widget: WebchatWidget, changes: dict) -> WebchatWidget:
    if "name" in changes:
        widget.name = changes["name"].strip()
    if "allowed_origins" in changes:
        widget.allowed_origins = _origins(changes["allowed_origins"])
    if "phone_number_pk" in changes or not widget.phone_number_pk:
        widget.phone_number_pk = _number_pk(session, actor, changes.get("phone_number_pk"))
    if "greeting" in changes:
        widget.greeting = (changes["greeting"] or "").strip() or None
    if "pre_chat_fields" in changes:
        widget.pre_chat_fields = _pre_chat(changes["pre_chat_fields"])
    if "enforce_identity" in changes:
        widget.enforce_identity = bool(changes["enforce_identity"])
    if "offline_email" in changes:
        widget.offline_email = (changes["offline_email"] or "").strip().lower() or None
    widget.updated_at = clock.now()
    session.add(widget)
    session.flush()
    return widget


def do_create(session: Session, *, actor: OrgActor, **changes) -> tuple[WebchatWidget, str]:
    """A new widget and its identity secret (shown this once)."""
    now = clock.now()
    secret = crypto.random_token(32)
    widget = WebchatWidget(organization_id=actor.organization_id, phone_number_pk="", name="",
                           website_token=crypto.random_token(18), created_at=now, updated_at=now,
                           identity_secret_sealed=runtime.get().keyring.seal(secret))
    return _apply(session, actor, widget, {"allowed_origins": [], **changes}), secret


def do_update(session: Session, *, actor: OrgActor, widget_id: str, **changes) -> WebchatWidget:
    return _apply(session, actor, access_widget(session, actor=actor, widget_id=widget_id), changes)


def do_rotate_secret(session: Session, *, actor: OrgActor, widget_id: str) -> tuple[WebchatWidget, str]:
    """A new identity secret (the old one stops working at once: the website must sign with this)."""
    widget = access_widget(session, actor=actor, widget_id=widget_id)
    secret = crypto.random_token(32)
    widget.identity_secret_sealed = runtime.get().keyring.seal(secret)
    widget.updated_at = clock.now()
    session.add(widget)
    return widget, secret


def do_delete(session: Session, *, actor: OrgActor, widget_id: str) -> None:
    """The widget goes; its visitors' conversations stay in the inbox (their contacts keep them)."""
    widget = access_widget(session, actor=actor, widget_id=widget_id)
    session.delete(widget)


def by_website_token(session: Session, token: str | None) -> WebchatWidget | None:
    if not token or len(token) > 40:
        return None
    return session.exec(select(WebchatWidget).where(WebchatWidget.website_token == token)).first()


def identity_hash(secret: str, identifier: str) -> str:
    """What the website computes for a signed-in user (its server, never the browser: the secret
    must not reach the page): hex HMAC-SHA256 of the identifier under the widget's secret."""
    return hmac.new(secret.encode(), identifier.encode(), hashlib.sha256).hexdigest()


def identity_matches(widget: WebchatWidget, identifier: str, given_hash: str) -> bool:
    expected = identity_hash(runtime.get().keyring.unseal(widget.identity_secret_sealed), identifier)
    return hmac.compare_digest(expected, str(given_hash or "").lower())


def snippet(widget: WebchatWidget, base_url: str) -> str:
    """The lines a website pastes before </body>: a button that loads the chat when clicked."""
    return (f'<script src="{base_url}/static/webchat/widget.js" data-website-token="{widget.website_token}" '
            f'data-server="{base_url}" async></script>')
