"""The upgrade's safety net: a start with migrations to run archives the data first (PRE_UPGRADE),
and a migration that fails puts that archive back and stops the program with a sentence naming it.

The archive is made before the migrations, when the database may predate the `backups` table and
the stored backup key: its row and (for a first key) the key are written once the migrations have
run. The key is the installation's if it has one, else a new one, kept unshown: the next backup's
answer shows it.
"""

from __future__ import annotations

import logging

from filelock import Timeout
from sqlalchemy import text

from appliance import migrations
from appliance.backups import keys, restore, service
from appliance.core import clock
from appliance.core.db import StartupError
from appliance.core.ids import new_id

log = logging.getLogger(__name__)


def _stored_key(rt) -> str | None:
    """The backup key kept in installation_settings, read with SQL: the table may not exist yet (a
    database older than it), and the models describe the schema after the migrations."""
    with rt.db.engine.connect() as connection:
        try:
            sealed = connection.execute(text("SELECT value FROM installation_settings WHERE name = :name"),
                                        {"name": service.KEY_SETTING}).scalar()
        except Exception:  # noqa: BLE001 -- no such table before revision 0052
            return None
    return rt.keyring.unseal(sealed) if sealed else None


def migrate(rt) -> None:
    """Bring the database to the newest revision; with a PRE_UPGRADE backup first when it holds data."""
    database, settings = rt.db, rt.settings
    if migrations.at_head(database):
        return
    revision = migrations.revision_of(database)
    if revision is None or restore.completed_in_this_process:
        # A new database has nothing to keep; a data directory just restored has its archive.
        migrations.upgrade(database)
        return
    problem = service.room_problem(settings)
    if problem:
        raise StartupError(f"this version has to migrate the database (from revision {revision}) and takes a backup "
                           f"before: {problem}")
    stored = _stored_key(rt)
    key_text = stored or keys.new_key()
    backup_id, created_at = new_id(), clock.now()
    lock = service.backup_lock(settings)
    try:
        lock.acquire()
    except Timeout:
        raise StartupError("this version has to migrate the database and takes a backup before, but another process "
                           f"is making one in {settings.backups_dir}; start again once it ends") from None
    try:
        log.info("taking a backup before migrating the database from revision %s", revision)
        path, written = service.make_archive(settings, backup_id=backup_id, kind=service.PRE_UPGRADE,
                                             key_text=key_text, revision=revision, created_at=created_at)
    finally:
        lock.release()
    log.info("backup before the upgrade: %s", path)
    try:
        migrations.upgrade(database)
    except Exception as exc:
        log.exception("a migration failed; putting back %s", path)
        database.dispose()
        restore.restore(path, key_text, settings.data_dir, secret_setting=settings.secret_key)
        raise StartupError(f"the database's migration from revision {revision} failed ({type(exc).__name__}: {exc}). "
                           f"The data was put back as it was, from the backup taken just before: {path}. Run the "
                           "previous version meanwhile, and report this with the log above.") from None
    with database.unit_of_work(write=True) as session:
        if stored is None:
            service.adopt_key(session, key_text, shown=False)
        service.record_pre_upgrade(session, backup_id=backup_id, path=path, written=written, revision=revision,
                                   key_text=key_text, created_at=created_at)
