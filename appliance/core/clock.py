"""The one source of the current time, so that tests can move it forward."""

from datetime import datetime, timedelta, timezone

_offset = timedelta(0)


def now() -> datetime:
    """The current instant, timezone-aware UTC."""
    return datetime.now(timezone.utc) + _offset


def advance(seconds: float) -> None:
    """Move the clock forward (tests use it to expire tokens and windows)."""
    global _offset
    _offset += timedelta(seconds=seconds)


def reset() -> None:
    global _offset
    _offset = timedelta(0)


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with milliseconds and a `Z`, as every API field carries it."""
    if moment is None:
        return None
    if moment.tzinfo is timezone.utc:  # as stored times come back: no conversion needed
        return moment.isoformat(timespec="milliseconds")[:-6] + "Z"
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
