"""On PostgreSQL the database's backups are PostgreSQL's (pg_dump, the provider's snapshots:
docs/postgresql.md, "Backups"): the appliance's own, which archive an SQLite file, are refused in
words before anything is written (the API, the Backups page, the command line's backup and
restore), the daily one is not made, and the pages say whose backups they are instead of "never".
On either suite: the installation here is PostgreSQL's, a database of the tests' server migrated
for the test (its data directory keeps the SQLite template's file, as a moved installation's does)."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest

from appliance import migrations
from appliance.backups import service, tasks
from appliance.cli import main
from appliance.core import clock, runtime
from appliance.core.db import Database
from tests.browser_forms import csrf_of, sign_in
from tests.fixtures import engines
from tests.problems import assert_problem

BACKUPS = "/installation/backups"
SENTENCE = "back it up with pg_dump or your provider's snapshots"


@pytest.fixture
def database_url(request, monkeypatch):
    """This test's own PostgreSQL database, migrated, dropped after the test; in the environment too,
    as the operator sets it, for the command line."""
    url = engines.empty_database("backups_by_postgresql")
    request.addfinalizer(lambda: engines.drop(url))
    database = Database(url)
    try:
        migrations.upgrade(database)
    finally:
        database.dispose()
    monkeypatch.setenv("APPLIANCE_DATABASE_URL", url)
    return url


def _rows() -> list:
    with runtime.get().db.unit_of_work(write=False) as session:
        return service.listing(session)


def test_on_postgresql_the_appliances_backups_are_refused_in_words_and_nothing_is_written(
        api, client, owner, settings, tmp_path, capsys):
    token = owner["token"]
    body = assert_problem(api.post(BACKUPS, {}, token=token), 409, "backups_by_postgresql")
    assert SENTENCE in body["detail"] and "docs/postgresql.md" in body["detail"]
    assert api.get(BACKUPS, token=token).json["data"] == [] and _rows() == []
    assert not list(settings.backups_dir.glob("*.tar.gz*"))
    status = api.get("/installation/status", token=token)
    assert status.status_code == 200 and status.json["data"]["backups"]["byPostgresql"] is True, status.json

    # The pages say whose backups they are, offer none to make, and a posted form is refused in words.
    sign_in(client, email="owner@example.com")
    page = client.get("/console/backups")
    assert page.status_code == 200 and SENTENCE in unescape(page.text) and "Make a backup now" not in page.text
    refused = client.post("/console/backups", data={"csrf": csrf_of(page)})
    assert refused.status_code == 409 and SENTENCE in unescape(refused.text)
    assert _rows() == []
    status_page = client.get("/console/status")
    assert status_page.status_code == 200 and "backups are PostgreSQL's" in unescape(status_page.text)
    assert "Last backup: Never" not in status_page.text
    home = client.get(f"/console/{owner['org']['id']}/home")
    assert home.status_code == 200 and 'data-step="step_backup"' not in home.text
    assert not re.search(r'data-attention="backup_', home.text)

    # The command line: `appliance backup` and `appliance restore` say the sentence (exit 1, as a refusal).
    assert main(["--data-dir", str(settings.data_dir), "backup"]) == 1
    assert SENTENCE in capsys.readouterr().err
    archive = tmp_path / "a.tar.gz"
    archive.write_bytes(b"\x1f\x8b")
    assert main(["--data-dir", str(settings.data_dir), "restore", str(archive), "--key", "ABCD"]) == 1
    assert SENTENCE in capsys.readouterr().err
    assert _rows() == []

    # The daily backup is never due: nights pass, the scheduler looks, nothing is made.
    for _night in range(2):
        clock.advance(24 * 3600)
        tasks.take_daily_backup.call_local()
    service.maker.wait(60)
    assert _rows() == []


def test_on_postgresql_a_new_installation_is_offered_no_restore_and_one_posted_is_refused_in_words(client):
    setup = client.get("/setup")
    assert setup.status_code == 200 and 'href="/setup/restore"' not in setup.text
    page = client.get("/setup/restore")
    refused = client.post("/setup/restore", data={"csrf": csrf_of(page), "key": "ABCD",
                                                  "archive": (io.BytesIO(b"\x1f\x8b"), "b.tar.gz")},
                          content_type="multipart/form-data")
    assert refused.status_code == 409 and SENTENCE in unescape(refused.text)
