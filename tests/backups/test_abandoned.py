"""A backup whose process died while the server runs on (the command line's, killed): its RUNNING row
does not hold up the next backup once it is older than service.ABANDONED_AFTER and nobody holds the
backup lock; while someone does (a long backup being made), a second is still 409. The real kill is
in test_kills.py; here the clock moves instead of waiting."""

from appliance.backups import service
from appliance.backups.models import Backup
from appliance.core import clock, runtime
from tests.problems import assert_problem

BACKUPS = "/installation/backups"


def test_a_running_row_nobody_makes_is_failed_by_the_next_backup_and_a_held_lock_still_refuses(
        api, owner, settings):
    with runtime.get().db.unit_of_work(write=True) as session:
        session.add(Backup(id="b-killed", kind="MANUAL", status="RUNNING", file_name="killed.tar.gz",
                           app_version="0", created_at=clock.now()))
    folder = service.folder(settings)
    (folder / "killed.tar.gz.partial").write_bytes(b"half an archive")
    (folder / ".staging-b-killed").mkdir()
    assert_problem(api.post(BACKUPS, {}, token=owner["token"]), 409, "backup_running")  # young: maybe starting

    clock.advance(service.ABANDONED_AFTER.total_seconds() + 1)
    lock = service.backup_lock(settings)
    lock.acquire()  # a process making it after all (a long backup)
    try:
        assert_problem(api.post(BACKUPS, {}, token=owner["token"]), 409, "backup_running")
        assert api.get(f"{BACKUPS}/b-killed", token=owner["token"]).json["data"]["status"] == "RUNNING"
        assert (folder / "killed.tar.gz.partial").exists()
    finally:
        lock.release()

    started = api.post(BACKUPS, {}, token=owner["token"])
    assert started.status_code == 202, started.json
    service.maker.wait(60)
    killed = api.get(f"{BACKUPS}/b-killed", token=owner["token"]).json["data"]
    assert (killed["status"], killed["reason"]) == ("FAILED", service.STOPPED_REASON)
    made = api.get(f"{BACKUPS}/{started.json['data']['id']}", token=owner["token"]).json["data"]
    assert made["status"] == "READY", made
    assert sorted(path.name for path in folder.iterdir()) == sorted([service.LOCK_NAME, made["fileName"]])
