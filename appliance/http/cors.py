"""Cross-origin use of the API from browsers: a single-page app registered as a public OAuth client
(the reference) runs on its own origin and calls /oauth/token and the API from there.

Every route of the API (those of the OpenAPI document) answers any origin, without credentials:
the API is authenticated by headers (a bearer token, an API key) and a browser sends no cookies
with an uncredentialed cross-origin request, so a foreign page can only use what it already holds.
The pages (inbox, console, sign-in, the OAuth consent) are not shared with other origins.
Preflights are answered here, before authentication (they carry no credentials)."""

from __future__ import annotations

from flask import Flask, Response, current_app, request

from appliance.http.api import Blueprint as ApiBlueprint

ALLOWED_HEADERS = "Authorization, Content-Type, X-Api-Key, Idempotency-Key, Last-Event-ID"
EXPOSED_HEADERS = "Retry-After, Idempotent-Replayed, Location, Link"
ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE"
PREFLIGHT_SECONDS = "600"


def _is_api() -> bool:
    return isinstance(current_app.blueprints.get(request.blueprint or ""), ApiBlueprint)


def _preflight() -> Response | None:
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers or not _is_api():
        return None
    return Response(status=204, headers={"Access-Control-Allow-Origin": "*",
                                         "Access-Control-Allow-Methods": ALLOWED_METHODS,
                                         "Access-Control-Allow-Headers": ALLOWED_HEADERS,
                                         "Access-Control-Max-Age": PREFLIGHT_SECONDS})


def _share(response: Response) -> Response:
    if _is_api():
        response.headers.setdefault("Access-Control-Allow-Origin", "*")
        response.headers.setdefault("Access-Control-Expose-Headers", EXPOSED_HEADERS)
    return response


def init_app(app: Flask) -> None:
    """Register before authentication (callers), so a preflight never meets it."""
    app.before_request(_preflight)
    app.after_request(_share)
