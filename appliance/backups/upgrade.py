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


FAILED_UPGRADE_SUFFIX = ".failed-upgrade"


def _keep_failed_upgrade(path, new_key: str | None) -> str:
    """The archive of an upgrade that failed stays, beside a note naming its key when the data holds
    none (a database older than the stored key: nobody has seen this one); the archives of earlier
    failed attempts go (a start retried by a service manager would otherwise fill the disk with
    copies of the same data). Answers the words the refusal adds about the key."""
    _forget_failed_upgrades(path.parent)
    note = path.with_name(path.name + FAILED_UPGRADE_SUFFIX)
    note.write_text(f"backup key: {new_key}\n" if new_key else "backup key: the installation's own\n")
    note.chmod(0o600)
    return f" (its backup key is in {note})" if new_key else ""


def _forget_failed_upgrades(folder) -> None:
    for note in folder.glob(f"*{FAILED_UPGRADE_SUFFIX}"):
        note.with_name(note.name.removesuffix(FAILED_UPGRADE_SUFFIX)).unlink(missing_ok=True)
        note.unlink()


def migrate(rt) -> None:
    """Bring the database to the newest revision; with a PRE_UPGRADE backup first when it holds data."""
    database, settings = rt.db, rt.settings
    if migrations.at_head(database):
        return
    revision = migrations.revision_of(database)
    if revision is None or restore.completed_in_this_process or not database.is_sqlite:
        # A new database has nothing to keep; a data directory just restored has its archive.
        # PostgreSQL runs the migrations in one transaction, DDL included: a failing one leaves
        # the database as it was, and its backups are the operator's (docs/postgresql.md).
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
        where_key = _keep_failed_upgrade(path, key_text if stored is None else None)
        first_line = (str(exc).strip().splitlines() or [""])[0]  # (a driver's error goes on with its SQL)
        raise StartupError(f"the database's migration from revision {revision} failed ({type(exc).__name__}: "
                           f"{first_line}). The data was put back as it was, from the backup taken just before: "
                           f"{path}{where_key}. Run the previous version meanwhile, and report this with the log "
                           "above.") from None
    _forget_failed_upgrades(path.parent)  # this backup holds the same data, listed and kept as the others
    with database.unit_of_work(write=True) as session:
        if stored is None:
            service.adopt_key(session, key_text, shown=False)
        service.record_pre_upgrade(session, backup_id=backup_id, path=path, written=written, revision=revision,
                                   key_text=key_text, created_at=created_at)
