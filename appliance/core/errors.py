"""The one error hierarchy. Services raise these; `appliance.http.errors` maps them to HTTP once.

Each class carries its HTTP status and a default stable `code`; an instance may name a more
precise code (`Unauthorized(code="token_expired")`). Codes are part of the public API: never
rename one.
"""

from __future__ import annotations


class AppError(Exception):
    status = 500
    code = "internal_error"
    title = "Internal Server Error"

    def __init__(self, detail: str | None = None, *, code: str | None = None,
                 errors: dict | None = None, headers: dict | None = None, **extra):
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        if code:
            self.code = code
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra


class Invalid(AppError):
    status, code, title = 400, "validation_failed", "Bad Request"


class Unauthorized(AppError):
    status, code, title = 401, "unauthorized", "Unauthorized"


class PaymentRequired(AppError):
    """What was asked needs more than the organization pays for (an entitlement, the wallet)."""
    status, code, title = 402, "payment_required", "Payment Required"


class Forbidden(AppError):
    status, code, title = 403, "forbidden", "Forbidden"


class NotFound(AppError):
    status, code, title = 404, "not_found", "Not Found"


class Conflict(AppError):
    status, code, title = 409, "conflict", "Conflict"


class Unprocessable(AppError):
    status, code, title = 422, "unprocessable", "Unprocessable Content"


class TooLarge(AppError):
    status, code, title = 413, "payload_too_large", "Content Too Large"


class TooMany(AppError):
    status, code, title = 429, "too_many_requests", "Too Many Requests"

    def __init__(self, detail: str | None = None, *, retry_after: int, **kwargs):
        super().__init__(detail, **kwargs)
        self.retry_after = max(1, int(retry_after))
        self.headers["Retry-After"] = str(self.retry_after)


class BadGateway(AppError):
    """A service outside the appliance that the request depends on failed (an AI provider)."""
    status, code, title = 502, "bad_gateway", "Bad Gateway"


class Unavailable(AppError):
    status, code, title = 503, "unavailable", "Service Unavailable"


class InsufficientStorage(AppError):
    """The disk lacks the room the work needs (a backup)."""
    status, code, title = 507, "insufficient_storage", "Insufficient Storage"


class GatewayTimeout(AppError):
    """A service outside the appliance that the request waited for did not answer in time."""
    status, code, title = 504, "gateway_timeout", "Gateway Timeout"


class StartupError(Exception):
    """The runtime cannot work on this machine; the message says what to do."""
