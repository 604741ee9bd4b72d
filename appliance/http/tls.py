"""TLS inside waitress's own I/O loop (APPLIANCE_TLS): a channel that runs an ssl.SSLObject over
MemoryBIOs, so HTTPS keeps everything the HTTP listener has (the connection limit, idle and header
timeouts, disconnect detection for live streams, REMOTE_ADDR) at its throughput (measured in
tests/bench/bench_inbound.py --https: 85-120% of plain HTTP on one server).

Why not the alternatives (measured, issue 45's note): wrapping waitress's listening socket cannot work
(its non-blocking `recv` meets SSLWantReadError and drops the connection); cheroot handshakes on its
one accept thread (a silent connection stalls every new client for its timeout); an asyncio TLS front
cost 15% more CPU per request and only just reached 85%; hypercorn (ASGI) leaked a thread per live
stream whose client left.

- `handle_read`: raw bytes -> incoming BIO -> handshake or `SSLObject.read` until it wants more;
  whatever TLS has to say (handshake records, session tickets, alerts) goes to a raw out buffer.
- `send` (called by waitress with plaintext, from the loop or a task thread): encrypt, queue the
  records in the raw out buffer, write what the socket takes; report the plaintext as taken unless
  the raw buffer is over RAW_HIGH (then 0: waitress keeps it and its high-water mark holds the task).
- `writable`/`handle_write`: also flush the raw buffer, and hold back a close waitress decided on
  before the write step (after a `Connection: close` response, or its idle sweep) until the raw
  buffer is out. Known gap (issue 45's note): a close waitress decides inside its write step can
  still cut the last queued records of a large `Connection: close` answer to a slow reader; the
  first fix (deferring every close with records queued) stalled the loop and was taken back.
- One lock per channel around the SSLObject: OpenSSL's SSL objects must not be used from two threads
  at once, and CPython releases the GIL inside SSL_read/SSL_write.

It overrides waitress's channel internals (`handle_read`, `handle_write`, `readable`, `writable`,
`send`): waitress is pinned, and tests/http/test_https.py streams, uploads and downloads through it.
"""

from __future__ import annotations

import ssl
import threading
import time

from waitress.channel import HTTPChannel

RAW_HIGH = 256 * 1024  # encrypted bytes a channel holds before it refuses more plaintext
HANDSHAKE_SECONDS = 10  # a connection that has not finished its handshake by then is closed (server._sweep)


class TLSChannel(HTTPChannel):
    ssl_context: ssl.SSLContext  # set on the subclass made by `tls_channel_class`

    def __init__(self, server, sock, addr, adj, map=None):
        self._tls_lock = threading.Lock()
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self._tls = self.ssl_context.wrap_bio(self._incoming, self._outgoing, server_side=True)
        self._raw = bytearray()  # encrypted bytes waiting for the socket
        self._raw_progress = time.time()  # when the socket last took some of them
        self._handshaken = False
        self._eof = False
        super().__init__(server, sock, addr, adj, map)

    # --- raw side ---------------------------------------------------------------------------
    def _drain_outgoing(self) -> None:
        pending = self._outgoing.pending
        if pending:
            self._raw += self._outgoing.read(pending)

    def _push_raw(self) -> None:
        """Write what the socket takes now (caller holds _tls_lock)."""
        while self._raw:
            try:
                n = self.socket.send(self._raw)
            except (BlockingIOError, InterruptedError):
                return
            if not n:
                return
            del self._raw[:n]
            self._raw_progress = time.time()

    # --- waitress hooks ---------------------------------------------------------------------
    def writable(self):
        return bool(self._raw) or super().writable()

    def readable(self):
        # during the handshake waitress's own conditions say nothing useful; keep reading
        return (not self._handshaken and not self._eof) or super().readable()

    def handle_write(self):
        if self._raw:
            try:
                with self._tls_lock:
                    self._push_raw()
            except OSError:
                self.handle_close()
                return
        if self._raw and (self.will_close or (self.close_when_flushed and not self.total_outbufs_len)):
            # waitress would close now (its outbufs are empty), but encrypted bytes are still queued
            # here: close once they are out, or once the client has taken nothing for channel_timeout
            if time.time() - self._raw_progress > self.adj.channel_timeout:
                self.handle_close()
            return
        super().handle_write()

    def handle_read(self):
        try:
            raw = self.socket.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.handle_close()
            return
        if not raw:
            # as wasyncore.dispatcher.recv does: close at once; a running task sees connected False
            # (waitress.client_disconnected) and its next write raises ClientDisconnected
            self._eof = True
            self.handle_close()
            return
        plain = []
        try:
            with self._tls_lock:
                self._incoming.write(raw)
                if not self._handshaken:
                    try:
                        self._tls.do_handshake()
                        self._handshaken = True
                    except ssl.SSLWantReadError:
                        pass
                if self._handshaken:
                    while True:
                        try:
                            chunk = self._tls.read(65536)
                        except ssl.SSLWantReadError:
                            break
                        except ssl.SSLZeroReturnError:  # close_notify
                            self._eof = True
                            break
                        if not chunk:
                            break
                        plain.append(chunk)
                self._drain_outgoing()
                self._push_raw()
        except (ssl.SSLError, OSError):
            # a failed handshake or a broken record: send the alert if we can, then close
            try:
                with self._tls_lock:
                    self._drain_outgoing()
                    self._push_raw()
            except OSError:
                pass
            self.handle_close()
            return
        if plain:
            self.last_activity = time.time()
            self.received(b"".join(plain))
        if self._eof:  # close_notify: the client is done with this connection
            self.handle_close()

    def send(self, data, do_close=True):
        """Plaintext from waitress -> records queued and pushed; returns the plaintext taken."""
        try:
            with self._tls_lock:
                if len(self._raw) >= RAW_HIGH:
                    self._push_raw()
                    if len(self._raw) >= RAW_HIGH:
                        return 0
                taken = self._tls.write(data)
                self._drain_outgoing()
                self._push_raw()
                return taken
        except (ssl.SSLError, OSError):
            if do_close:
                self.handle_close()
            return 0

    @property
    def handshake_overdue(self) -> bool:
        return not self._handshaken and time.time() - self.creation_time > HANDSHAKE_SECONDS


def tls_channel_class(base: type[HTTPChannel], context: ssl.SSLContext) -> type[HTTPChannel]:
    """A channel class that speaks TLS with `context` (whose SNI callback may hand each handshake
    the newest certificate's context), on top of `base` (the server's _TimedChannel)."""
    return type("TLS" + base.__name__, (TLSChannel, base), {"ssl_context": context})
