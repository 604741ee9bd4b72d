"""The daily backup and what is kept (api-decisions, "Operating the appliance": daily at 03:00 in the
installation's time zone, 7 daily and 4 weekly kept). The project's clock is moved night after night
and the periodic task is run as the queue's scheduler runs it (it looks every minute); each backup is
made for real, in its thread."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from appliance import migrations
from appliance.backups import service, tasks
from appliance.core import clock, runtime
from appliance.core.ids import new_id

# 03:00 in Tokyo is 18:00 UTC the day before: a schedule or a retention that counted days and weeks
# in UTC (or in the machine's zone) would pick other moments and other backups. No summer time there.
ZONE_NAME = "Asia/Tokyo"
ZONE = ZoneInfo(ZONE_NAME)
NIGHTS = 40


@pytest.fixture
def settings(settings):
    return settings.replace(timezone=ZONE_NAME, backup_at="03:00")


def _at(day: date, hour: int, minute: int) -> None:
    """Move the clock forward to `day` at `hour`:`minute` in the installation's zone."""
    moment = datetime.combine(day, time(hour, minute), ZONE)
    assert moment > clock.now()
    clock.advance((moment - clock.now()).total_seconds())


def _look() -> None:
    """The scheduler's look at the daily backup, and the backup it started, if any, made."""
    tasks.take_daily_backup.call_local()
    service.maker.wait(60)


def _backups() -> list[dict]:
    """Every backup, newest first, with the local day it was made."""
    with runtime.get().db.unit_of_work(write=False) as session:
        return [{"id": row.id, "kind": row.kind, "status": row.status, "file_name": row.file_name,
                 "day": row.created_at.astimezone(ZONE).date()} for row in service.listing(session)]


def _manual(api, token: str) -> str:
    started = api.post("/installation/backups", {}, token=token)
    assert started.status_code == 202, started.json
    service.maker.wait(60)
    return started.json["data"]["id"]


def _pre_upgrade(settings) -> str:
    """A PRE_UPGRADE backup as a start with migrations to run takes and records it (upgrade.migrate,
    without the migrations: this database is at the newest revision already)."""
    rt = runtime.get()
    with rt.db.unit_of_work(write=True) as session:
        key_text = service.current_key(session)
    backup_id, created_at, revision = new_id(), clock.now(), migrations.revision_of(rt.db)
    with service.backup_lock(settings):
        path, written = service.make_archive(settings, backup_id=backup_id, kind=service.PRE_UPGRADE,
                                             key_text=key_text, revision=revision, created_at=created_at)
    with rt.db.unit_of_work(write=True) as session:
        service.record_pre_upgrade(session, backup_id=backup_id, path=path, written=written, revision=revision,
                                   key_text=key_text, created_at=created_at)
    return backup_id


def test_one_daily_backup_a_night_once_03_00_has_passed_in_the_installations_zone(owner, settings):
    first_day = clock.now().astimezone(ZONE).date() + timedelta(days=1)
    _at(first_day, 12, 0)
    _look()  # the first look starts the schedule: a new installation's first daily backup is the next night's
    assert _backups() == []
    next_night = first_day + timedelta(days=1)
    _at(next_night, 2, 59)
    _look()
    assert _backups() == []

    _at(next_night, 3, 0)
    _look()
    [made] = _backups()
    assert (made["kind"], made["status"], made["day"]) == ("SCHEDULED", "READY", next_night)
    assert (settings.backups_dir / made["file_name"]).is_file()
    for hour, minute in ((3, 1), (3, 30), (12, 0), (23, 59)):  # not twice the same night
        _at(next_night, hour, minute)
        _look()
        assert [row["id"] for row in _backups()] == [made["id"]]

    # A machine that was off at 03:00 makes the night's backup when it looks again, once.
    missed_night = next_night + timedelta(days=1)
    _at(missed_night, 9, 30)
    _look()
    _at(missed_night, 9, 31)
    _look()
    assert [(row["day"], row["status"]) for row in _backups()] == [(missed_night, "READY"), (next_night, "READY")]


def test_kept_are_the_newest_of_7_days_and_4_weeks_every_manual_one_and_the_3_newest_pre_upgrade(
        api, owner, settings):
    manual = [_manual(api, owner["token"])]
    first_day = clock.now().astimezone(ZONE).date() + timedelta(days=1)
    _at(first_day, 12, 0)
    _look()
    nights = [first_day + timedelta(days=number) for number in range(1, NIGHTS + 1)]
    pre_upgrade = []
    for number, night in enumerate(nights, 1):
        _at(night, 3, 1)
        _look()
        if number % 6 == 0:  # an upgrade now and then, in the morning
            _at(night, 9, 0)
            pre_upgrade.append(_pre_upgrade(settings))
        if number == NIGHTS // 2:  # someone makes one by hand, in the middle
            _at(night, 10, 0)
            manual.append(_manual(api, api.login(email="owner@example.com")["tokens"]["accessToken"]))

    newest_of_week = {}
    for night in nights:  # oldest first: each week ends holding its newest night
        newest_of_week[night.isocalendar()[:2]] = night
    expected_days = set(nights[-7:]) | set(sorted(newest_of_week.values())[-4:])
    assert len(expected_days) > 7  # the weekly ones reach past the last 7 days
    rows = _backups()
    scheduled = [row for row in rows if row["kind"] == "SCHEDULED"]
    assert sorted(row["day"] for row in scheduled) == sorted(expected_days)  # one each: not two the same night
    assert {row["status"] for row in rows} == {"READY"}
    assert sorted(row["id"] for row in rows if row["kind"] == "MANUAL") == sorted(manual)
    assert sorted(row["id"] for row in rows if row["kind"] == "PRE_UPGRADE") == sorted(pre_upgrade[-3:])
    # An archive for each backup kept, and none for those no longer kept.
    on_disk = {path.name for path in settings.backups_dir.glob("*.tar.gz")}
    assert on_disk == {row["file_name"] for row in rows}
