"""Busy spans of the connected calendar, for slots and bookings: asked from Google (free/busy) at
most once a minute per organization and range, in memory. When Google cannot answer, the agenda
goes on without them (the slots say `busyChecked: false`) rather than refusing every booking."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

from appliance.agenda import provider
from appliance.agenda.models import CalendarConnection
from appliance.core import runtime
from appliance.google_calendar.client import CalendarError

CACHE_SECONDS = 60.0
_cache: dict[tuple, tuple[float, list]] = {}
_lock = threading.Lock()


def busy_spans(organization_id: str, start: datetime, end: datetime) -> list[tuple[datetime, datetime]] | None:
    """The busy spans overlapping [start, end) when the connection blocks busy times; [] when it
    does not (or none is connected); None when Google could not be asked."""
    database = runtime.get().db
    with database.unit_of_work(write=False) as session:
        connection = session.get(CalendarConnection, organization_id)
        if connection is None or not connection.connected or not connection.block_busy_enabled:
            return []
    # Asked by whole days (the agenda asks a day or a booking at a time): one answer serves both.
    low = start.replace(hour=0, minute=0, second=0, microsecond=0)
    high = end.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    key = (organization_id, low, high)
    with _lock:
        cached = _cache.get(key)
        if cached and cached[0] > time.monotonic():
            return cached[1]
    spans = _ask(database, organization_id, low, high)
    if spans is not None:
        with _lock:
            if len(_cache) > 1000:
                _cache.clear()
            _cache[key] = (time.monotonic() + CACHE_SECONDS, spans)
    return spans


def forget(organization_id: str) -> None:
    """A change in the calendar was made by us (an event pushed): ask again next time."""
    with _lock:
        for key in [k for k in _cache if k[0] == organization_id]:
            del _cache[key]


def _ask(database, organization_id: str, low: datetime, high: datetime) -> list | None:
    """Asked inside requests (perhaps holding the write lock): nothing is written here; a token
    refreshed is used and forgotten, a failure only leaves the spans unknown (the next push
    stores tokens and records failures)."""
    client = provider.google()
    for attempt in range(2):
        token = provider.access_token(database, organization_id, force_refresh=attempt > 0, persist=False)
        if token is None or client is None:
            return None
        try:
            return client.busy(token, low, high)
        except CalendarError as error:
            if error.kind == "unauthorized" and attempt == 0:
                continue  # the token expired early: refresh once
            return None
    return None
