"""Commits of other processes, heard at once (PostgreSQL's LISTEN/NOTIFY).

A transaction that emits events also says `NOTIFY appliance_events` (core/events.py): PostgreSQL
delivers it to every listening session when, and only if, the transaction commits, once however
many events it emitted. Each process sharing the database keeps one session listening on a
connection of its own (`CommitListener`) and calls its hook for every notification: the live
streams of a web process then read the events a worker process committed within milliseconds,
instead of at their next look (live/feed.py's `POLL_SECONDS`, which stays as the net under this).

Should the connection break (the server restarted), the listener connects again after a pause
and calls the hook once, since commits made meanwhile were not heard. On SQLite one process does
everything and its commits wake its streams directly: there is nothing to listen to.
"""

from __future__ import annotations

import logging
import threading

import psycopg

from appliance.core import postgres_engine

log = logging.getLogger(__name__)

APPLICATION_NAME = "appliance commit listener"  # how its session shows in pg_stat_activity
RECONNECT_SECONDS = 1.0
# How long one wait for notifications lasts before the thread looks whether it should stop.
WAIT_SECONDS = 0.5


class CommitListener:
    """A thread that calls `on_commit()` after every commit, in any process, that emitted events."""

    def __init__(self, url: str, on_commit):
        self._url = url
        self._on_commit = on_commit
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="commit listener", daemon=True)
        self._thread.start()

    def listening(self, timeout: float) -> bool:
        """Whether its session listens (within `timeout`): what is committed from then on is heard."""
        return self._listening.wait(timeout)

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(WAIT_SECONDS + postgres_engine.CONNECT_TIMEOUT_SECONDS)
            self._thread = None

    def _run(self) -> None:
        missed = False
        while not self._stopping.is_set():
            try:
                with postgres_engine.connect(self._url, application_name=APPLICATION_NAME) as connection:
                    connection.execute(f"LISTEN {postgres_engine.EVENTS_CHANNEL}")
                    self._listening.set()
                    if missed:
                        self._heard()  # commits made while it was away
                    while not self._stopping.is_set():
                        for _ in connection.notifies(timeout=WAIT_SECONDS):  # ends within WAIT_SECONDS
                            self._heard()
            except psycopg.Error as exc:
                self._listening.clear()
                missed = True
                log.warning("the commit listener lost its connection (%s); connecting again", type(exc).__name__)
                self._stopping.wait(RECONNECT_SECONDS)

    def _heard(self) -> None:
        try:
            self._on_commit()
        except Exception:
            log.exception("the commit listener's hook failed")
