"""A full disk (issue 46, "Bad input and failure"): the backup folder (APPLIANCE_BACKUP_DIR) is a small
tmpfs mounted for the test (that takes root, as here and in CI). A manual backup that lacks room is
refused with the sentence (507); one that had room when it started but filled the disk while it was
written fails with the reason and leaves nothing half-written; a daily one that lacks room leaves a
FAILED row with the reason, on the list and the status page, never nothing."""

import shutil
import subprocess
from pathlib import Path

import pysqlite3.dbapi2 as sqlite
import pytest

from appliance.backups import service, tasks
from appliance.core import clock
from tests.backups.incompressible import add_media
from tests.problems import assert_problem
from tests.waiting import eventually

BACKUPS = "/installation/backups"
MB = 1024 * 1024
# Less than a backup of the tests' database (about 1.6 MB) needs: its copy, then the archive.
TOO_SMALL = "1m"


def _mount_options(path: Path, options: str) -> None:
    done = subprocess.run(["mount", *options.split(), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, f"mount {options} {path} failed (it takes root, as here and in CI): {done.stderr}"


@pytest.fixture
def small_disk(tmp_path):
    path = tmp_path / "small-disk"
    path.mkdir()
    _mount_options(path, f"-t tmpfs -o size={TOO_SMALL},mode=0700 tmpfs")
    try:
        yield path
    finally:
        # Lazily: a file a failed test left open must not leave the mount behind for every later run.
        subprocess.run(["umount", "--lazy", str(path)], check=True)


@pytest.fixture
def settings(settings, small_disk):
    return settings.replace(backup_dir=str(small_disk))


def _leftovers(folder: Path) -> list[str]:
    """What is in the backup folder besides the backups' lock."""
    return sorted(path.name for path in folder.iterdir() if path.name != service.LOCK_NAME)


def _backup(api, token, backup_id: str) -> dict:
    answer = api.get(f"{BACKUPS}/{backup_id}", token=token)
    assert answer.status_code == 200, answer.json
    return answer.json["data"]


def test_a_manual_backup_without_room_is_refused_with_the_sentence(api, owner, settings, small_disk):
    body = assert_problem(api.post(BACKUPS, {}, token=owner["token"]), 507, "insufficient_storage")
    assert body["detail"].startswith("Not enough free space for a backup: it needs about "), body
    assert f"{settings.backups_dir} has " in body["detail"] and "APPLIANCE_BACKUP_DIR" in body["detail"], body
    assert api.get(BACKUPS, token=owner["token"]).json["data"] == []  # refused, not attempted
    assert _leftovers(small_disk) == []


def _holding(path: Path):
    """A connection that keeps every other one from reading the SQLite database at `path` until it is
    closed (a WAL database in exclusive locking mode, written once)."""
    connection = sqlite.connect(str(path), isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA locking_mode=EXCLUSIVE")
    connection.execute("CREATE TABLE IF NOT EXISTS held_by_the_test (x)")
    return connection


def test_a_backup_that_fills_the_disk_while_it_is_written_fails_with_the_reason_and_leaves_nothing(
        api, owner, settings, small_disk):
    _mount_options(small_disk, "-o remount,size=8m")  # room for a backup of the data as it is
    assert service.room_problem(settings) is None
    # Customers' media arrive once the backup has checked the room, before it lists them: more than
    # the disk holds, and incompressible. To place them there every time, the test holds the queue's
    # database, whose copy the backup makes after the room check and before the listing: the copy
    # waits for it as for any busy writer.
    holder = _holding(settings.queue_path)
    try:
        started = api.post(BACKUPS, {}, token=owner["token"])
        assert started.status_code == 202, started.json
        backup_id = started.json["data"]["id"]
        eventually(lambda: list(small_disk.glob(".staging-*")))  # made once the room was checked
        add_media(settings.media_dir / owner["org"]["id"], 12 * MB)
        assert _backup(api, owner["token"], backup_id)["status"] == "RUNNING"
    finally:
        holder.close()
    service.maker.wait(60)

    failed = _backup(api, owner["token"], backup_id)
    assert failed["status"] == "FAILED", failed
    assert failed["reason"] == (f"The disk filled up while the backup was written to {settings.backups_dir}; nothing "
                                "of it was kept. Delete old backups, free space, or set APPLIANCE_BACKUP_DIR to a "
                                "bigger disk."), failed
    assert failed["sizeBytes"] is None and failed["sha256"] is None
    assert _leftovers(small_disk) == []  # no .partial, no .staging-*, no archive
    assert shutil.disk_usage(small_disk).used == 0  # and every byte written was given back


def test_a_daily_backup_without_room_leaves_a_failed_row_with_the_reason(api, owner, settings, small_disk):
    tasks.take_daily_backup.call_local()  # the first look starts the schedule
    assert api.get(BACKUPS, token=owner["token"]).json["data"] == []
    clock.advance(24 * 3600 + 60)  # a daily moment has passed since
    tasks.take_daily_backup.call_local()

    token = api.login(email="owner@example.com")["tokens"]["accessToken"]  # a day later: signed in again
    [failed] = api.get(BACKUPS, token=token).json["data"]
    assert (failed["kind"], failed["status"]) == ("SCHEDULED", "FAILED"), failed
    assert failed["reason"].startswith("Not enough free space for a backup: it needs about "), failed
    assert f"{settings.backups_dir} has " in failed["reason"]
    status = api.get("/installation/status", token=token).json["data"]
    assert status["backups"] == {"lastReadyAt": None, "lastFailedAt": failed["createdAt"], "byPostgresql": False}
    assert _leftovers(small_disk) == []
