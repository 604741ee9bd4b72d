"""Request body rules: JSON only (unless a route takes uploads), no larger than the setting, and
nested no deeper than core/json_text.MAX_DEPTH."""

from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from appliance.core import json_text
from appliance.core.errors import Invalid
from appliance.http.api import view_attr

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _no_route() -> bool:
    """The address or the method has no route (404, 405): that answer comes whatever the body is,
    so the body's rules, which belong to a route, are not applied."""
    return request.routing_exception is not None


def _has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def _needs_json_body() -> bool:
    """The view declares a required JSON body (flask-smorest's `arguments`, as the document says)."""
    parameters = ((view_attr("_apidoc") or {}).get("arguments") or {}).get("parameters") or []
    return any(p.get("in") == "json" and p.get("required") for p in parameters)


def init_app(app: Flask, *, max_json_bytes: int) -> None:
    @app.before_request
    def check_body():
        if request.method not in _BODY_METHODS or _no_route():
            return
        if not _has_body():
            return
        upload = view_attr("_upload")
        limit = upload[0] if upload else max_json_bytes
        if upload:
            # Multipart framing adds a few hundred bytes around the file itself.
            limit += 16 * 1024 if request.mimetype == "multipart/form-data" else 0
        if request.content_length is not None:
            if request.content_length > limit:
                raise RequestEntityTooLarge()
        elif upload:
            # Chunked upload: never read whole here. The stream answers 413 itself once it passes
            # the limit (a maximum, to werkzeug), wherever the file is being spooled.
            request.max_content_length = limit
        else:
            # Chunked: werkzeug's limited stream stops quietly at the limit (the client would be
            # told "invalid JSON"), so read one byte past it now and answer 413 ourselves.
            request.max_content_length = limit + 1
            if len(request.get_data(cache=True)) > limit:
                raise RequestEntityTooLarge()
        if upload:
            return  # its content type is checked where the file is read, after authentication
        if not request.is_json and not view_attr("_form_body"):
            raise Invalid("Send the body as JSON with 'Content-Type: application/json'.",
                          code="unsupported_content_type")
        if request.is_json:  # before any parser recurses into it
            json_text.check_depth(request.get_data(cache=True))


def init_required_body(app: Flask) -> None:
    """A route whose document says its JSON body is required refuses a request without one (400
    body_required), after authentication: who may not call it hears 401/403/404 first."""
    @app.before_request
    def require_body():
        if request.method not in _BODY_METHODS or _has_body() or _no_route():
            return
        if _needs_json_body():
            raise Invalid("This route needs a JSON body (an object, {} at least where every field is optional).",
                          code="body_required")
