"""The running server: waitress and the in-process queue consumer, started and stopped together.

This is the one place that assumes a single process (the consumer lives here).
"""

from __future__ import annotations

import logging
import signal

from waitress.server import create_server

from appliance.app import create_app
from appliance.core import queue, runtime
from appliance.settings import Settings

log = logging.getLogger("appliance.server")


class _Stop(Exception):
    pass


def _raise_stop(signum, _frame):
    raise _Stop(signal.Signals(signum).name)


def serve(settings: Settings) -> None:
    """Migrate, serve until SIGINT or SIGTERM, then stop the consumer and close storage."""
    app = create_app(settings, migrate=True)
    server = create_server(app, host=settings.host, port=settings.port, threads=settings.threads,
                           ident="appliance", channel_timeout=120)
    consumer = queue.make_consumer(settings.queue_workers)
    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGINT, _raise_stop)
    consumer.start()
    log.info("serving on http://%s:%s (data in %s)", settings.host, server.effective_port,
             settings.data_dir.resolve())
    try:
        server.run()
    except _Stop as stop:
        log.info("received %s, stopping", stop)
    finally:
        server.close()
        consumer.stop(graceful=True)
        queue.huey.storage.close()
        runtime.get().db.dispose()
        log.info("stopped")
