"""kill -9 during a backup and during a restore, and a backup from the command line beside a running
server (issue 46, "Bad input and failure"): real processes (`appliance serve`, `appliance restore`,
`appliance backup`) on real data directories, with enough incompressible media that a backup or a
restore lasts seconds. The installation with data is the 238e48e fixture (people, conversations, a
photo, an API key), upgraded by its first start here."""

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from appliance.backups import keys, restore, service
from appliance.core.data_dir import LOCK_NAME as SERVER_LOCK
from tests.backups.incompressible import add_media
from tests.e2e.conftest import free_port, rows_of, start_server
from tests.fixtures.old_installation import MADE, SERVER_ENV, SERVER_FLAGS, sign_in, unpack
from tests.waiting import eventually

BACKUPS = "/installation/backups"
MB = 1024 * 1024
# Enough that a backup (at about 50 MB/s here, a few times that on a fast machine) is still being
# written well after its first progress (told once a second); less does for the other tests, which
# act as soon as they see the backup or the restore writing.
LONG_BACKUP = 192 * MB
BULK = 64 * MB


def _appliance(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=180)


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        server.wait(timeout=30)


def _backup(base: str, headers: dict, backup_id: str) -> dict:
    answer = requests.get(f"{base}{BACKUPS}/{backup_id}", headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while piece := handle.read(1024 * 1024):
            digest.update(piece)
    return digest.hexdigest()


def _old_data_intact(base: str, data_dir: Path) -> None:
    """The fixture's owner signs in, its conversations keep every message, its photo is unchanged."""
    sign_in(base)
    key = {"X-Api-Key": MADE["apiKey"]["secret"]}
    for made in MADE["conversations"]:
        thread = requests.get(f"{base}/organizations/{MADE['organizationId']}/conversations/{made['id']}/messages",
                              params={"limit": 200}, headers=key, timeout=10)
        assert thread.status_code == 200, thread.text
        assert sorted(message["id"] for message in thread.json()["data"]["items"]) == made["messageIds"]
    photo = data_dir / "media" / MADE["organizationId"] / MADE["media"]["messageId"]
    assert _sha256(photo) == MADE["media"]["sha256"]


def test_a_server_killed_during_a_backup_keeps_the_data_and_its_next_start_fails_the_backup_cleanly(tmp_path):
    data_dir, port = unpack(tmp_path / "data"), free_port()
    base, folder = f"http://127.0.0.1:{port}", data_dir / "backups"
    server = start_server(data_dir, port, *SERVER_FLAGS, env=SERVER_ENV)
    try:
        owner = sign_in(base)
        add_media(data_dir / "media" / MADE["organizationId"], LONG_BACKUP)
        started = requests.post(f"{base}{BACKUPS}", headers=owner, json={}, timeout=10)
        assert started.status_code == 202, started.text
        backup_id = started.json()["data"]["id"]
        eventually(lambda: _backup(base, owner, backup_id), lambda row: row["progress"] > 0, seconds=60)
        server.kill()
        server.wait(timeout=10)
        assert rows_of(data_dir, f"SELECT status FROM backups WHERE id = '{backup_id}'") == [("RUNNING",)], (
            "the backup ended before the kill: nothing was tested")
        # The backup's own process, orphaned, stops at its next piece and removes what it wrote.
        eventually(lambda: not list(folder.glob("*.partial")) and not list(folder.glob(".staging-*")), seconds=15)

        server = start_server(data_dir, port, *SERVER_FLAGS, env=SERVER_ENV)
        _old_data_intact(base, data_dir)
        owner = sign_in(base)
        cut = _backup(base, owner, backup_id)
        assert (cut["status"], cut["reason"]) == (
            "FAILED", "The program stopped while this backup was made; nothing of it was kept."), cut
        assert not (folder / cut["fileName"]).exists()
        assert list(folder.glob("*.partial")) == [] and list(folder.glob(".staging-*")) == []

        again = requests.post(f"{base}{BACKUPS}", headers=owner, json={}, timeout=10)
        assert again.status_code == 202, again.text
        made = eventually(lambda: _backup(base, owner, again.json()["data"]["id"]),
                          lambda row: row["status"] != "RUNNING", seconds=120, every=0.5)
        assert made["status"] == "READY", made
        assert _sha256(folder / made["fileName"]) == made["sha256"]
    finally:
        _stop(server)


@pytest.fixture(scope="module")
def big_archive(tmp_path_factory):
    """An archive of another installation (BULK of media) made by `appliance backup`, and its key."""
    source = tmp_path_factory.mktemp("source") / "data"
    assert _appliance(source, "migrate").returncode == 0
    add_media(source / "media" / "bulk", BULK)
    made = _appliance(source, "backup")
    assert made.returncode == 0, made.stderr
    path = re.search(r"^backup ready: (\S+) \(", made.stdout, re.MULTILINE)[1]
    key_text = re.search(r"^ +([A-Z2-7]{4}(?:-[A-Z2-7]{4}){7})$", made.stdout, re.MULTILINE)[1]
    return Path(path), key_text


def _data_files(data_dir: Path) -> dict[str, str]:
    """Every file of the data directory and its hash, but a restore's unpacked folder and the lock."""
    found = {}
    for path in sorted(data_dir.rglob("*")):
        name = path.relative_to(data_dir)
        if path.is_file() and not name.parts[0].startswith(restore.STAGING_PREFIX) and name.parts[0] != SERVER_LOCK:
            found[name.as_posix()] = _sha256(path)
    return found


def test_a_restore_killed_while_it_unpacks_leaves_the_data_as_it_was(big_archive, tmp_path):
    archive_path, key_text = big_archive
    data_dir = unpack(tmp_path / "data")
    before = _data_files(data_dir)
    assert {"appliance.db", "queue.db", "secret.key"} < set(before) and len(before) == 4  # and the photo

    with open(tmp_path / "restore.log", "w") as log:
        restoring = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), "restore",
                                      str(archive_path), "--key", key_text], stdout=log, stderr=subprocess.STDOUT)
    try:
        eventually(lambda: list(data_dir.glob(f"{restore.STAGING_PREFIX}*/media/bulk/*")),
                   seconds=60, every=0.01)  # unpacking the media
    finally:
        restoring.kill()
        restoring.wait(timeout=10)
    assert not (data_dir / restore.JOURNAL).exists(), "the restore reached its swap before the kill: nothing was tested"
    assert list(data_dir.glob(f"{restore.STAGING_PREFIX}*"))
    assert _data_files(data_dir) == before

    port = free_port()
    server = start_server(data_dir, port, *SERVER_FLAGS, env=SERVER_ENV)  # the next start
    try:
        assert list(data_dir.glob(f"{restore.STAGING_PREFIX}*")) == []
        _old_data_intact(f"http://127.0.0.1:{port}", data_dir)
    finally:
        _stop(server)


def _first_person(base: str) -> dict:
    """The first person to sign up on a new installation (its administrator): their Authorization header."""
    signed_up = requests.post(f"{base}/auth/signup", timeout=10, json={
        "email": "olga@sol.test", "password": "correct horse battery", "name": "Olga"})
    assert signed_up.status_code == 201, signed_up.text
    return {"Authorization": f"Bearer {signed_up.json()['data']['tokens']['accessToken']}"}


def _command_line_backup(data_dir: Path, logs: Path) -> subprocess.Popen:
    with open(logs / "backup.out", "w") as out, open(logs / "backup.err", "w") as err:
        return subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), "backup"],
                                stdout=out, stderr=err, text=True)


def test_the_command_line_backs_up_beside_a_running_server_which_refuses_a_second_meanwhile(tmp_path):
    data_dir, port = tmp_path / "data", free_port()
    base, folder = f"http://127.0.0.1:{port}", data_dir / "backups"
    server = start_server(data_dir, port)
    try:
        admin = _first_person(base)
        add_media(data_dir / "media" / "bulk", BULK)

        command_line = _command_line_backup(data_dir, tmp_path)
        try:
            eventually(lambda: list(folder.glob("*.partial")), seconds=60, every=0.01)  # it is writing
            refused = requests.post(f"{base}{BACKUPS}", headers=admin, json={}, timeout=10)
        finally:
            assert command_line.wait(timeout=180) == 0, (tmp_path / "backup.err").read_text()
        assert (refused.status_code, refused.json()["code"]) == (409, "backup_running"), refused.text

        printed = (tmp_path / "backup.out").read_text()
        ready = re.search(r"^backup ready: (\S+) \((\d+) bytes, sha256 (\w+)\)$", printed, re.MULTILINE)
        assert ready, printed
        path = Path(ready[1])
        assert path.parent == folder and path.stat().st_size == int(ready[2]) and _sha256(path) == ready[3]
        key_text = re.search(r"^ +([A-Z2-7]{4}(?:-[A-Z2-7]{4}){7})$", printed, re.MULTILINE)[1]
        listed = requests.get(f"{base}{BACKUPS}", headers=admin, timeout=10).json()["data"]
        assert [(row["kind"], row["status"], row["fileName"], row["keyId"]) for row in listed] == [
            ("MANUAL", "READY", path.name, keys.key_id(key_text))]

        again = requests.post(f"{base}{BACKUPS}", headers=admin, json={}, timeout=10)
        assert again.status_code == 202, again.text
        assert again.json()["data"]["backupKey"] is None  # the command line showed it
        made = eventually(lambda: _backup(base, admin, again.json()["data"]["id"]),
                          lambda row: row["status"] != "RUNNING", seconds=120, every=0.5)
        assert made["status"] == "READY", made
    finally:
        _stop(server)


def test_a_command_line_backup_killed_beside_a_running_server_does_not_hold_up_the_next_one(tmp_path):
    """The server runs on after the command line's process was killed: the backup it was making is
    FAILED with the reason and its leftovers go once a next one is asked for, not at the server's next
    start only (until then every backup, the daily one too, was refused as "being made")."""
    data_dir, port = tmp_path / "data", free_port()
    base, folder = f"http://127.0.0.1:{port}", data_dir / "backups"
    server = start_server(data_dir, port)
    try:
        admin = _first_person(base)
        add_media(data_dir / "media" / "bulk", BULK)
        command_line = _command_line_backup(data_dir, tmp_path)
        try:
            eventually(lambda: list(folder.glob("*.partial")), seconds=60, every=0.01)
        finally:
            command_line.kill()
            command_line.wait(timeout=10)
        [cut] = requests.get(f"{base}{BACKUPS}", headers=admin, timeout=10).json()["data"]
        assert cut["status"] == "RUNNING", "the backup ended before the kill: nothing was tested"

        # Refused while the row is young (its process may be about to take the backup lock), then made.
        again = eventually(lambda: requests.post(f"{base}{BACKUPS}", headers=admin, json={}, timeout=10),
                           lambda answer: answer.status_code != 409,
                           seconds=service.ABANDONED_AFTER.total_seconds() + 30, every=1)
        assert again.status_code == 202, again.text
        assert (_backup(base, admin, cut["id"])["status"], _backup(base, admin, cut["id"])["reason"]) == (
            "FAILED", "The program stopped while this backup was made; nothing of it was kept.")
        made = eventually(lambda: _backup(base, admin, again.json()["data"]["id"]),
                          lambda row: row["status"] != "RUNNING", seconds=120, every=0.5)
        assert made["status"] == "READY", made
        assert sorted(path.name for path in folder.iterdir()) == sorted([service.LOCK_NAME, made["fileName"]])
    finally:
        _stop(server)
