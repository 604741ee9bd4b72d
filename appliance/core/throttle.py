"""Throttling of guessable things: failed credential attempts counted per key in a fixed window.

Keys are strings such as `account:ana@example.com` or `ip:10.0.0.7`. Failures are written in
their own transaction (`run_after`), because the request that failed rolls back. The counters
live in the database so that they hold across restarts and, later, across processes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, delete

from appliance.core import clock
from appliance.core.db import UTCDateTime, run_after
from appliance.core.errors import TooMany


class ThrottleBucket(SQLModel, table=True):
    __tablename__ = "throttle_buckets"

    key: str = Field(primary_key=True, max_length=400)
    window_started_at: datetime = Field(sa_type=UTCDateTime, index=True)
    count: int = 0


def check(session: Session, limits: dict[str, int], *, window_seconds: int,
          detail: str = "Too many failed attempts. Try again later.") -> None:
    """Raise TooMany if any key has reached its limit within the current window."""
    now = clock.now()
    window = timedelta(seconds=window_seconds)
    for key, limit in limits.items():
        if limit <= 0:
            continue
        bucket = session.get(ThrottleBucket, key)
        if bucket and bucket.window_started_at + window > now and bucket.count >= limit:
            retry = (bucket.window_started_at + window - now).total_seconds()
            raise TooMany(detail, retry_after=int(retry) + 1)


def hit_now(session: Session, keys: list[str], *, window_seconds: int) -> None:
    """Count one attempt against each key inside the caller's transaction."""
    now = clock.now()
    window = timedelta(seconds=window_seconds)
    for key in keys:
        bucket = session.get(ThrottleBucket, key)
        if bucket is None:
            session.add(ThrottleBucket(key=key, window_started_at=now, count=1))
        elif bucket.window_started_at + window <= now:
            bucket.window_started_at, bucket.count = now, 1
        else:
            bucket.count += 1
    session.flush()


def take(session: Session, key: str, *, limit: int, window_seconds: int,
         detail: str = "Too many requests. Try again later.") -> None:
    """Count one use of a rate-limited action, or raise TooMany when the window's budget is spent."""
    check(session, {key: limit}, window_seconds=window_seconds, detail=detail)
    hit_now(session, [key], window_seconds=window_seconds)


def record_failure(session: Session, keys: list[str], *, window_seconds: int) -> None:
    """Count a failed attempt even though the current transaction is about to roll back."""
    run_after(session, lambda s: hit_now(s, keys, window_seconds=window_seconds))


def clear(session: Session, key: str) -> None:
    session.exec(delete(ThrottleBucket).where(ThrottleBucket.key == key))


def purge_expired(session: Session, *, older_than_seconds: int) -> int:
    cutoff = clock.now() - timedelta(seconds=older_than_seconds)
    result = session.exec(delete(ThrottleBucket).where(ThrottleBucket.window_started_at < cutoff))
    return result.rowcount or 0
