"""The one error handler: AppError, HTTP errors and crashes become problem+json (API clients)
or an HTML page (browsers). Nothing else in the code base formats an error."""

from __future__ import annotations

import logging

from flask import Flask, Response, json, render_template, request
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from appliance.core import clock
from appliance.core import postgres_engine, sqlite_engine
from appliance.core.schema import flat_messages
from appliance.core.errors import AppError

log = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "bad_request", 404: "not_found", 405: "method_not_allowed", 406: "not_acceptable",
    413: "payload_too_large", 415: "unsupported_media_type", 429: "too_many_requests",
}


# What webargs aborts with when the body does not parse as JSON.
_WEBARGS_INVALID_JSON = {"json": ["Invalid JSON body."]}


def problem_response(error: AppError) -> Response:
    # An error's own facts come first, so that one never hides a member every problem has.
    body = {
        **error.extra,
        "type": "about:blank",
        "title": error.title,
        "status": error.status,
        "code": error.code,
        "detail": error.detail,
    }
    if error.errors:
        body["errors"] = error.errors
    body["timestamp"] = clock.iso(clock.now())
    if _wants_html():
        response = Response(render_template("error.html", problem=body), status=error.status,
                            mimetype="text/html")
    else:
        response = Response(json.dumps(body), status=error.status,
                            mimetype="application/problem+json")
    for name, value in error.headers.items():
        response.headers[name] = value
    return response


def _wants_html() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "text/html" and request.accept_mimetypes[best] > request.accept_mimetypes["application/json"]


def _from_http_exception(exc: HTTPException) -> AppError:
    data = getattr(exc, "data", None) or {}
    messages = data.get("messages")
    if messages == _WEBARGS_INVALID_JSON:
        return _error(400, "invalid_json", "Bad Request", "The body is not valid JSON.")
    if exc.code in (400, 422) and messages is not None:
        # webargs/marshmallow validation: flatten {"json": {...}, "query": {...}} into one map.
        errors = {}
        for location_errors in messages.values():
            errors.update(flat_messages(location_errors))
        return _error(400, "validation_failed", "Bad Request",
                      "The request has invalid fields; see errors.", errors)
    code = _HTTP_CODES.get(exc.code, "http_error")
    detail = exc.description or exc.name
    if exc.code == 413:
        detail = "The request body is larger than this route accepts."
    error = _error(exc.code or 500, code, exc.name, detail)
    if exc.code == 405 and exc.valid_methods:
        error.headers["Allow"] = ", ".join(exc.valid_methods)
    return error


def _error(status: int, code: str, title: str, detail: str, errors: dict | None = None) -> AppError:
    error = AppError(detail, code=code, errors=errors)
    error.status, error.title = status, title
    return error


def _driver_error(exc: Exception) -> BaseException:
    return exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc


def _is_lock_timeout(exc: Exception) -> bool:
    """The writers' lock waited out its timeout (raised by the driver, or wrapped by SQLAlchemy)."""
    driver_error = _driver_error(exc)
    return sqlite_engine.is_busy(driver_error) or postgres_engine.is_busy(driver_error)


def _is_unreachable(exc: Exception) -> bool:
    """PostgreSQL went away (restarting, the network): the request fails cleanly, and the next
    ones connect afresh once it is back."""
    return postgres_engine.is_unreachable(_driver_error(exc))


def handle_exception(exc: Exception) -> Response:
    if isinstance(exc, AppError):
        return problem_response(exc)
    if isinstance(exc, HTTPException):
        return problem_response(_from_http_exception(exc))
    if _is_lock_timeout(exc):
        driver_error = _driver_error(exc)  # its type, never its text: that carries the statement's values
        log.warning("storage busy on %s %s: %s (SQLSTATE %s)", request.method, request.path,
                    type(driver_error).__name__, postgres_engine.sqlstate(driver_error))
        busy = AppError("The database is busy; try again in a moment.", code="storage_busy", headers={"Retry-After": "1"})
        busy.status, busy.title = 503, "Service Unavailable"
        return problem_response(busy)
    if _is_unreachable(exc):
        driver_error = _driver_error(exc)
        log.warning("database unreachable on %s %s: %s (SQLSTATE %s)", request.method, request.path,
                    type(driver_error).__name__, postgres_engine.sqlstate(driver_error))
        gone = AppError("The database cannot be reached; try again in a moment.", code="storage_unavailable",
                        headers={"Retry-After": "5"})
        gone.status, gone.title = 503, "Service Unavailable"
        return problem_response(gone)
    log.exception("unhandled error on %s %s", request.method, request.path)
    return problem_response(AppError("Something went wrong on our side; it has been logged."))


def init_app(app: Flask) -> None:
    app.register_error_handler(Exception, handle_exception)
