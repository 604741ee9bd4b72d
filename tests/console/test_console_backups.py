"""The Backups page (the installation's administrators): make one without JavaScript, the key shown
in that answer only, progress while it runs, download and delete, the key replaced; nobody else
opens it."""

import io
import re

from appliance.backups import keys, service
from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.fixtures import engines, sqlite_installation

# The page makes the appliance's own backups, which archive the SQLite file: its installation is SQLite's
# on either suite (on PostgreSQL the page refuses them: tests/backups/test_by_postgresql.py).
if engines.ON_POSTGRES:
    database_url, template_data_dir = sqlite_installation.database_url, sqlite_installation.template_data_dir

PAGE = "/console/backups"


def _post(client, path, data=None):
    return client.post(path, data={"csrf": csrf_of(client.get(PAGE)), **(data or {})})


def test_an_administrator_makes_downloads_and_deletes_a_backup_and_sees_the_key_once(client, owner):
    sign_in(client, email="owner@example.com")
    empty = client.get(PAGE)
    assert empty.status_code == 200 and "No backup yet" in empty.text and 'href="/console/backups"' in empty.text
    first = _post(client, PAGE)
    assert first.status_code == 200  # the key is in this answer: no redirect that would lose it
    shown = re.search(r"data-backup-key>([A-Z2-7-]+)<", first.text).group(1)
    assert keys.key_id(shown)
    service.maker.wait(60)
    page = client.get(PAGE).text
    assert shown not in page and f"key whose id is {keys.key_id(shown)}" in page
    backup_id = re.search(r'data-backup="([^"]+)" data-status="READY"', page).group(1)
    download = client.get(f"{PAGE}/{backup_id}/download")
    assert download.status_code == 200 and download.mimetype == "application/gzip" and download.data[:2] == b"\x1f\x8b"

    second = _post(client, PAGE)
    assert second.status_code == 302 and second.headers["Location"].endswith("done=backup_started#done")
    service.maker.wait(60)
    assert client.get(PAGE).text.count('data-status="READY"') == 2

    replaced = _post(client, f"{PAGE}/key")
    new_key = re.search(r"data-backup-key>([A-Z2-7-]+)<", replaced.text).group(1)
    assert new_key != shown

    deleted = _post(client, f"{PAGE}/{backup_id}/delete")
    assert deleted.status_code == 302 and "done=backup_deleted" in deleted.headers["Location"]
    assert client.get(f"{PAGE}/{backup_id}/download").status_code == 404


def test_a_running_backup_shows_its_progress_and_a_second_is_refused_in_words(client, owner):
    from appliance.backups.models import Backup
    from appliance.core import clock, runtime

    with runtime.get().db.unit_of_work(write=True) as session:
        session.add(Backup(id="b-run", kind="SCHEDULED", status="RUNNING", progress=42, file_name="x.tar.gz",
                           app_version="1", created_at=clock.now()))
    sign_in(client, email="owner@example.com")
    page = client.get(PAGE).text
    assert 'value="42"' in page and "data-live-every" in page and "Making a backup" in page
    refused = _post(client, PAGE)
    assert refused.status_code == 409 and "A backup is being made" in refused.text


def test_only_an_administrator_of_the_installation_opens_it(client, api, owner):
    factories.add_member(api, owner["org"]["id"], "admin", "bo@example.com")
    sign_in(client, email="bo@example.com")
    assert client.get(PAGE).status_code == 403
    whatsapp = client.get(f"/console/{owner['org']['id']}/whatsapp")
    assert 'href="/console/backups"' not in whatsapp.text
    for path in (PAGE, f"{PAGE}/key"):
        assert client.post(path, data={"csrf": csrf_of(whatsapp)}).status_code == 403


def test_setup_offers_a_restore_only_to_a_new_installation_and_says_what_is_missing(client, api):
    setup = client.get("/setup")
    assert 'href="/setup/restore"' in setup.text
    page = client.get("/setup/restore")
    assert page.status_code == 200 and 'name="archive"' in page.text
    no_key = client.post("/setup/restore", data={"csrf": csrf_of(page), "archive": (io.BytesIO(b"x"), "b.tar.gz")},
                         content_type="multipart/form-data")
    assert no_key.status_code == 400 and 'id="error-key"' in no_key.text
    no_file = client.post("/setup/restore", data={"csrf": csrf_of(page), "key": "ABCD"}, content_type="multipart/form-data")
    assert no_file.status_code == 400 and 'id="error-archive"' in no_file.text
    api.signup(email="owner@example.com")
    assert client.get("/setup/restore").headers["Location"].endswith("/sign-in")
