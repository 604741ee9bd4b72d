"""The one source of the current time, so that tests can move it forward (and hold it still)."""

from datetime import datetime, timedelta, timezone

_offset = timedelta(0)
_held: datetime | None = None  # while set, the clock stands there until moved (`hold`)


def now() -> datetime:
    """The current instant, timezone-aware UTC."""
    held = _held
    return held if held is not None else datetime.now(timezone.utc) + _offset


def advance(seconds: float) -> None:
    """Move the clock forward (tests use it to expire tokens and windows)."""
    global _offset, _held
    _offset += timedelta(seconds=seconds)
    if _held is not None:
        _held += timedelta(seconds=seconds)


def hold() -> None:
    """Stop the clock where it is: from here on only `advance` moves it. Tests that run the
    server's threads hold it, so a thread acts at the moment a test moves the clock to and never
    because the test's own steps took time (tests/fixtures/workers.py)."""
    global _held
    _held = now()


def reset() -> None:
    """The real time again, flowing."""
    global _offset, _held
    _offset = timedelta(0)
    _held = None


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with milliseconds and a `Z`, as every API field carries it."""
    if moment is None:
        return None
    if moment.tzinfo is timezone.utc:  # as stored times come back: no conversion needed
        return moment.isoformat(timespec="milliseconds")[:-6] + "Z"
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
