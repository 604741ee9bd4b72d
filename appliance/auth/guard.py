"""Throttling of credential failures (passwords, TOTP and recovery codes, email-link tokens),
shared by every auth flow. The policy keeps a stranger from locking the owner out:

- an account from one client IP: APPLIANCE_THROTTLE_ACCOUNT_FAILURES (5) in the window (15 min)
  locks that pair only: whoever guesses locks themselves, not the account;
- one client IP across accounts: APPLIANCE_THROTTLE_IP_FAILURES (20) in the window (spraying);
- an account from everywhere: APPLIANCE_THROTTLE_ACCOUNT_DAILY_FAILURES (100) in 24 hours locks the
  account itself, against guessing spread over many addresses (at least 20 of them, by the two
  rules above); a correct sign-in clears the account's counters.
"""

from __future__ import annotations

from typing import NoReturn

from sqlmodel import Session

from appliance.core import runtime, throttle
from appliance.core.errors import AppError

DAY_SECONDS = 24 * 3600


def _window_limits(account: str | None, ip: str) -> dict[str, int]:
    settings = runtime.get().settings
    limits = {f"ip:{ip}": settings.throttle_ip_failures}
    if account:
        limits[f"pair:{account.lower()}|{ip}"] = settings.throttle_account_failures
    return limits


def _day_limits(account: str | None) -> dict[str, int]:
    return {f"account:{account.lower()}": runtime.get().settings.throttle_account_daily_failures} if account else {}


def check(session: Session, *, account: str | None, ip: str) -> None:
    """Raise TooMany (429 with Retry-After) while this account from this IP, the IP, or the account
    is locked out."""
    throttle.check(session, _window_limits(account, ip), window_seconds=runtime.get().settings.throttle_window_seconds)
    throttle.check(session, _day_limits(account), window_seconds=DAY_SECONDS)


def fail(session: Session, error: AppError, *, account: str | None, ip: str) -> NoReturn:
    """Count the failure (it survives the rollback) and raise `error`."""
    throttle.record_failure(session, list(_window_limits(account, ip)),
                            window_seconds=runtime.get().settings.throttle_window_seconds)
    throttle.record_failure(session, list(_day_limits(account)), window_seconds=DAY_SECONDS)
    raise error


def succeed(session: Session, *, account: str, ip: str | None = None) -> None:
    """A correct credential clears the account's counters (not the IP's)."""
    throttle.clear(session, f"account:{account.lower()}")
    if ip is not None:
        throttle.clear(session, f"pair:{account.lower()}|{ip}")
