"""POSTs to receivers, many in the air at once on one thread: libcurl's multi interface (pycurl),
driven by its sockets' readiness.

The webhook sender makes a thousand requests a second on the same core as the inbox's own work, so
a request's CPU is the budget that matters. libcurl is told which sockets to watch
(`M_SOCKETFUNCTION`) and asked when to look again (`multi.timeout()`); this thread waits on those sockets
(epoll on Linux, kqueue on macOS, select on Windows: `selectors.DefaultSelector`) and hands libcurl
only the one that is ready (`socket_action`). Calling `multi.perform()` instead walks every transfer
in the air at each wake-up: with 64 in the air, ~14 `recv` calls that find nothing and a `select`
over every socket per request (strace), ~15% of the posting thread's time in the server (perf).
(tests/bench/bench_posting.py measures the CPU of a request; bench_webhooks.py end to end.)

A turn (wait, act, answer) begins at most every TURN_SECONDS. Answered one at a time, a thousand
requests a second made ~1.6 turns a request, each taking the GIL back several times (libcurl's
callbacks) from the threads serving the inbox; turns 5 ms apart answer ~5 requests each, and the
poster's CPU a delivery fell by a quarter to a third with no other load (bench_webhooks --cost:
82-86 -> 54-66 µs), and its share of a core saturated by inbound traffic 7.1-7.4% -> 6.4-6.8%
(measured with the sender's 0.1 s pass in the same commit; there the wait for the GIL already
gathered some). A request's answer waits 2.5 ms more on average, next to the receiver's own time.

Handles as `appliance.libcurl` makes them (no redirects followed: a redirect is an answer, logged
with where it pointed), each reused for request after request with its connection kept alive in the
multi's cache. The first KEPT bytes of an answer are kept; a longer answer is cut there.

Receivers are a tenant's choice: each request's URL is checked against the installation's rule on
addresses (`addresses()`, read per request) and every connection libcurl opens goes through
OPENSOCKETFUNCTION, which sees the very address it is about to connect to and refuses it unless
the rule allows it (a name resolving elsewhere since the URL was saved reaches nothing new). A kept
connection was checked when it was opened.
"""

from __future__ import annotations

import logging
import queue
import selectors
import socket
import threading
import time
from typing import Callable, NamedTuple

import pycurl

from appliance import libcurl
from appliance.address_rule import AddressRule, NotAllowed

log = logging.getLogger(__name__)
KEPT = 2048  # bytes of a response kept in the log
POLL_SECONDS = 0.01  # how soon a request posted from another thread starts while others are in the air
TURN_SECONDS = 0.005  # the least time between two turns (see above)


class Answer(NamedTuple):
    status: int | None  # the receiver's HTTP status; None when it gave none
    response: str | None
    error: str | None  # in words; None for an answer (a redirect says where it pointed)
    duration_ms: int


class _Transfer:
    """A handle and what its current request keeps. The handle's callbacks are set once, when it is
    made: a request only sets what differs (address, body, headers)."""

    __slots__ = ("handle", "kept", "cut", "tag", "timeout", "began", "rule", "origin", "refused")

    def __init__(self):
        self.handle = libcurl.new_handle()
        self.handle.transfer = self
        self.handle.setopt(pycurl.WRITEFUNCTION, self._keep)
        self.handle.setopt(pycurl.OPENSOCKETFUNCTION, self._open_socket)
        self.kept = bytearray()
        self.cut = False
        self.tag = None
        self.timeout = 0.0
        self.began = 0.0
        self.rule: AddressRule | None = None
        self.origin: tuple[str, str, int] = ("", "", 0)
        self.refused: str | None = None

    def _open_socket(self, _purpose, address):
        """libcurl's socket for a connection to `address` (the peer it is about to connect to), only
        when the request's rule allows it; refused, libcurl tries the name's next address, and
        fails with COULDNT_CONNECT when none is left."""
        family, socktype, protocol, peer = address
        refusal = self.rule.refusal(*self.origin, peer[0]) if self.rule is not None else "No rule on addresses."
        if refusal is not None:
            self.refused = refusal
            return pycurl.SOCKET_BAD
        return socket.socket(family, socktype, protocol)

    def _keep(self, data: bytes) -> int:
        if len(self.kept) > KEPT:
            self.cut = True
            return 0  # enough: libcurl stops reading (and drops the connection)
        self.kept += data
        return len(data)


class Poster:
    """Takes requests from any thread (`post`); answers each on its own thread through
    `on_answer(tag, Answer)`, which may post again (a chain's next event). `addresses()` gives the
    rule on addresses each request keeps (installation.addresses.rule in the appliance)."""

    def __init__(self, on_answer: Callable[[object, Answer], None], *, addresses: Callable[[], AddressRule],
                 name: str = "webhook-posts", selector: type[selectors.BaseSelector] = selectors.DefaultSelector):
        self._on_answer = on_answer
        self._addresses = addresses
        self._incoming: queue.SimpleQueue = queue.SimpleQueue()
        self._multi = pycurl.CurlMulti()
        self._multi.setopt(pycurl.M_SOCKETFUNCTION, self._watch)
        self._sockets = selector()
        self._watched: dict[int, int] = {}  # fd: the selector's events it is registered for
        self._idle: list[_Transfer] = []  # kept for reuse; connections live in the multi's cache
        self._active = 0
        self._turn_began = 0.0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def post(self, url: str, body: bytes, headers: dict[str, str], *, timeout: float, tag: object) -> None:
        self._incoming.put((url, body, headers, timeout, tag))

    def close(self) -> None:
        """Waits for the requests in the air (and any their answers post) to be answered."""
        self._incoming.put(None)
        self._thread.join()
        for transfer in self._idle:
            transfer.handle.close()
        self._multi.close()
        self._sockets.close()

    def _run(self) -> None:
        closing = False
        while True:
            closing = self._take(block=self._active == 0 and not closing) or closing
            if closing and self._active == 0 and self._incoming.empty():
                return
            if self._active:
                self._act()

    def _act(self) -> None:
        """Waits for a socket (or libcurl's next timeout, or POLL_SECONDS), lets libcurl act on
        what is ready, and answers the transfers that ended.

        libcurl's timeout is asked for here, once a turn (`multi.timeout()`), rather than told
        through M_TIMERFUNCTION: that callback came twice a request, each time taking the GIL
        back from the request threads."""
        rest = self._turn_began + TURN_SECONDS - time.monotonic()
        if rest > 0:
            time.sleep(rest)  # what comes meanwhile is answered together
        self._turn_began = time.monotonic()
        due_ms = self._multi.timeout()  # -1: libcurl has no timeout pending
        due_at = None if due_ms < 0 else time.monotonic() + due_ms / 1000
        if due_ms != 0:
            wait = POLL_SECONDS if due_at is None else min(POLL_SECONDS, due_ms / 1000)
            if self._watched:
                ready = self._sockets.select(wait)
            else:  # nothing to wait on yet (Windows' select refuses an empty set): libcurl's timeout
                time.sleep(wait)
                ready = ()
            for key, events in ready:
                self._multi.socket_action(key.fd, (pycurl.CSELECT_IN if events & selectors.EVENT_READ else 0)
                                          | (pycurl.CSELECT_OUT if events & selectors.EVENT_WRITE else 0))
        if due_at is not None and time.monotonic() >= due_at:
            self._multi.socket_action(pycurl.SOCKET_TIMEOUT, 0)
        while True:
            waiting, done, failed = self._multi.info_read()
            for handle in done:
                self._finish(handle.transfer, None, None)
            for handle, code, message in failed:
                self._finish(handle.transfer, code, message)
            if not waiting:
                return

    def _watch(self, what: int, fd: int, _multi, _socket_data) -> None:
        """libcurl's socket callback: which of its sockets to wait on, and for what. (A connection
        going back to the cache is removed and, when reused, watched again.)"""
        events = (selectors.EVENT_READ if what & pycurl.POLL_IN else 0) | (selectors.EVENT_WRITE if what & pycurl.POLL_OUT else 0)
        before = self._watched.get(fd)
        if before == events:
            return
        if before is not None:
            del self._watched[fd]
            if events:
                try:
                    self._sockets.modify(fd, events)
                    self._watched[fd] = events
                    return
                except OSError:  # closed and its number reused before libcurl said so
                    pass
            self._sockets.unregister(fd)
        if events:  # POLL_REMOVE: none
            self._sockets.register(fd, events)
            self._watched[fd] = events

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
        transfer = self._idle.pop() if self._idle else _Transfer()
        handle = transfer.handle
        try:  # a URL libcurl will not take (not ASCII, say) fails this request, not the thread
            transfer.rule = self._addresses()
            transfer.origin, transfer.refused = transfer.rule.check_url(url), None
            handle.setopt(pycurl.URL, libcurl.ascii_url(url))
            handle.setopt(pycurl.POSTFIELDS, body)
            handle.setopt(pycurl.HTTPHEADER, libcurl.header_lines(headers))
            if timeout != transfer.timeout:
                handle.setopt(pycurl.TIMEOUT_MS, max(1, int(timeout * 1000)))
                transfer.timeout = timeout
            transfer.tag, transfer.cut, transfer.began = tag, False, time.perf_counter()
            self._multi.add_handle(handle)
        except NotAllowed as refused:
            self._idle.append(transfer)
            self._answer(tag, Answer(None, None, str(refused), 0))
            return
        except (pycurl.error, UnicodeError, TypeError, ValueError) as exc:
            self._idle.append(transfer)
            self._answer(tag, Answer(None, None, f"The request could not start: {exc}"[:300], 0))
            return
        self._active += 1

    def _finish(self, transfer: _Transfer, code: int | None, message: str | None) -> None:
        handle = transfer.handle
        took = int((time.perf_counter() - transfer.began) * 1000)
        if code is None or (code == pycurl.E_WRITE_ERROR and transfer.cut):
            status = handle.getinfo(pycurl.RESPONSE_CODE) or None
            location = handle.getinfo(pycurl.REDIRECT_URL) if status and 300 <= status < 400 else None
            said = f"Redirected to {location[:200]} (redirects are not followed)." if location else None
            answer = Answer(status, transfer.kept[:KEPT].decode("utf-8", "replace"), said, took)
        elif transfer.refused is not None and code == pycurl.E_COULDNT_CONNECT:
            answer = Answer(None, None, transfer.refused, took)  # every address of the name was refused
        else:
            answer = Answer(None, None, in_words(code, message, transfer.timeout), took)
        tag = transfer.tag
        self._multi.remove_handle(handle)
        transfer.tag = None
        transfer.kept.clear()
        self._idle.append(transfer)
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
