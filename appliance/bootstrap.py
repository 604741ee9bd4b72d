"""Builds the runtime from settings: checks the machine, opens storage, points the queue."""

from __future__ import annotations

import logging

from appliance.backups import upgrade
from appliance.core import cache, queue, runtime
from appliance.core.crypto import Keyring, load_master_key
from appliance.core.data_dir import check_writable, make_private
from appliance.core import postgres_engine
from appliance.core.db import Database
from appliance.core.sqlite_engine import check_sqlite_runtime
from appliance.settings import Settings


# Libraries that narrate at INFO: alembic every migration step (a fresh database: ~50 lines), Huey
# every task run and every periodic task scheduled (two dozen lines a minute). At the default level
# they would bury what start-up says; APPLIANCE_LOG_LEVEL=DEBUG shows them again. Their warnings
# and errors always show.
CHATTY_LOGGERS = ("alembic", "huey")


def _configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    threshold = logging.getLevelName(level)
    for name in CHATTY_LOGGERS:  # (a logger's own level is what filters what it propagates)
        logging.getLogger(name).setLevel(logging.NOTSET if threshold <= logging.DEBUG
                                         else max(logging.WARNING, threshold))


def start(settings: Settings, *, migrate: bool = False, queue_immediate: bool = False) -> runtime.Runtime:
    """Prepare everything the app, the consumer and the CLI share; raise StartupError if unfit."""
    _configure_logging(settings.log_level.upper())
    # The engine's own check, each a sentence: SQLite too old or without sqlite-vec; PostgreSQL
    # unreachable, too old, or without its extensions (there the queue lives too: no SQLite file).
    if postgres_engine.is_url(settings.database_location):
        # (A worker process serves no requests: its threads are the workers'.)
        postgres_engine.check_runtime(settings.database_location, 0 if settings.role == "worker" else settings.threads)
    else:
        check_sqlite_runtime()
    check_writable(settings.data_dir)
    make_private(settings.data_dir)
    database = Database(settings.database_location, pool_size=max(5, settings.threads))
    rt = runtime.Runtime(settings=settings, db=database,
                         keyring=Keyring(load_master_key(settings.secret_key, settings.data_dir)))
    runtime.install(rt)
    cache.clear_all()
    queue.configure(None if queue_immediate else settings.queue_path, immediate=queue_immediate,
                    database=settings.database_location)  # PostgreSQL's: the queue is in its tables
    import appliance.handler_registry  # noqa: F401  (registers every task and listener)
    if migrate:
        upgrade.migrate(rt)  # a PRE_UPGRADE backup first when there are migrations to run, put back if one fails
        from appliance.mail import service as mail_service
        mail_service.seal_clear_bodies(database)  # rows written before bodies were sealed
        from appliance.push import vapid
        vapid.ensure_key(database)  # the Web Push key pair, made at the first start
    return rt
