"""One header policy for every answer of the app (the simulator mounted beside it is not a page of
ours): no type sniffing, no referrer beyond our origin, and for every HTML page a Content Security
Policy that runs only our own scripts (no inline script, no inline handler; styles may be inline:
htmx and two colour attributes use them), is never framed, and loads pictures from https (a business
profile's picture is on WhatsApp's CDN). A route that sets its own header keeps it (stored files
carry a stricter one: http/files.py).

The API documentation is the one exception: flask-smorest's Swagger UI page starts with an inline
script, so /docs alone may run inline script."""

from __future__ import annotations

from flask import Flask, Response, request

_PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                "img-src 'self' data: https:; media-src 'self'; connect-src 'self'; object-src 'none'; "
                "base-uri 'none'; frame-ancestors 'none'")
PAGE_POLICY = _PAGE_POLICY
DOCS_POLICY = _PAGE_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
DOCS_PATH = "/docs"


def page_policy_reaching(origin: str) -> str:
    """The page policy, letting the page's script also call `origin` (the Billing page's card form
    sends the card to the payment processor from the browser, never through us)."""
    return _PAGE_POLICY.replace("connect-src 'self'", f"connect-src 'self' {origin}")


def _secure(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    if response.mimetype == "text/html":
        headers.setdefault("X-Frame-Options", "DENY")
        on_docs = request.path == DOCS_PATH or request.path.startswith(DOCS_PATH + "/")
        headers.setdefault("Content-Security-Policy", DOCS_POLICY if on_docs else PAGE_POLICY)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_secure)
