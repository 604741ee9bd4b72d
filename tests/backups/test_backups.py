"""Backups through the API (api-decisions, "Operating the appliance"): made in their thread as in
production, the key shown once, the archive whole and restorable, one at a time, and every refusal
in words."""

import hashlib
import io
import json
import tarfile

import pysqlite3.dbapi2 as sqlite
import pytest

from appliance.backups import archive, keys, restore, service
from appliance.backups.models import Backup
from appliance.core import clock, runtime
from tests.problems import assert_problem

BACKUPS = "/installation/backups"


def _make(api, token) -> dict:
    answer = api.post(BACKUPS, {}, token=token)
    assert answer.status_code == 202, answer.json
    service.maker.wait(60)
    started = answer.json["data"]
    done = api.get(f"{BACKUPS}/{started['id']}", token=token).json["data"]
    assert done["status"] == "READY", done
    return {**done, "backupKey": started["backupKey"]}


def _download(client, token, backup_id, tmp_path):
    answer = client.get(f"{BACKUPS}/{backup_id}/download", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.mimetype == "application/gzip"
    path = tmp_path / "downloaded.tar.gz"
    path.write_bytes(answer.data)
    return path


def test_a_backup_holds_everything_and_restores_into_a_new_directory(api, client, owner, settings, tmp_path):
    media = settings.media_dir / owner["org"]["id"] / "m1"
    media.parent.mkdir(parents=True)
    media.write_bytes(b"\xff\xd8 a customer's photo")
    first = _make(api, owner["token"])
    key_text = first["backupKey"]
    assert key_text and first["keyId"] == keys.key_id(key_text) and first["progress"] == 100
    assert first["kind"] == "MANUAL" and first["sizeBytes"] > 0 and first["schemaRevision"]
    path = _download(client, owner["token"], first["id"], tmp_path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == first["sha256"]
    second = _make(api, owner["token"])
    assert second["backupKey"] is None  # shown once, never again

    with tarfile.open(path) as tar:
        names = tar.getnames()
    assert names[:2] == ["appliance.db", "queue.db"] and names[-1] == "manifest.json"
    assert f"media/{owner['org']['id']}/m1" in names

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    manifest = restore.restore(path, key_text.lower().replace("-", " "), fresh)  # typed loosely
    assert manifest["id"] == first["id"]
    assert (fresh / "media" / owner["org"]["id"] / "m1").read_bytes() == media.read_bytes()
    assert (fresh / "secret.key").read_text() == (settings.data_dir / "secret.key").read_text()
    assert not list(fresh.glob(".restore-*")) and not (fresh / restore.JOURNAL).exists()

    restored = sqlite.connect(str(fresh / "appliance.db"))
    assert restored.execute("select email from users").fetchall() == [("owner@example.com",)]
    restored.close()


def test_a_second_backup_while_one_runs_is_409_and_refusals_are_words(api, owner, settings):
    with runtime.get().db.unit_of_work(write=True) as session:
        session.add(Backup(id="b-running", kind="MANUAL", status="RUNNING", file_name="x.tar.gz",
                           app_version="0", created_at=clock.now()))
    assert_problem(api.post(BACKUPS, {}, token=owner["token"]), 409, "backup_running")
    # another process (the command line) holding the backup lock: 409 as well
    with runtime.get().db.unit_of_work(write=True) as session:
        for row in service.listing(session):
            session.delete(row)
    lock = service.backup_lock(settings)
    lock.acquire()
    try:
        assert_problem(api.post(BACKUPS, {}, token=owner["token"]), 409, "backup_running")
    finally:
        lock.release()


def test_only_installation_admins_and_not_found_ids(api, owner):
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    for method, path in (("get", BACKUPS), ("post", BACKUPS), ("post", "/installation/backup-key")):
        answer = api.get(path, token=stranger) if method == "get" else api.post(path, {}, token=stranger)
        assert_problem(answer, 403, "not_installation_admin")
    assert_problem(api.get(f"{BACKUPS}/nope", token=owner["token"]), 404, "backup_not_found")
    assert_problem(api.delete(f"{BACKUPS}/nope", token=owner["token"]), 404, "backup_not_found")


def test_a_replaced_key_seals_new_archives_and_old_ones_keep_theirs(api, client, owner, tmp_path):
    old = _make(api, owner["token"])
    replaced = api.post("/installation/backup-key", {}, token=owner["token"]).json["data"]
    assert replaced["backupKey"] != old["backupKey"] and replaced["keyId"] == keys.key_id(replaced["backupKey"])
    new = _make(api, owner["token"])
    assert new["keyId"] == replaced["keyId"] and new["backupKey"] is None
    old_path = _download(client, owner["token"], old["id"], tmp_path)
    target = tmp_path / "target"
    target.mkdir()
    with pytest.raises(archive.ArchiveRefused, match="another backup key"):
        restore.restore(old_path, replaced["backupKey"], target)
    assert sorted(p.name for p in target.iterdir()) == []  # nothing changed, nothing left
    restore.restore(old_path, old["backupKey"], target)
    assert (target / "appliance.db").exists()


def _rewritten(path, tmp_path, change) -> str:
    """The archive with its members passed through `change(name, bytes) -> bytes | None` (None drops it)."""
    out = tmp_path / f"changed-{len(list(tmp_path.iterdir()))}.tar.gz"
    with tarfile.open(path) as source, tarfile.open(out, "w:gz") as target:
        for member in source.getmembers():
            data = change(member.name, source.extractfile(member).read())
            if data is not None:
                member.size = len(data)
                target.addfile(member, io.BytesIO(data))
    return out


def test_damaged_foreign_newer_or_wrongly_keyed_archives_are_refused_before_anything_changes(api, client, owner, tmp_path):
    made = _make(api, owner["token"])
    good = _download(client, owner["token"], made["id"], tmp_path)
    key_text = made["backupKey"]

    def newer(name, data):
        if name == "manifest.json":
            manifest = json.loads(data)
            manifest["schemaRevision"] = "9999"
            return json.dumps(manifest).encode()
        return data

    cases = {
        "truncated": (tmp_path / "cut.tar.gz", "damaged or cut short"),
        "flipped": (_rewritten(good, tmp_path, lambda n, d: d[:-1] + bytes([d[-1] ^ 1]) if n == "queue.db" else d), "hash differs"),
        "dropped": (_rewritten(good, tmp_path, lambda n, d: None if n.startswith("media/") or n == "appliance.db" else d), "lacks"),
        "foreign": (_rewritten(good, tmp_path, lambda n, d: None if n == "manifest.json" else d), "no manifest"),
        "newer": (_rewritten(good, tmp_path, newer), "newer version"),
    }
    cases["truncated"][0].write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    target = tmp_path / "target"
    target.mkdir()
    (target / "appliance.db").write_bytes(b"the data as it was")
    for name, (path, words) in cases.items():
        with pytest.raises(archive.ArchiveRefused, match=words):
            restore.restore(path, key_text, target)
        assert sorted(p.name for p in target.iterdir()) == ["appliance.db"], name
        assert (target / "appliance.db").read_bytes() == b"the data as it was"
    with pytest.raises(archive.ArchiveRefused, match="not a backup key"):
        restore.restore(good, "hello", target)
    with pytest.raises(archive.ArchiveRefused, match="another backup key"):
        restore.restore(good, keys.new_key(), target)
    with pytest.raises(archive.ArchiveRefused, match="APPLIANCE_SECRET_KEY"):
        restore.restore(good, key_text, target, secret_setting="another secret")
    assert sorted(p.name for p in target.iterdir()) == ["appliance.db"]


def test_an_archive_with_a_path_outside_is_refused(tmp_path):
    evil = tmp_path / "evil.tar.gz"
    with tarfile.open(evil, "w:gz") as tar:
        info = tarfile.TarInfo("../../etc/cron.d/x")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"bad"))
    staging = tmp_path / "staging"
    staging.mkdir()
    with pytest.raises(archive.ArchiveRefused, match="no backup of this program holds"):
        archive.extract(evil, staging)
    assert not (tmp_path.parent / "etc").exists()
