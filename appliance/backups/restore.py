"""Restoring an archive into a data directory: everything checked first, then one swap.

`check` unpacks the archive into `DATA_DIR/.restore-<id>` (the same disk, so the swap is renames),
proves each member against the manifest, refuses an archive from a newer program (a schema revision
this program does not know), opens the secret key with the backup key, and runs SQLite's
`integrity_check` on the unpacked database. Until then nothing of the data directory has changed; a
refusal removes the unpacked folder and says why (`ArchiveRefused`).

`swap` writes a journal (`restore-swap.json`), then moves each replaced entry (the database with its
WAL, the queue, media, secret.key) into `DATA_DIR/.replaced-<id>` and the restored one into its
place, then removes the journal and the old entries. A process killed during the swap leaves the
journal: `finish_interrupted` (at every start, and before a restore) completes it, entry by entry,
so the directory ends as the archive, never as a mix. A process killed before the journal leaves
only the unpacked folder, which `finish_interrupted` removes: the data is as it was.

The database is left at the archive's revision; the caller migrates it forward.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pysqlite3.dbapi2 as sqlite

import appliance
from appliance import migrations
from appliance.backups import archive, keys
from appliance.backups.archive import ArchiveRefused
from appliance.core.sqlite_engine import load_vectors

log = logging.getLogger(__name__)

JOURNAL = "restore-swap.json"
SECRET_KEY = "secret.key"
# What a restore replaces, and the files that go with the old database and queue.
REPLACED = (archive.DATABASE, archive.QUEUE, archive.MEDIA, SECRET_KEY)
SIDE_FILES = tuple(f"{name}{suffix}" for name in (archive.DATABASE, archive.QUEUE) for suffix in ("-wal", "-shm"))
STAGING_PREFIX, ASIDE_PREFIX = ".restore-", ".replaced-"
# Set when this process swapped an archive in (before opening the data): upgrade.migrate then migrates the
# restored database without a backup of its own (the archive is that).
completed_in_this_process = False


@dataclass(frozen=True)
class Checked:
    staging: Path
    manifest: dict


def _integrity(path: Path, what: str) -> None:
    connection = sqlite.connect(str(path))
    try:
        load_vectors(connection)  # the vector tables' own check needs their module
        found = [row[0] for row in connection.execute("PRAGMA integrity_check(5)")]
    except sqlite.DatabaseError as exc:
        raise ArchiveRefused(f"The archive's {what} is not a readable database ({exc}).") from None
    finally:
        connection.close()
    if found != ["ok"]:
        raise ArchiveRefused(f"The archive's {what} fails SQLite's integrity check ({'; '.join(found)}).")


def _check_secret(manifest: dict, key_text: str, secret_setting: str) -> bytes:
    try:
        secret = keys.open_secret(manifest.get("secretKey"), key_text, archive_id=str(manifest.get("id")))
    except keys.WrongKey as exc:
        raise ArchiveRefused(str(exc)) from None
    if secret_setting and hashlib.sha256(secret_setting.encode()).digest() != secret:
        raise ArchiveRefused("APPLIANCE_SECRET_KEY is set to another secret than the installation of this archive "
                             "used: unset it (the archive's own secret key is restored) or set it to that secret.")
    return secret


def _check_revision(manifest: dict) -> None:
    revision = manifest.get("schemaRevision")
    if revision not in migrations.known_revisions():
        raise ArchiveRefused(f"The archive was made by a newer version of the program ({manifest.get('appVersion')}, "
                             f"schema {revision}); this is version {appliance.__version__}: upgrade the program "
                             "first, then restore.")


def check(archive_path: Path, key_text: str, data_dir: Path, *, secret_setting: str = "",
          progress: Callable[[int], None] = lambda _done: None) -> Checked:
    """Unpack and prove the archive beside the data; ArchiveRefused (and nothing changed) if it
    cannot be restored."""
    try:
        keys.key_bytes(key_text)  # a mistyped key is told before a long unpacking
    except keys.WrongKey as exc:
        raise ArchiveRefused(str(exc)) from None
    staging = data_dir / f"{STAGING_PREFIX}{os.urandom(6).hex()}"
    staging.mkdir(mode=0o700)
    try:
        manifest = archive.extract(archive_path, staging, progress=progress)
        _check_revision(manifest)
        secret = _check_secret(manifest, key_text, secret_setting)
        _integrity(staging / archive.DATABASE, "database")
        _integrity(staging / archive.QUEUE, "queue")
        (staging / archive.MEDIA).mkdir(exist_ok=True)  # an archive without media restores none
        key_file = staging / SECRET_KEY
        key_file.write_text(secret.hex())
        key_file.chmod(0o600)
        return Checked(staging=staging, manifest=manifest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _sync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _roll_forward(data_dir: Path, journal: dict) -> None:
    """Each step is a rename that is either done or not: run again after a crash, it finishes."""
    global completed_in_this_process
    staging, aside = data_dir / journal["staging"], data_dir / journal["aside"]
    aside.mkdir(mode=0o700, exist_ok=True)
    for name in SIDE_FILES:  # the old database's WAL would be replayed into the restored one
        if (data_dir / name).exists():
            os.replace(data_dir / name, aside / name)
    for name in REPLACED:
        restored, current = staging / name, data_dir / name
        if not restored.exists():
            continue  # moved in already
        if current.exists():
            if (aside / name).exists():  # a crash after this entry's move aside and an earlier run's: keep the first
                shutil.rmtree(current) if current.is_dir() else current.unlink()
            else:
                os.replace(current, aside / name)
        os.replace(restored, current)
    _sync_folder(data_dir)
    (data_dir / JOURNAL).unlink()
    _sync_folder(data_dir)
    shutil.rmtree(aside, ignore_errors=True)
    shutil.rmtree(staging, ignore_errors=True)
    completed_in_this_process = True


def pending_swap(checked: Checked, data_dir: Path) -> dict:
    """Write the swap's journal: from here on the data directory becomes the archive, now or at the
    next start. A running server restores this way: it writes the journal, then restarts, and
    nothing opens the data before `finish_interrupted` has swapped."""
    journal = {"staging": checked.staging.name, "aside": ASIDE_PREFIX + checked.staging.name[len(STAGING_PREFIX):],
               "archiveId": checked.manifest.get("id")}
    with open(data_dir / JOURNAL, "x") as handle:
        json.dump(journal, handle)
        handle.flush()
        os.fsync(handle.fileno())
    _sync_folder(data_dir)
    return journal


def swap(checked: Checked, data_dir: Path) -> None:
    """Put the checked archive in place of the data (no server on it): the journal, then the renames."""
    _roll_forward(data_dir, pending_swap(checked, data_dir))


def finish_interrupted(data_dir: Path) -> bool:
    """Complete a swap a crash (or a restart) left, and remove folders of checks that never reached
    one. True when a swap was completed: the data is now the archive's."""
    journal_path = data_dir / JOURNAL
    completed = False
    if journal_path.exists():
        journal = json.loads(journal_path.read_text())
        log.warning("completing the restore of archive %s", journal.get("archiveId"))
        _roll_forward(data_dir, journal)
        completed = True
    for leftover in data_dir.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(leftover, ignore_errors=True)
    for leftover in data_dir.glob(f"{ASIDE_PREFIX}*"):
        shutil.rmtree(leftover, ignore_errors=True)
    return completed


def restore(archive_path: Path, key_text: str, data_dir: Path, *, secret_setting: str = "",
            progress: Callable[[int], None] = lambda _done: None) -> dict:
    """Check the archive, then swap it in (the caller holds the data directory: no server on it).
    Answers the archive's manifest; the database is at its revision until migrated."""
    finish_interrupted(data_dir)
    checked = check(archive_path, key_text, data_dir, secret_setting=secret_setting, progress=progress)
    swap(checked, data_dir)
    return checked.manifest
