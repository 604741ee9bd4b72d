"""Hands new messages of visitors' conversations to their browsers: one thread per process, while
visitors are connected to it. It follows the outbox as the live streams do (woken by every commit
that emitted events, in this process or, on PostgreSQL, in another: core/commit_listener.py), so an
answer written anywhere (the inbox, the bot, the API, another process) reaches the visitor's socket
in this one. A message missed while a visitor was away is in the history their next `ready` brings."""

from __future__ import annotations

import json
import logging
import threading
import time

from sqlmodel import select

from appliance.core import events, runtime
from appliance.core.rows import driver_connection
from appliance.live import feed
from appliance.messages.models import Message
from appliance.webchat import visitors

log = logging.getLogger("appliance.webchat")
BATCH = 500
LOOK_SECONDS = 2.0  # the longest it waits without looking, should a wake-up be lost
# The shortest time between two looks: under a busy number's hundreds of commits a second it reads
# what accumulated ten times a second, not once per commit.
MIN_LOOK_INTERVAL = 0.1


class Relay:
    def __init__(self, gateway):
        self.gateway = gateway
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def ensure_running(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="webchat-relay", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        database, cursor = None, 0
        seen = feed.signal.version
        while self.gateway.attached and not feed.signal.closing:
            if runtime.get().db is not database:  # the first pass (or, in tests, another runtime's database)
                database = runtime.get().db
                with database.unit_of_work(write=False) as session:
                    cursor = feed.position(session)
            feed.signal.wait(seen, LOOK_SECONDS)
            seen = feed.signal.version
            time.sleep(MIN_LOOK_INTERVAL)
            try:
                cursor = self._pass(database, cursor)
            except Exception:  # a bad pass must not end the chat for everyone; the next one retries
                log.exception("web chat relay pass failed")
        with self._lock:
            self._thread = None

    def _pass(self, database, cursor: int) -> int:
        while True:
            organizations = self.gateway.organizations()
            if not organizations:
                return cursor
            with database.unit_of_work(write=False) as session:
                driver = driver_connection(session)
                # Only the organizations with a visitor here: a busy number of another one costs nothing.
                rows = driver.execute(
                    f"SELECT id, data FROM outbox_events WHERE id > ? AND name = ? AND organization_id IN "
                    f"({', '.join('?' * len(organizations))}) ORDER BY id LIMIT ?",
                    (cursor, events.MESSAGE_CREATED, *organizations, BATCH)).fetchall()
                if not rows:
                    return cursor
                cursor = rows[-1][0]
                wanted, inbound = {}, set()
                for _, data in rows:
                    data = json.loads(data) if isinstance(data, str) else data
                    wanted[data.get("messageId")] = data.get("conversationId")
                    if data.get("direction") == "in":
                        inbound.add(data.get("messageId"))
                following = self.gateway.following(set(wanted.values()))
                # A visitor's own message goes to their other tabs; the tab that sent it has it.
                ids = [message_id for message_id, conversation_id in wanted.items() if conversation_id in following
                       and (message_id not in inbound or len(following[conversation_id]) > 1)]
                messages = session.exec(select(Message).where(Message.id.in_(ids))).all() if ids else []
                shown = [(message.conversation_id, visitors.shown(message)) for message in messages if not message.hidden]
            for conversation_id, message in shown:
                for sid in following.get(conversation_id, ()):
                    self.gateway.send(sid, message)
            if len(rows) < BATCH:
                return cursor
