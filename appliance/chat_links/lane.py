"""The public short-link redirect, `GET|HEAD {short link path}/{slug}`, answered before Flask: it is
the one address customers hit by the thousand (posters, ads, QR codes), and it needs nothing of
the app's request machinery (no session, no CSRF, no JSON). A slug is looked up once and kept
CACHE_SECONDS (archiving one forgets it at once in this process); a person's click is noted for the
click recorder; an unknown or archived slug is the same 404, so nobody learns which."""

from __future__ import annotations

import threading
import time
from urllib.parse import quote, urlsplit

from appliance.chat_links import clicks
from appliance.chat_links.models import ChatLink
from appliance.core import runtime
from appliance.core.i18n import _l, resolved
from appliance.installation import public_address
from appliance.phone_numbers.models import PhoneNumber
from sqlmodel import select

CACHE_SECONDS = 10.0
SLUG_LENGTH = 8
_NOT_FOUND = (_l("This link does not exist"), _l("It may have been mistyped, or the business has turned it off."))


class ShortLinkLane:
    """WSGI: `{prefix}/{slug}` here, everything else to the app."""

    def __init__(self, app, prefix: str):
        self.app, self.prefix = app, prefix.rstrip("/") + "/"
        self._cache: dict[str, tuple[float, tuple | None]] = {}
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD")
        if not path.startswith(self.prefix) or method not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        slug = path[len(self.prefix):]
        if len(slug) != SLUG_LENGTH or not slug.isalnum():
            return self.app(environ, start_response) if "/" in slug else self._not_found(environ, start_response)
        found = self._lookup(slug)
        if found is None:
            return self._not_found(environ, start_response)
        link_id, target = found
        user_agent = environ.get("HTTP_USER_AGENT", "")
        if method == "GET" and clicks.is_person(user_agent):
            clicks.recorder.note(link_id, user_agent, environ.get("HTTP_REFERER", ""), environ.get("REMOTE_ADDR", ""))
        start_response("302 Found", [("Location", target), ("Cache-Control", "no-store"), ("Content-Length", "0"),
                                     ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff")])
        return [b""]

    def _lookup(self, slug: str) -> tuple[str, str] | None:
        now = time.monotonic()
        cached = self._cache.get(slug)
        if cached is not None and cached[0] > now:
            return cached[1]
        found = None
        with runtime.get().db.unit_of_work(write=False) as session:
            row = session.exec(select(ChatLink.id, ChatLink.archived, ChatLink.wa_me_url)
                               .join(PhoneNumber, PhoneNumber.id == ChatLink.phone_number_pk)
                               .where(ChatLink.slug == slug, PhoneNumber.disconnected_at.is_(None))).first()
        if row is not None and not row[1]:
            found = (row[0], row[2])
        with self._lock:
            if len(self._cache) > 50_000:  # a flood of made-up slugs never grows it without end
                self._cache.clear()
            self._cache[slug] = (now + CACHE_SECONDS, found)
        return found

    def forget(self, slug: str) -> None:
        self._cache.pop(slug, None)

    def _not_found(self, environ, start_response):
        language = "es" if environ.get("HTTP_ACCEPT_LANGUAGE", "").lower().startswith("es") else "en"
        title, text = resolved(_NOT_FOUND, language)
        body = (f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{title}</title>'
                '<style>body{font:1rem/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;'
                'min-height:100vh;background:#eef1f4;color:#1b1f24;text-align:center;padding:1rem}</style></head>'
                f'<body><main><h1>{title}</h1><p>{text}</p></main></body></html>').encode()
        start_response("404 Not Found", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))),
                                         ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")])
        return [body] if environ.get("REQUEST_METHOD") != "HEAD" else [b""]


def wa_me(display_phone_number: str, text: str | None) -> str:
    digits = "".join(ch for ch in display_phone_number if ch.isdigit())
    return f"https://wa.me/{digits}" + (f"?text={quote(text, safe='')}" if text else "")


lanes: list[ShortLinkLane] = []  # every app's (services forget changed slugs through them)


def short_link_base() -> str:
    """Where short links live: APPLIANCE_SHORT_LINK_BASE, else the public address's /l."""
    return (runtime.get().settings.short_link_base or public_address.url("/l")).rstrip("/")


def short_link_path() -> str:
    """The path the appliance answers short links on (the base's own path: /l by default)."""
    return urlsplit(short_link_base()).path or "/l"


def install(app, settings) -> ShortLinkLane:
    """The lane in front of `app` on the short links' path."""
    found = ShortLinkLane(app, short_link_path())
    lanes.append(found)  # one in a server; the tests keep several apps
    return found


def forget(slug: str) -> None:
    for lane in lanes:
        lane.forget(slug)
