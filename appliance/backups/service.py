"""Backups as the installation's administrators see them: start one (409 while one runs, 507 when
the disk lacks room), follow its progress, download or delete it, replace the backup key; the daily
backup and what is kept.

A backup is made by a thread of its own (`_Maker`), not a queue worker (it takes up to a minute, and
the queue's own file is one of the things it copies), which has a process of its own write the
archive (worker.py) and records what it says. The `backups` row is its visible outcome:
RUNNING with a percentage, then READY (size, sha256) or FAILED with the reason in a sentence. One at
a time: a RUNNING row refuses a second in this process (checked in the write transaction, which
SQLite serializes), and a file lock in the backup folder refuses one from another process (the
command line beside a server). A stop or a crash during a backup leaves a RUNNING row and a
`.partial` file: the next start marks it FAILED and removes the file (`recover_interrupted`). The
command line's process killed while a server runs on leaves the same: the next backup asked for
does that (`_fail_abandoned`), rather than being refused until the server's next start.

Kept: the 7 newest days' and the 4 newest weeks' daily (SCHEDULED) backups (each day's and week's
newest, as restic's keep-daily/keep-weekly), the 3 newest PRE_UPGRADE ones; MANUAL ones until an
administrator deletes them; failed attempts' rows for 30 days.

On PostgreSQL these backups are not made: they copy an SQLite file, and PostgreSQL's database is
backed up with its own tools (docs/postgresql.md, "Backups"). `by_postgresql` is the one place that
says so; a manual backup and a restore are refused with `BY_POSTGRESQL` (409 backups_by_postgresql),
the daily one is not due, and the summary says whose backups they are.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import threading
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterator
from zoneinfo import ZoneInfo

from filelock import FileLock, Timeout
from sqlmodel import Session, col, select

import appliance
from appliance import migrations
from appliance.backups import archive, keys, worker
from appliance.backups.models import Backup
from appliance.core import clock, postgres_engine, runtime
from appliance.core.crypto import load_master_key
from appliance.core.db import after_commit
from appliance.core.errors import Conflict, InsufficientStorage, NotFound
from appliance.core.ids import new_id
from appliance.installation.models import InstallationSetting
from appliance.settings import Settings

log = logging.getLogger(__name__)

MANUAL, SCHEDULED, PRE_UPGRADE = "MANUAL", "SCHEDULED", "PRE_UPGRADE"
RUNNING, READY, FAILED = "RUNNING", "READY", "FAILED"
KEEP_DAILY, KEEP_WEEKLY, KEEP_PRE_UPGRADE = 7, 4, 3
KEEP_FAILED = timedelta(days=30)
HEADROOM = 1.1  # the archive is at most its sources' size plus tar's headers; gzip only shrinks it
LOCK_NAME = ".backup.lock"
PROGRESS_EVERY_SECONDS = 1.0
KEY_SETTING, KEY_SHOWN_SETTING, SCHEDULE_FROM_SETTING = "backup_key", "backup_key_shown", "backups_scheduled_from"
STOPPED_REASON = "The program stopped while this backup was made; nothing of it was kept."
# A backup's thread takes the backup lock moments after its RUNNING row is committed: a row older than
# this while no process holds the lock is one whose process was killed.
ABANDONED_AFTER = timedelta(seconds=10)


# As the pages say it (console/texts_backups.py), translated.
BY_POSTGRESQL = ("The database is on PostgreSQL: back it up with pg_dump or your provider's snapshots, and copy the "
                 "data directory (media, secret.key) with it (docs/postgresql.md, “Backups”). The appliance's own "
                 "backups and restores hold a SQLite database, not this one.")


# -- which engine's ------------------------------------------------------------------------------

def by_postgresql(settings: Settings) -> bool:
    """Whether the database is PostgreSQL's, whose backups are its own tools' (pg_dump, the provider's
    snapshots): an archive of the data directory would hold an SQLite file nobody reads. Read from
    the settings, as the engine is chosen, so that the command line asks before opening anything."""
    return postgres_engine.is_url(settings.database_location)


def refuse_by_postgresql(settings: Settings) -> None:
    """409 backups_by_postgresql, in words, on PostgreSQL: a backup or a restore asked for there."""
    if by_postgresql(settings):
        raise Conflict(BY_POSTGRESQL, code="backups_by_postgresql")


# -- where, how big ----------------------------------------------------------------------------

def folder(settings: Settings) -> Path:
    path = settings.backups_dir
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _databases_bytes(settings: Settings) -> int:
    """The database and the queue with their WALs (a copy holds the WAL's pages too)."""
    return sum(_file_size(Path(f"{path}{suffix}")) for path in (settings.database_path, settings.queue_path)
               for suffix in ("", "-wal"))


def sources_bytes(settings: Settings) -> int:
    """What a backup reads: the database and the queue with their WALs, the media."""
    return _databases_bytes(settings) + sum(item.size for item in archive.list_media(settings.media_dir))


def _gigabytes(count: int) -> str:
    return f"{count / 1e9:.2f} GB" if count >= 1e8 else f"{count / 1e6:.1f} MB"


def room_problem(settings: Settings) -> str | None:
    """A sentence when the backup folder's disk lacks room for a backup (the database and queue are
    first copied beside it, then archived: twice their size at the worst moment)."""
    needed = int(sources_bytes(settings) * HEADROOM) + _databases_bytes(settings)
    free = shutil.disk_usage(folder(settings)).free
    if free >= needed:
        return None
    return (f"Not enough free space for a backup: it needs about {_gigabytes(needed)} and {folder(settings)} has "
            f"{_gigabytes(free)} free. Delete old backups, free space, or set APPLIANCE_BACKUP_DIR to a bigger disk.")


def _archive_name(backup_id: str, kind: str, moment: datetime) -> str:
    return f"appliance-backup-{moment:%Y%m%d-%H%M%S}-{kind.lower().replace('_', '-')}-{backup_id[-8:]}.tar.gz"


# -- the backup key ------------------------------------------------------------------------------

def _setting(session: Session, name: str) -> InstallationSetting | None:
    return session.get(InstallationSetting, name)


def _put_setting(session: Session, name: str, value: str, user_id: str | None = None) -> None:
    row = _setting(session, name) or InstallationSetting(name=name, value=value, updated_at=clock.now())
    row.value, row.updated_by_user_id, row.updated_at = value, user_id, clock.now()
    session.add(row)


def current_key(session: Session) -> str:
    """The backup key new archives are sealed under; made (not yet shown) when there is none."""
    keyring = runtime.get().keyring
    stored = _setting(session, KEY_SETTING)
    if stored is not None:
        return keyring.unseal(stored.value)
    return adopt_key(session, keys.new_key(), shown=False)


def current_key_id(session: Session) -> str | None:
    """Names the key new archives are sealed under, without making one (None: none yet)."""
    stored = _setting(session, KEY_SETTING)
    return keys.key_id(runtime.get().keyring.unseal(stored.value)) if stored is not None else None


def adopt_key(session: Session, key_text: str, *, shown: bool, user_id: str | None = None) -> str:
    _put_setting(session, KEY_SETTING, runtime.get().keyring.seal(key_text), user_id)
    _put_setting(session, KEY_SHOWN_SETTING, "yes" if shown else "no", user_id)
    return key_text


def key_to_show(session: Session) -> str | None:
    """The backup key if no one has seen it yet (then never again): the first backup's answer carries it."""
    shown = _setting(session, KEY_SHOWN_SETTING)
    if shown is not None and shown.value == "yes":
        return None
    key_text = current_key(session)
    _put_setting(session, KEY_SHOWN_SETTING, "yes")
    return key_text


def replace_key(session: Session, *, user_id: str) -> dict:
    """A new backup key for the archives from now on, answered this once; older archives keep needing theirs."""
    key_text = adopt_key(session, keys.new_key(), shown=True, user_id=user_id)
    return {"backup_key": key_text, "key_id": keys.key_id(key_text)}


# -- making one ----------------------------------------------------------------------------------

def backup_lock(settings: Settings) -> FileLock:
    """Held by whichever process makes a backup (one at a time across processes)."""
    return FileLock(os.fspath(folder(settings) / LOCK_NAME), timeout=0)


def _another_process_backing_up(settings: Settings) -> bool:
    lock = backup_lock(settings)
    try:
        lock.acquire()
    except Timeout:
        return True
    lock.release()
    return False


def make_archive(settings: Settings, *, backup_id: str, kind: str, key_text: str, revision: str | None,
                 created_at: datetime, on_progress=lambda _percent: None) -> tuple[Path, archive.Written]:
    """The archive of this data directory, whole in the backup folder or not at all (its `.partial`
    and the database copies are removed whatever happens). The caller holds the backup lock."""
    target = folder(settings) / _archive_name(backup_id, kind, created_at)
    partial = target.with_name(target.name + ".partial")
    staging = folder(settings) / f".staging-{backup_id}"
    staging.mkdir(mode=0o700)
    try:
        header = {"id": backup_id, "kind": kind, "appVersion": appliance.__version__, "schemaRevision": revision,
                  "createdAt": clock.iso(created_at),
                  "secretKey": keys.seal_secret(load_master_key(settings.secret_key, settings.data_dir), key_text,
                                                archive_id=backup_id)}
        written = worker.write_in_child(database=settings.database_path, queue=settings.queue_path,
                                        media_dir=settings.media_dir, staging=staging, partial=partial, header=header,
                                        on_progress=on_progress)
        os.replace(partial, target)
        return target, written
    finally:
        partial.unlink(missing_ok=True)
        shutil.rmtree(staging, ignore_errors=True)


def failure_reason(exc: BaseException, settings: Settings) -> str:
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return (f"The disk filled up while the backup was written to {settings.backups_dir}; nothing of it was kept. "
                "Delete old backups, free space, or set APPLIANCE_BACKUP_DIR to a bigger disk.")
    if isinstance(exc, OSError):
        return f"The backup could not be written: {exc.strerror or exc} ({exc.filename or settings.backups_dir})."
    return f"The backup failed: {type(exc).__name__}: {exc}"


class _Maker:
    """The thread making the backup in hand (one a process)."""

    def __init__(self):
        self.thread: threading.Thread | None = None

    def launch(self, backup_id: str, key_text: str) -> None:
        self.thread = threading.Thread(target=self._run, args=(runtime.get(), backup_id, key_text),
                                       name="backup", daemon=True)
        self.thread.start()

    def wait(self, timeout: float | None = None) -> None:
        thread = self.thread
        if thread is not None:
            thread.join(timeout)

    def _run(self, rt, backup_id: str, key_text: str) -> None:
        settings, database = rt.settings, rt.db
        lock = backup_lock(settings)
        last_told = [clock.now()]

        def told(percent: int) -> None:
            if (clock.now() - last_told[0]).total_seconds() >= PROGRESS_EVERY_SECONDS:
                last_told[0] = clock.now()
                with database.unit_of_work(write=True) as session:
                    row = session.get(Backup, backup_id)
                    if row is not None and row.status == RUNNING:
                        row.progress = percent
        try:
            lock.acquire()
        except Timeout:
            _finish(database, backup_id, FAILED, reason="Another backup was being made (from the command line?); "
                                                        "this one did not start.")
            return
        try:
            with database.unit_of_work(write=False) as session:
                row = session.get(Backup, backup_id)
                kind, created_at, revision = row.kind, row.created_at, row.schema_revision
            problem = room_problem(settings)
            if problem:
                _finish(database, backup_id, FAILED, reason=problem)
                return
            path, written = make_archive(settings, backup_id=backup_id, kind=kind, key_text=key_text,
                                         revision=revision, created_at=created_at, on_progress=told)
            _finish(database, backup_id, READY, size=written.size, sha256=written.sha256, file_name=path.name)
            log.info("backup %s ready: %s (%s)", backup_id, path, _gigabytes(written.size))
            with database.unit_of_work(write=True) as session:
                prune(session, settings)
        except Exception as exc:  # noqa: BLE001 -- every failure is the row's reason
            log.exception("backup %s failed", backup_id)
            _finish(database, backup_id, FAILED, reason=failure_reason(exc, settings))
        finally:
            lock.release()


maker = _Maker()


def _finish(database, backup_id: str, status: str, *, reason: str | None = None, size: int | None = None,
            sha256: str | None = None, file_name: str | None = None) -> None:
    with database.unit_of_work(write=True) as session:
        row = session.get(Backup, backup_id)
        row.status, row.reason, row.finished_at = status, reason, clock.now()
        row.progress = 100 if status == READY else row.progress
        row.size_bytes, row.sha256 = size, sha256
        row.file_name = file_name or row.file_name


def start(session: Session, *, kind: str, user_id: str | None) -> tuple[Backup, str | None]:
    """A new backup (RUNNING), made once this unit commits, and the backup key when no one has seen it
    yet. 409 backup_running while one runs; a MANUAL one 507 insufficient_storage when the disk lacks
    room (a SCHEDULED one records that as its FAILED reason instead: someone reads the list); 409
    backups_by_postgresql on PostgreSQL, before anything is written."""
    settings = runtime.get().settings
    refuse_by_postgresql(settings)
    _fail_abandoned(session, settings)
    running = session.exec(select(Backup.id).where(Backup.status == RUNNING)).first()
    if running is not None or _another_process_backing_up(settings):
        raise Conflict("A backup is being made; wait for it to end (its progress is on the Backups page).",
                       code="backup_running")
    problem = room_problem(settings)
    if problem and kind == MANUAL:
        raise InsufficientStorage(problem)
    key_text = current_key(session)
    now = clock.now()
    backup_id = new_id()
    row = Backup(id=backup_id, kind=kind, status=FAILED if problem else RUNNING, reason=problem,
                 file_name=_archive_name(backup_id, kind, now), app_version=appliance.__version__,
                 schema_revision=migrations.revision_of(runtime.get().db), key_id=keys.key_id(key_text),
                 created_by_user_id=user_id, created_at=now, finished_at=now if problem else None)
    session.add(row)
    session.flush()
    shown = key_to_show(session)
    if not problem:
        after_commit(session, lambda: maker.launch(backup_id, key_text))
    return row, shown


def record_pre_upgrade(session: Session, *, backup_id: str, path: Path, written: archive.Written,
                       revision: str | None, key_text: str, created_at: datetime) -> None:
    """The backup an upgrade took before its migrations (made before this table may have existed)."""
    session.add(Backup(id=backup_id, kind=PRE_UPGRADE, status=READY, file_name=path.name, progress=100,
                       size_bytes=written.size, sha256=written.sha256, app_version=appliance.__version__,
                       schema_revision=revision, key_id=keys.key_id(key_text), created_at=created_at,
                       finished_at=clock.now()))
    prune(session, runtime.get().settings)


# -- reading, deleting, keeping ------------------------------------------------------------------

def listing(session: Session) -> list[Backup]:
    return list(session.exec(select(Backup).order_by(col(Backup.created_at).desc())).all())


def get(session: Session, backup_id: str) -> Backup:
    row = session.get(Backup, backup_id)
    if row is None:
        raise NotFound("No such backup.", code="backup_not_found")
    return row


def archive_path(session: Session, backup_id: str) -> Path:
    row = get(session, backup_id)
    if row.status != READY:
        raise Conflict("That backup is not ready: only a READY backup downloads.", code="backup_not_ready")
    path = folder(runtime.get().settings) / row.file_name
    if not path.is_file():
        raise NotFound(f"The archive {row.file_name} is no longer in the backup folder.", code="backup_file_missing")
    return path


def _remove(session: Session, row: Backup) -> None:
    (folder(runtime.get().settings) / row.file_name).unlink(missing_ok=True)
    session.delete(row)


def delete(session: Session, backup_id: str) -> None:
    row = get(session, backup_id)
    if row.status == RUNNING:
        raise Conflict("That backup is being made; delete it once it ends.", code="backup_running")
    _remove(session, row)


def _kept_scheduled(rows: list[Backup], zone) -> set[str]:
    days, weeks, kept = set(), set(), set()
    for row in rows:  # newest first
        local = row.created_at.astimezone(zone)
        day, week = local.date(), local.isocalendar()[:2]
        if day not in days and len(days) < KEEP_DAILY:
            days.add(day)
            kept.add(row.id)
        if week not in weeks and len(weeks) < KEEP_WEEKLY:
            weeks.add(week)
            kept.add(row.id)
    return kept


def prune(session: Session, settings: Settings) -> None:
    rows = listing(session)
    ready = [row for row in rows if row.status == READY]
    scheduled = [row for row in ready if row.kind == SCHEDULED]
    kept = _kept_scheduled(scheduled, installation_zone(settings))
    kept.update(row.id for row in [row for row in ready if row.kind == PRE_UPGRADE][:KEEP_PRE_UPGRADE])
    for row in ready:
        if row.kind != MANUAL and row.id not in kept:
            log.info("backup %s (%s, %s) no longer kept", row.id, row.kind, row.created_at)
            _remove(session, row)
    old = clock.now() - KEEP_FAILED
    for row in rows:
        if row.status == FAILED and row.created_at < old:
            session.delete(row)


def summary(session: Session) -> dict:
    """For the status page: when the last backup was ready, when the last one failed, and whether
    the backups are PostgreSQL's (then the rows are those made before a move to it, if any)."""
    def newest(status: str):
        return session.exec(select(Backup.created_at).where(Backup.status == status)
                            .order_by(col(Backup.created_at).desc())).first()
    return {"last_ready_at": newest(READY), "last_failed_at": newest(FAILED),
            "by_postgresql": by_postgresql(runtime.get().settings)}


@contextmanager
def _lock_unless_held(settings: Settings) -> Iterator[bool]:
    """The backup lock for the block when no one holds it; whether it was (held: a backup is being made)."""
    lock = backup_lock(settings)
    try:
        lock.acquire()
    except Timeout:
        yield False
        return
    try:
        yield True
    finally:
        lock.release()


def _fail_cut_short(settings: Settings, rows: list[Backup]) -> None:
    """`rows` (RUNNING, made by no process now) FAILED, and the backup folder's leftovers removed. The
    caller holds the backup lock."""
    for leftover in list(folder(settings).glob("*.partial")) + list(folder(settings).glob(".staging-*")):
        shutil.rmtree(leftover, ignore_errors=True) if leftover.is_dir() else leftover.unlink(missing_ok=True)
    for row in rows:
        row.status, row.finished_at, row.reason = FAILED, clock.now(), STOPPED_REASON


def recover_interrupted(database, settings: Settings) -> None:
    """At a server's start: a backup a stop or a crash cut short is FAILED, its leftovers removed
    (unless another process is making it now)."""
    with _lock_unless_held(settings) as taken:
        if taken:
            with database.unit_of_work(write=True) as session:
                _fail_cut_short(settings, list(session.exec(select(Backup).where(Backup.status == RUNNING)).all()))


def _fail_abandoned(session: Session, settings: Settings) -> None:
    """While a server runs: a RUNNING row older than ABANDONED_AFTER that no process is making (the
    command line's process was killed) is FAILED as at a start, so that it holds up no next backup."""
    oldest_live = clock.now() - ABANDONED_AFTER
    abandoned = [row for row in session.exec(select(Backup).where(Backup.status == RUNNING)).all()
                 if row.created_at < oldest_live]
    if abandoned:
        with _lock_unless_held(settings) as taken:
            if taken:  # (held: it is being made after all, and the caller refuses a second)
                _fail_cut_short(settings, abandoned)


# -- the daily backup ----------------------------------------------------------------------------

def installation_zone(settings: Settings):
    return ZoneInfo(settings.timezone) if settings.timezone else clock.now().astimezone().tzinfo  # the machine's


def _slot(settings: Settings, now: datetime) -> datetime | None:
    """The latest daily moment at or before `now` (None: no daily backup)."""
    if settings.backup_at == "off":
        return None
    hours, minutes = (int(part) for part in settings.backup_at.split(":"))
    local = now.astimezone(installation_zone(settings))
    slot = local.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    return slot if slot <= local else slot - timedelta(days=1)


def scheduled_due(session: Session, settings: Settings, now: datetime) -> bool:
    """A daily backup is due once its moment has passed and none was made since, counting from the
    installation's first look (a new installation's first daily backup is the next night's, and a
    machine that was off at 03:00 makes it when it starts). Never on PostgreSQL (`by_postgresql`)."""
    slot = _slot(settings, now)
    if slot is None or by_postgresql(settings):
        return False
    since = _setting(session, SCHEDULE_FROM_SETTING)
    if since is None:
        _put_setting(session, SCHEDULE_FROM_SETTING, clock.iso(now))
        return False
    if slot < datetime.fromisoformat(since.value.replace("Z", "+00:00")):
        return False
    last = session.exec(select(Backup.created_at).where(Backup.kind == SCHEDULED)
                        .order_by(col(Backup.created_at).desc())).first()
    return last is None or last < slot
