"""POSTs to receivers, many in the air at once on one thread: libcurl's multi interface (pycurl).

The webhook sender makes a thousand requests a second on the same core as the inbox's own work.
On worker threads with the standard library's http.client a request cost ~290 µs of CPU (header
parsing in Python, thread switches at every send and answer); here ~180 µs, signing included, most
of it libcurl's and the kernel's (tests/bench/bench_posting.py; bench_webhooks.py end to end).
Handles as `appliance.libcurl` makes them (no redirects followed: a redirect is an answer, logged
with where it pointed). The first KEPT bytes of an answer are kept; a longer answer is cut there.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable

import pycurl

from appliance import libcurl

log = logging.getLogger(__name__)
KEPT = 2048  # bytes of a response kept in the log
POLL_SECONDS = 0.01  # how soon a new request starts while others are in the air


@dataclass(frozen=True)
class Answer:
    status: int | None  # the receiver's HTTP status; None when it gave none
    response: str | None
    error: str | None  # in words; None for an answer (a redirect says where it pointed)
    duration_ms: int


class Poster:
    """Takes requests from any thread (`post`); answers each on its own thread through
    `on_answer(tag, Answer)`, which may post again (a chain's next event)."""

    def __init__(self, on_answer: Callable[[object, Answer], None], *, name: str = "webhook-posts"):
        self._on_answer = on_answer
        self._incoming: queue.SimpleQueue = queue.SimpleQueue()
        self._multi = pycurl.CurlMulti()
        self._idle: list[pycurl.Curl] = []  # handles kept for reuse; connections live in the multi's cache
        self._active = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def post(self, url: str, body: bytes, headers: dict[str, str], *, timeout: float, tag: object) -> None:
        self._incoming.put((url, body, headers, timeout, tag))

    def close(self) -> None:
        """Waits for the requests in the air (and any their answers post) to be answered."""
        self._incoming.put(None)
        self._thread.join()
        for handle in self._idle:
            handle.close()
        self._multi.close()

    def _run(self) -> None:
        closing = False
        while True:
            closing = self._take(block=self._active == 0 and not closing) or closing
            if closing and self._active == 0 and self._incoming.empty():
                return
            if self._active:
                self._multi.select(POLL_SECONDS)
                self._perform()

    def _take(self, *, block: bool) -> bool:
        """Starts what was posted; answers whether `close` was called."""
        closing = False
        try:
            item = self._incoming.get() if block else self._incoming.get_nowait()
            while True:
                if item is None:
                    closing = True
                else:
                    self._start(*item)
                item = self._incoming.get_nowait()
        except queue.Empty:
            return closing

    def _start(self, url: str, body: bytes, headers: dict[str, str], timeout: float, tag: object) -> None:
        handle = self._idle.pop() if self._idle else libcurl.new_handle()
        kept = bytearray()

        def keep(data: bytes) -> int:
            if len(kept) > KEPT:
                handle.cut = True
                return 0  # enough: libcurl stops reading (and drops the connection)
            kept.extend(data)
            return len(data)

        try:  # a URL libcurl will not take (not ASCII, say) fails this request, not the thread
            handle.setopt(pycurl.URL, libcurl.ascii_url(url))
            handle.setopt(pycurl.POSTFIELDS, body)
            handle.setopt(pycurl.HTTPHEADER, libcurl.header_lines(headers))
            handle.setopt(pycurl.TIMEOUT_MS, max(1, int(timeout * 1000)))
            handle.setopt(pycurl.WRITEFUNCTION, keep)
            handle.tag, handle.kept, handle.cut, handle.timeout, handle.began = tag, kept, False, timeout, time.perf_counter()
            self._multi.add_handle(handle)
        except (pycurl.error, UnicodeError, TypeError, ValueError) as exc:
            self._answer(tag, Answer(None, None, f"The request could not start: {exc}"[:300], 0))
            self._idle.append(handle)
            return
        self._active += 1

    def _perform(self) -> None:
        while self._multi.perform()[0] == pycurl.E_CALL_MULTI_PERFORM:
            pass
        while True:
            waiting, done, failed = self._multi.info_read()
            for handle in done:
                self._finish(handle, None, None)
            for handle, code, message in failed:
                self._finish(handle, code, message)
            if not waiting:
                return

    def _finish(self, handle: pycurl.Curl, code: int | None, message: str | None) -> None:
        took = int((time.perf_counter() - handle.began) * 1000)
        status = handle.getinfo(pycurl.RESPONSE_CODE) or None
        text = bytes(handle.kept[:KEPT]).decode("utf-8", "replace")
        if code is None or (code == pycurl.E_WRITE_ERROR and handle.cut):
            location = handle.getinfo(pycurl.REDIRECT_URL) if status and 300 <= status < 400 else None
            said = f"Redirected to {location[:200]} (redirects are not followed)." if location else None
            answer = Answer(status, text, said, took)
        else:
            answer = Answer(None, None, in_words(code, message, handle.timeout), took)
        tag = handle.tag
        self._multi.remove_handle(handle)
        handle.kept = handle.tag = None
        self._idle.append(handle)
        self._active -= 1
        self._answer(tag, answer)

    def _answer(self, tag: object, answer: Answer) -> None:
        try:
            self._on_answer(tag, answer)
        except Exception:  # a bug of the caller's must not stop every other request
            log.exception("handling a webhook answer failed")


_CLOSED = {pycurl.E_GOT_NOTHING}
_RESET = {pycurl.E_RECV_ERROR, pycurl.E_SEND_ERROR}
_NOT_HTTP = {pycurl.E_UNSUPPORTED_PROTOCOL, pycurl.E_FTP_WEIRD_SERVER_REPLY}  # CURLE_WEIRD_SERVER_REPLY, by its old name
_TLS = {pycurl.E_SSL_CONNECT_ERROR, pycurl.E_PEER_FAILED_VERIFICATION, pycurl.E_SSL_CACERT_BADFILE,
        pycurl.E_SSL_CERTPROBLEM, pycurl.E_SSL_CIPHER, pycurl.E_SSL_ENGINE_NOTFOUND}


def in_words(code: int, message: str | None, timeout: float) -> str:
    """libcurl's error as a sentence a person can act on."""
    if code == pycurl.E_OPERATION_TIMEDOUT:
        return f"No answer within {timeout:g} s."
    if code == pycurl.E_COULDNT_CONNECT:
        return "Connection refused: nothing listens at that address."
    if code in _CLOSED:
        return "The receiver closed the connection without answering."
    if code in _RESET:
        return "The connection was reset by the receiver."
    if code in _NOT_HTTP:
        return "The receiver answered something that is not HTTP."
    if code in (pycurl.E_COULDNT_RESOLVE_HOST, pycurl.E_COULDNT_RESOLVE_PROXY):
        return "The host name does not resolve."
    if code in _TLS:
        return f"The secure connection failed: {message or code}."[:300]
    return f"The connection failed: {message or code}"[:300]
