"""A restore killed during its swap (issue 46, "kill -9 during a restore"): the journal was written, some
of the renames were done, and the process stopped there. The next start (restore.finish_interrupted,
which the server runs before anything opens the data) completes the swap: the data directory is the
archive's, whole, never a mix of two installations. Every point between two renames is tried, on an
installation with data of its own (the 238e48e fixture) left as a killed server leaves it (a WAL)."""

import hashlib
import os
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pysqlite3.dbapi2 as sqlite
import pytest

from appliance.backups import restore, service
from tests.fixtures.old_installation import MADE, unpack


@pytest.fixture
def archive(api, owner, settings, monkeypatch):
    """A backup of the test's installation (a person, a photo): its archive and backup key."""
    monkeypatch.setattr(restore, "completed_in_this_process", False)  # the swaps below set it
    photo = settings.media_dir / owner["org"]["id"] / "photo"
    photo.parent.mkdir(parents=True)
    photo.write_bytes(b"\xff\xd8 the archive's photo")
    started = api.post("/installation/backups", {}, token=owner["token"])
    assert started.status_code == 202, started.json
    service.maker.wait(60)
    made = api.get(f"/installation/backups/{started.json['data']['id']}", token=owner["token"]).json["data"]
    assert made["status"] == "READY", made
    return settings.backups_dir / made["fileName"], started.json["data"]["backupKey"]


def _killed_while_writing(database: Path) -> None:
    """A process that wrote to `database` and was killed: its WAL (and index) stay beside it."""
    subprocess.run([sys.executable, "-c", (
        "import os, pysqlite3.dbapi2 as sqlite\n"
        f"connection = sqlite.connect({str(database)!r})\n"
        "connection.execute('PRAGMA journal_mode=WAL')\n"
        "connection.execute('CREATE TABLE written_before_the_kill (x)')\n"
        "connection.commit()\n"
        "os._exit(0)\n")], check=True)
    assert (database.parent / f"{database.name}-wal").stat().st_size > 0


def _renames(data_dir: Path, journal: dict) -> list[tuple[Path, Path]]:
    """The swap's renames in the order it makes them: the old database's WAL and index aside, then
    for each entry the old one aside and the restored one in its place."""
    staging, aside = data_dir / journal["staging"], data_dir / journal["aside"]
    steps = [(data_dir / name, aside / name) for name in restore.SIDE_FILES if (data_dir / name).exists()]
    for name in restore.REPLACED:
        if (data_dir / name).exists():
            steps.append((data_dir / name, aside / name))
        steps.append((staging / name, data_dir / name))
    return steps


def _files(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_swap_cut_short_anywhere_is_completed_at_the_next_start(archive, settings, tmp_path):
    archive_path, key_text = archive
    point = 0
    while True:
        target = unpack(tmp_path / f"killed-after-{point}-renames")
        _killed_while_writing(target / "appliance.db")
        checked = restore.check(archive_path, key_text, target)
        journal = restore.pending_swap(checked, target)
        steps = _renames(target, journal)
        (target / journal["aside"]).mkdir(mode=0o700)
        for source, destination in steps[:point]:
            os.replace(source, destination)
        # killed here; the next start:
        assert restore.finish_interrupted(target) is True, point

        assert sorted(path.name for path in target.iterdir()) == ["appliance.db", "media", "queue.db", "secret.key"]
        restored = _files(target)
        assert restored.pop("secret.key") == _files(settings.data_dir)["secret.key"], point
        assert restored == {name: member["sha256"] for name, member in checked.manifest["members"].items()}, point
        with closing(sqlite.connect(str(target / "appliance.db"))) as database:
            assert database.execute("SELECT email FROM users").fetchall() == [("owner@example.com",)], point
            assert not database.execute("SELECT name FROM sqlite_master WHERE name = 'written_before_the_kill'"
                                        ).fetchall(), point
        assert not (target / "media" / MADE["organizationId"]).exists()  # nothing of the old installation
        if point == len(steps):
            break
        point += 1
    assert point == 2 + 2 * len(restore.REPLACED)  # the WAL and its index, then each entry out and in
