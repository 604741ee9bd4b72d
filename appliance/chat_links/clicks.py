"""Clicks are statistics, counted without slowing the redirect: each is noted in memory and a
thread writes them in batches (every FLUSH_SECONDS, or sooner past BATCH). A clean stop writes what
is left (`stop()`); a crash loses at most the last FLUSH_SECONDS of clicks, never a redirect.

Link previews (WhatsApp, Facebook, Telegram, Slack, Twitter/X, LinkedIn, Discord, iMessage...) and
known crawlers fetch the address without anyone clicking: they are redirected but not counted."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import threading
from urllib.parse import urlsplit

from appliance.core import clock, runtime
from appliance.core.rows import insert_many

log = logging.getLogger(__name__)

FLUSH_SECONDS, BATCH = 0.5, 2000
_NOT_PEOPLE = re.compile(
    r"bot\b|bot/|crawler|spider|slurp|preview|facebookexternalhit|facebookcatalog|whatsapp|telegram|slack|"
    r"discord|linkedin|twitter|skypeuri|embedly|pinterest|vkshare|w3c_validator|headless|lighthouse|"
    r"curl/|wget/|python-requests|python-urllib|go-http-client|okhttp|java/|httpclient|facebot|applebot",
    re.IGNORECASE)


def is_person(user_agent: str) -> bool:
    return bool(user_agent) and _NOT_PEOPLE.search(user_agent) is None


def family(user_agent: str) -> str:
    ua = user_agent.lower()
    for needle, name in (("android", "android"), ("iphone", "iphone"), ("ipad", "ipad"), ("windows", "windows"),
                         ("macintosh", "mac"), ("linux", "linux")):
        if needle in ua:
            return name
    return "other"


def referrer_host(referrer: str) -> str | None:
    if not referrer:
        return None
    try:
        return (urlsplit(referrer).hostname or "")[:120] or None
    except ValueError:
        return None


class ClickRecorder:
    """The process's pending clicks and the thread that writes them."""

    def __init__(self):
        self._pending: list[dict] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def note(self, link_id: str, user_agent: str, referrer: str, address: str) -> None:
        now = clock.now().timestamp()
        day = int(now // 86400)
        key = runtime.get().keyring.derive("chat-link-visitors")
        visitor = hmac.new(key, f"{address}|{day}".encode(), hashlib.sha256).hexdigest()[:16]
        click = {"link_id": link_id, "clicked_ms": int(now * 1000), "referrer_host": referrer_host(referrer),
                 "agent_family": family(user_agent), "visitor": visitor}
        with self._lock:
            self._pending.append(click)
            many = len(self._pending) >= BATCH
        if many:
            self._wake.set()
        if self._thread is None:  # no server thread (tests, the CLI): written at once
            self.flush()

    def flush(self) -> int:
        with self._lock:
            taken, self._pending = self._pending, []
        if not taken:
            return 0
        from appliance.chat_links.models import LinkClick
        try:
            with runtime.get().db.unit_of_work(write=True) as session:
                insert_many(session, LinkClick.__table__, taken)
        except Exception:  # noqa: BLE001  (kept for the next try, not lost)
            log.exception("could not write %d link clicks; trying again", len(taken))
            with self._lock:
                self._pending[:0] = taken
            return 0
        return len(taken)

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="link-clicks", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(FLUSH_SECONDS)
            self._wake.clear()
            self.flush()

    def stop(self) -> None:
        """Write what is left (a clean stop loses no click)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        self.flush()


recorder = ClickRecorder()
