"""Throttling of credential failures (passwords, TOTP and recovery codes, email-link tokens),
counted per account and per client IP, shared by every auth flow."""

from __future__ import annotations

from typing import NoReturn

from sqlmodel import Session

from appliance.core import runtime, throttle
from appliance.core.errors import AppError


def _limits(account: str | None, ip: str) -> dict[str, int]:
    settings = runtime.get().settings
    limits = {f"ip:{ip}": settings.throttle_ip_failures}
    if account:
        limits[f"account:{account.lower()}"] = settings.throttle_account_failures
    return limits


def check(session: Session, *, account: str | None, ip: str) -> None:
    """Raise TooMany (429 with Retry-After) while the account or the IP is locked out."""
    throttle.check(session, _limits(account, ip),
                   window_seconds=runtime.get().settings.throttle_window_seconds)


def fail(session: Session, error: AppError, *, account: str | None, ip: str) -> NoReturn:
    """Count the failure (it survives the rollback) and raise `error`."""
    throttle.record_failure(session, list(_limits(account, ip)),
                            window_seconds=runtime.get().settings.throttle_window_seconds)
    raise error


def succeed(session: Session, *, account: str) -> None:
    """A correct credential clears the account's counter (not the IP's)."""
    throttle.clear(session, f"account:{account.lower()}")
