"""Small in-process caches of rows read on every request (the credentials of API keys), emptied
whenever a unit of work that changed a watched model commits.

Correctness does not rest on the expiry: in this process a change empties the cache when it commits
(and again at flush), and an entry read before that commit is not stored after it (generations). The
expiry (seconds) bounds what another process (the CLI) changed without this process knowing.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from appliance.core.db import after_commit

_caches: list["CommitInvalidatedCache"] = []


class CommitInvalidatedCache:
    def __init__(self, name: str, *, watched: tuple[type, ...], ttl_seconds: float = 2.0, max_entries: int = 1024,
                 monotonic=time.monotonic):
        self.name, self.watched = name, watched
        self.ttl_seconds, self.max_entries = ttl_seconds, max_entries
        self._monotonic = monotonic  # tests pass a clock they move
        self._entries: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._generation = 0
        _caches.append(self)

    @property
    def generation(self) -> int:
        """Read before the database; `put` stores only if nothing was invalidated meanwhile."""
        return self._generation

    def get(self, key) -> Any | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= self._monotonic():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key, value, *, generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                return  # a change committed since this value was read
            self._entries[key] = (self._monotonic() + self.ttl_seconds, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._entries.clear()


def clear_all() -> None:
    """Empty every cache (a runtime starts on another database: tests, the CLI)."""
    for cache in _caches:
        cache.clear()


@event.listens_for(Session, "after_flush")
def _invalidate_on_change(session: Session, _flush_context) -> None:
    changed = (*session.new, *session.dirty, *session.deleted)
    for cache in _caches:
        if any(isinstance(obj, cache.watched) for obj in changed):
            cache.clear()  # now, and again once the change is visible to everyone
            after_commit(session, cache.clear)
