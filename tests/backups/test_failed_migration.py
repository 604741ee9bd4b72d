"""A migration that fails (issue 46, safe upgrades): the start took a PRE_UPGRADE backup before
migrating; it puts it back and refuses to start with a sentence naming it. The data directory is the
238e48e fixture (schema revision 0045), sabotaged for real without touching the code: a table that a
later migration (0052) creates is there already, so that migration fails. Without the sabotage the
same data then upgrades."""

import hashlib
import os
import re
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pysqlite3.dbapi2 as sqlite

from appliance import migrations
from appliance.backups import archive, restore
from tests.e2e.conftest import free_port
from tests.fixtures.old_installation import MADE, SERVER_ENV, SERVER_FLAGS, revision, unpack

SABOTAGE = "installation_settings"  # 0052_going_live creates it


def _sql(database: Path, *statements: str) -> None:
    with closing(sqlite.connect(str(database))) as connection:
        for statement in statements:
            connection.execute(statement)
        connection.commit()


def _contents(database: Path) -> tuple[list, dict]:
    """The schema, and every table's rows (the vector and word indexes' in their own tables)."""
    with closing(sqlite.connect(str(database))) as connection:
        schema = connection.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        rows = {name: sorted(map(repr, connection.execute(f'SELECT * FROM "{name}"')))
                for kind, name, sql in schema if kind == "table" and not sql.startswith("CREATE VIRTUAL")}
    return schema, rows


def _files(data_dir: Path) -> dict[str, str]:
    """The secret key's and the media's hashes."""
    paths = [data_dir / restore.SECRET_KEY, *sorted((data_dir / archive.MEDIA).rglob("*"))]
    return {path.relative_to(data_dir).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in paths if path.is_file()}


def _appliance(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=180, env={**os.environ, **SERVER_ENV})


def test_a_failed_migration_puts_the_backup_back_and_the_program_refuses_to_start_naming_it(tmp_path):
    data_dir = unpack(tmp_path / "data")
    database = data_dir / "appliance.db"
    _sql(database, f"CREATE TABLE {SABOTAGE} (note TEXT)", f"INSERT INTO {SABOTAGE} VALUES ('made by hand')")
    before, files_before = _contents(database), _files(data_dir)
    file_before = database.stat().st_ino

    started = _appliance(data_dir, "serve", "--port", str(free_port()), *SERVER_FLAGS)
    assert started.returncode == 2, started.stderr
    said = started.stderr[started.stderr.rindex("appliance cannot start: "):]
    assert said.startswith("appliance cannot start: the database's migration from revision 0045 failed"), said
    named = re.search(r"The data was put back as it was, from the backup taken just before: (/\S+\.tar\.gz)[ .]",
                      said)
    assert named, said
    backup = Path(named[1])
    assert backup.parent == data_dir / "backups" and backup.is_file()
    assert archive.read_manifest(backup)["schemaRevision"] == "0045"

    assert revision(data_dir) == "0045"
    assert _contents(database) == before  # the sabotage table and its row, the people, every row as it was
    with closing(sqlite.connect(str(database))) as connection:
        assert connection.execute("SELECT email FROM users").fetchall() == [(MADE["owner"]["email"],)]
    assert _files(data_dir) == files_before
    # The migrations ran in one transaction, whose rollback alone would leave the same rows: the
    # database being another file shows that the backup was put back (and whole, by the checks above).
    assert database.stat().st_ino != file_before
    leftovers = [*data_dir.glob(".restore-*"), *data_dir.glob(".replaced-*"), data_dir / restore.JOURNAL,
                 *backup.parent.glob(".staging-*"), *backup.parent.glob("*.partial")]
    assert [path for path in leftovers if path.exists()] == []

    # The database predates the stored backup key: the archive's key is in the note the sentence names,
    # and it opens the archive.
    note = Path(re.search(r"its backup key is in (/\S+\.failed-upgrade)\)", said)[1])
    key_text = note.read_text().removeprefix("backup key: ").strip()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert restore.restore(backup, key_text, elsewhere)["schemaRevision"] == "0045"
    # A start retried (as a service manager retries) keeps one archive of the failed upgrade, not one a try.
    again = _appliance(data_dir, "serve", "--port", str(free_port()), *SERVER_FLAGS)
    assert again.returncode == 2 and "failed" in again.stderr
    assert len(list(backup.parent.glob("*.tar.gz"))) == 1 and len(list(backup.parent.glob("*.failed-upgrade"))) == 1
    assert "\n" not in again.stderr[again.stderr.rindex("appliance cannot start: "):].strip()  # one sentence

    # The cause removed, the same data upgrades, with a backup of its own.
    _sql(database, f"DROP TABLE {SABOTAGE}")
    migrated = _appliance(data_dir, "migrate")
    assert migrated.returncode == 0, migrated.stderr
    assert revision(data_dir) == migrations.head_revision()
    with closing(sqlite.connect(str(database))) as connection:
        [(kind, status, kept_revision, file_name, sha256)] = connection.execute(
            "SELECT kind, status, schema_revision, file_name, sha256 FROM backups").fetchall()
    assert (kind, status, kept_revision) == ("PRE_UPGRADE", "READY", "0045")
    assert list((data_dir / "backups").glob("*.failed-upgrade")) == []  # the successful one's archive stands for them
    assert hashlib.sha256((data_dir / "backups" / file_name).read_bytes()).hexdigest() == sha256
