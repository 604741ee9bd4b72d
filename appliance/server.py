"""The running server: waitress and the background workers (appliance/worker_registry.py: the
queue's consumers, the sender, the bots...), started and stopped together.

The workers run in one process at a time: on SQLite the one holding the data directory, on
PostgreSQL the one holding the workers' lease (core/worker_lease.py). APPLIANCE_ROLE splits the
two halves between processes: `web` serves and runs no workers, `worker` runs them and binds no port.

Signals only set an event: waitress runs its I/O loop in a thread of its own and the main thread
waits. (Raising from a signal handler instead is unreliable: when the signal lands inside one of
waitress's channel callbacks, waitress logs the exception and keeps serving.)
"""

from __future__ import annotations

import errno
import os
import re
import socket
import functools
import gc
import logging
import select
import signal
import threading
import time
from urllib.parse import quote

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server

from appliance.app import create_app
from appliance.backups import restore, service as backups
from appliance.core import data_dir, lifecycle, postgres_engine, queue, runtime, workers
from appliance.core.db import StartupError
from appliance.core.worker_lease import WorkerLease
from appliance.installation import https, public_address, tunnel
from appliance.http.tls import tls_channel_class
from appliance.live import feed as live_feed
from appliance.settings import Settings
from appliance.worker_registry import WORKERS

log = logging.getLogger("appliance.server")
DRAIN_SECONDS = 10  # how long requests in progress may take to finish after a stop signal

# Slow or idle clients must not hold the server's connections: 110 sockets trickling their headers
# once stopped all service, unauthenticated (waitress took 100 connections and kept each while
# bytes kept coming, up to 120 s idle). A connection costs a socket, not a thread (waitress reads
# requests on its I/O loop and hands whole ones to the threads), so there is room for many, and
# each must earn its place: its request's headers within HEADER_SECONDS of their first byte, and
# a connection with nothing asked closes after IDLE_SECONDS (a live stream is never idle: its
# request runs). An attacker then needs a thousand sockets renewed every 10 seconds.
CONNECTION_LIMIT = 1000 if hasattr(select, "poll") else 500  # select() on Windows watches at most 512
HEADER_SECONDS = 10
IDLE_SECONDS = 30
SWEEP_SECONDS = 1  # how often waitress looks for connections to close (its cleanup_interval)


def _building(environ, start_response):
    """The app's stand-in while it is built (see serve)."""
    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
    return [b"starting"]


class _TimedChannel(HTTPChannel):
    """A connection that notes when the request it is reading began."""

    request_began = 0.0

    def received(self, data):
        if self.request is None and data:
            self.request_began = time.time()
        return super().received(data)


def _sweep(listener: BaseWSGIServer, now: float) -> None:
    """waitress's own sweep (idle connections), then connections whose request's headers are still
    coming HEADER_SECONDS after they began (a slow body of a finished head is not cut: uploads)."""
    BaseWSGIServer.maintenance(listener, now)
    cutoff = now - HEADER_SECONDS
    for channel in list(listener.active_channels.values()):
        request = channel.request
        if request is not None and not request.headers_finished and not channel.requests \
                and getattr(channel, "request_began", now) < cutoff:
            channel.will_close = True
        elif getattr(channel, "handshake_overdue", False):  # HTTPS: no handshake within tls.HANDSHAKE_SECONDS
            channel.will_close = True


def _close_slow_headers(server) -> None:
    """Every listening socket of the server makes `_TimedChannel`s and sweeps with `_sweep`."""
    listeners = [server] if isinstance(server, BaseWSGIServer) else \
        [d for d in server.map.values() if isinstance(d, BaseWSGIServer)]
    for listener in listeners:
        listener.channel_class = _TimedChannel
        listener.maintenance = functools.partial(_sweep, listener)


# With TLS on, plain HTTP still answers these: the ACME server's challenge, monitors' health checks,
# and the appliance's calls to its own simulator (sandbox mode) on the served address.
_PLAIN_HTTP_PATHS = ("/.well-known/acme-challenge/", "/health", "/netsim/")
_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]")  # a name or a bracketed address, nothing else


def _redirecting_to_https(app, https_port: int):
    """The HTTP listener's application with TLS on: 308 to the same address over HTTPS, once a
    certificate is served (before, with ACME's first certificate still coming, plain HTTP keeps
    working: the Go live page must stay reachable). To the public address when it is https (a
    router forwarding 443 to another port), else to the request's host on the HTTPS port."""
    def application(environ, start_response):
        path = environ.get("PATH_INFO") or "/"
        if path.startswith(_PLAIN_HTTP_PATHS) or not https.serving():
            return app(environ, start_response)
        public = public_address.base_url()
        if public.startswith("https://"):
            origin = public
        else:
            host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or "localhost"
            host = host if host.endswith("]") or ":" not in host else host.rsplit(":", 1)[0]
            if not _HOST.fullmatch(host):
                host = "localhost"
            origin = f"https://{host}{'' if https_port == 443 else f':{https_port}'}"
        query = environ.get("QUERY_STRING")
        location = f"{origin}{quote(path, safe='/%:@!$&()*+,;=-._~')}{'?' + quote(query, safe='=&%+') if query else ''}"
        start_response("308 Permanent Redirect", [("Location", location), ("Content-Length", "0")])
        return [b""]
    return application


def _https_listener(server, settings: Settings, context) -> BaseWSGIServer:
    """The HTTPS listener beside the HTTP one: the same I/O loop, threads and limits (waitress's
    map and task dispatcher are shared), its channels speaking TLS (http/tls.py)."""
    try:
        listener = create_server(_building, map=server._map, _dispatcher=server.task_dispatcher, host=settings.host,
                                 port=settings.https_port, url_scheme="https", ident="appliance",
                                 channel_timeout=IDLE_SECONDS, cleanup_interval=SWEEP_SECONDS,
                                 # one budget of open files for both listeners' connections
                                 connection_limit=max(100, _room_for_connections(2 * CONNECTION_LIMIT) - CONNECTION_LIMIT),
                                 asyncore_use_poll=True,
                                 channel_request_lookahead=1)
    except OSError as exc:
        raise StartupError(f"cannot listen for HTTPS on {settings.host}:{settings.https_port}: "
                           f"{exc.strerror or exc}; choose another with APPLIANCE_HTTPS_PORT") from None
    _close_slow_headers(listener)
    listener.channel_class = tls_channel_class(listener.channel_class, context)
    return listener


def _room_for_connections(wanted: int) -> int:
    """The connections this process can hold: the open-file limit raised (within what the system
    allows) to the connections plus room for the database, the queue, files and outgoing calls."""
    try:
        import resource
    except ImportError:  # Windows: no such limit on sockets
        return wanted
    spare = 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted + spare:
        target = wanted + spare if hard == resource.RLIM_INFINITY else min(wanted + spare, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else max(100, min(wanted, soft - spare))


LISTEN_FD = 3  # sd_listen_fds(3)'s first descriptor


class _NoLock:
    def release(self) -> None:
        pass


def _hold_data_dir(settings: Settings):
    """SQLite: the data directory is this server's alone (data_dir.hold). PostgreSQL: processes of
    one installation may share it (its media files); the database's locks keep them apart."""
    if postgres_engine.is_url(settings.database_location):
        return _NoLock()
    if settings.role != "all":
        raise StartupError(f"APPLIANCE_ROLE={settings.role} splits the work between processes that share one "
                           "database: it needs PostgreSQL (APPLIANCE_DATABASE_URL). On SQLite one process does "
                           "everything: leave APPLIANCE_ROLE at all.")
    return data_dir.hold(settings.data_dir)


def serve(settings: Settings) -> bool:
    """Migrate, serve until SIGINT or SIGTERM (or a restore asks for a restart: then answer True),
    then drain requests, stop the workers, close storage. What stops a start (a directory we cannot
    write, another server on it, a port in use) raises StartupError with a sentence, before anything
    was touched. APPLIANCE_ROLE=worker binds no port; web runs no workers."""
    data_dir.check_writable(settings.data_dir)
    lock = _hold_data_dir(settings)  # held until the process ends
    restore.finish_interrupted(settings.data_dir)  # a restore's swap, before anything opens the data
    serves = settings.role in ("all", "web")
    runs_workers = settings.role in ("all", "worker")
    server = _listen(settings, lock) if serves else None
    if server is not None:
        settings = settings.replace(port=server.effective_port)
    app = create_app(settings, migrate=True)
    if server is not None:
        tls_context = https.start(settings)  # APPLIANCE_TLS: the certificate's context, or None
        if tls_context is None:
            server.application = app
        else:
            secure = _https_listener(server, settings, tls_context)
            settings = settings.replace(https_port=secure.effective_port)
            secure.application, server.application = app, _redirecting_to_https(app, secure.effective_port)
    stop = threading.Event()
    received = []

    def on_signal(signum, _frame):
        received.append(signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if server is not None:
        tunnel.start(settings)  # APPLIANCE_TUNNEL=cloudflare: cloudflared, kept running
    # Everything loaded so far (modules, the app, the embedding model's tables) lives as long as the
    # process: out of the collector's sight, a full collection walks only what requests made since,
    # instead of ~280,000 objects (a 250 ms pause that every request waiting then paid; the
    # attendance report's p95 went from 330 ms to its p50 of ~70).
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 10)  # Python's own, which the CLI raised for the start's imports
    if server is not None:
        # Daemon: once requests are drained, the I/O loop ends with the process.
        threading.Thread(target=server.run, name="waitress", daemon=True).start()
        https.run()  # the certificate files' watcher, or ACME (whose challenge the HTTP port now answers)
        log.info("serving on %s:%s (data in %s)", settings.host, server.effective_port, settings.data_dir)
        # Last, and plainly: where to open it, after everything start-up had to say.
        print(f"\nThe appliance is running: open {public_address.base_url()} in a browser.\n", flush=True)
    else:
        log.info("running the background work only (APPLIANCE_ROLE=worker; data in %s)", settings.data_dir)
    lease = WorkerLease(runtime.get().db)
    # The workers of every process (the checkpointer, the link clicks' batches), then, in the
    # process holding the lease, the others (worker_registry.py says which is which).
    own = workers.start(WORKERS, runtime.get(), only=[w.name for w in WORKERS if w.every_process])
    started = None
    try:
        while not stop.is_set() and not lifecycle.restart_requested():
            if runs_workers and started is None:
                started = _start_workers(settings, lease, stop)
            elif started is not None and lease.shared and not lease.held():
                log.error("the workers' lease was lost (the database went away?): stopping the workers and "
                          "standing by, so that no two processes run them")
                started.stop()
                started = None
            stop.wait(1.0)
        if received:
            log.info("received %s, stopping", received[0])
        else:
            log.info("stopping to start again: a restore is swapped in at the start")
    finally:
        if server is not None and lifecycle.restart_requested():
            server.accepting = False  # what arrives now waits in the socket's backlog for the next run
        live_feed.signal.close()  # live-update streams end; browsers reconnect to the next server
        tunnel.stop()
        https.stop()
        if server is not None:
            server.task_dispatcher.shutdown(cancel_pending=False, timeout=DRAIN_SECONDS)
        if started is not None:
            started.stop()  # after the requests drained, in reverse order: each outlives what hands it work
        own.stop()
        lease.release()
        for lane in queue.LANES:
            lane.storage.close()
        runtime.get().db.dispose()
        lock.release()
        log.info("stopped")
    if lifecycle.restart_requested() and server is not None:
        _hand_over_listener(server)
        return True
    return lifecycle.restart_requested()


def _listen(settings: Settings, lock):
    """The HTTP listener, bound before the app is built: the app's links and the sandbox's calls to
    itself need the port actually served (the one the system chose, when asked for port 0).
    Nothing is answered before server.run, so the stand-in app never sees a request."""
    inherited = _inherited_listener()
    where = {"sockets": [inherited]} if inherited is not None else {"host": settings.host, "port": settings.port}
    try:
        server = create_server(_building, **where, threads=settings.threads + settings.webchat_visitors,
                               ident="appliance", channel_timeout=IDLE_SECONDS, cleanup_interval=SWEEP_SECONDS,
                               connection_limit=_room_for_connections(CONNECTION_LIMIT),
                               asyncore_use_poll=True,  # select() stops at descriptor 1024; poll where there is one
                               # reads ahead on a connection, so a stream learns at once that its client left
                               channel_request_lookahead=1)
        _close_slow_headers(server)
    except OSError as exc:
        lock.release()
        if exc.errno == errno.EADDRINUSE:
            raise StartupError(f"port {settings.port} on {settings.host} is already in use (another appliance or "
                               "program?); choose another with --port or APPLIANCE_PORT") from None
        raise StartupError(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from None
    return server


def _start_workers(settings: Settings, lease: WorkerLease, stop: threading.Event):
    """The workers, once this process holds their lease (at once on SQLite; on PostgreSQL perhaps
    after standing by while another process runs them). None when asked to stop meanwhile."""
    if not lease.acquire(stop):
        return None
    backups.recover_interrupted(runtime.get().db, settings)  # a backup the last stop cut short is FAILED
    # In their declared order (worker_registry.py).
    return workers.start(WORKERS, runtime.get(), only=[w.name for w in WORKERS if not w.every_process])


def _inherited_listener() -> socket.socket | None:
    """The HTTP socket the previous run of this process left open for this one (a restart in place),
    passed as systemd's socket activation passes one (LISTEN_PID, LISTEN_FDS, descriptor 3), so
    browsers that connect during the restart wait in its backlog instead of being refused."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or os.environ.get("LISTEN_FDS") != "1":
        return None
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        os.environ.pop(name, None)  # not for the programs this one starts (cloudflared)
    listener = socket.socket(fileno=LISTEN_FD)
    listener.set_inheritable(False)
    return listener


def _hand_over_listener(server) -> None:
    """Leave the HTTP socket open, at descriptor 3, for the run that replaces this process (POSIX;
    elsewhere the next run binds the port again)."""
    if os.name != "posix":
        return
    os.dup2(server.socket.fileno(), LISTEN_FD, inheritable=True)
    os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS="1")
