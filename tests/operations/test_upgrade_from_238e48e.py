"""Issue 46, safe upgrades: a data directory made by an older program (238e48e, schema revision 0045;
tests/fixtures/upgrade-238e48e.tar.gz, made through that program's API by
tools/make_upgrade_fixture.py, what it holds in the .json beside it) is started by today's
`appliance serve`, which migrates it to today's head. Then everything its people and systems had
still works: the owner signs in, the API key authenticates, the conversations keep their messages,
the customer's photo downloads unchanged, and the connected business account still receives and
sends (its sealed token and app secret read with the kept secret.key). And the start kept a
PRE_UPGRADE backup of the old data, which restores with the backup key shown afterwards."""

import hashlib
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
import requests

import appliance
from appliance import migrations
from appliance.backups import keys
from tests.e2e.conftest import free_port, start_server
from tests.fixtures.old_installation import MADE, SERVER_ENV, SERVER_FLAGS, revision, sign_in, unpack
from tests.waiting import eventually

pytestmark = pytest.mark.slow  # and `processes` (tests/conftest.py): it runs a server


@pytest.fixture
def upgraded(tmp_path):
    """The old data directory unpacked, and today's server started on it (in sandbox mode, as it was
    made: the stored sandbox account is recreated in the simulator)."""
    data_dir = unpack(tmp_path / "data")
    assert revision(data_dir) == MADE["revision"] == "0045"  # the old schema, not one migrated by mistake
    port = free_port()
    proc = start_server(data_dir, port, *SERVER_FLAGS, env=SERVER_ENV)
    try:
        yield f"http://127.0.0.1:{port}", data_dir
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0, proc.log_path.read_text()


def test_todays_program_upgrades_a_data_directory_of_238e48e(upgraded):
    base, data_dir = upgraded
    assert revision(data_dir) == migrations.head_revision()
    org_url = f"{base}/organizations/{MADE['organizationId']}"

    owner = sign_in(base)
    # The installation's first person still administers it (the backups and status pages are theirs).
    status = requests.get(f"{base}/installation/status", headers=owner, timeout=10)
    assert status.status_code == 200 and status.json()["data"]["version"] == appliance.__version__

    key = {"X-Api-Key": MADE["apiKey"]["secret"]}
    conversations = requests.get(f"{org_url}/conversations", headers=key, timeout=10)
    assert conversations.status_code == 200, conversations.text
    assert {c["id"] for c in conversations.json()["data"]["items"]} == {c["id"] for c in MADE["conversations"]}
    for made in MADE["conversations"]:
        thread = requests.get(f"{org_url}/conversations/{made['id']}/messages", params={"limit": 200}, headers=key,
                              timeout=10).json()["data"]["items"]
        assert sorted(m["id"] for m in thread) == made["messageIds"] and len(thread) == made["messages"]
        assert sum(m["direction"] == "in" for m in thread) == made["inbound"]
        assert {m["status"] for m in thread if m["direction"] == "out"} <= {"delivered", "read"}

    media = MADE["media"]
    # Served from the kept file: the simulator started empty, so the network no longer has it.
    kept = data_dir / "media" / MADE["organizationId"] / media["messageId"]
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == media["sha256"]
    photo = requests.get(f"{org_url}/messages/{media['messageId']}/media", headers=key, timeout=10)
    assert photo.status_code == 200 and photo.headers["Content-Type"].startswith(media["mimeType"])
    assert hashlib.sha256(photo.content).hexdigest() == media["sha256"]

    [account] = requests.get(f"{org_url}/wabas", headers=owner, timeout=10).json()["data"]
    assert (account["id"], account["wabaId"], account["sandbox"], account["needsReauth"]) == (
        MADE["businessAccount"]["id"], MADE["businessAccount"]["wabaId"], True, False)
    [number] = requests.get(f"{org_url}/phone-numbers", headers=owner, timeout=10).json()["data"]
    assert (number["id"], number["phoneNumberId"]) == (MADE["phoneNumber"]["id"], MADE["phoneNumber"]["phoneNumberId"])

    # The customer writes again (the webhook signed with the kept app secret) and the business
    # answers with the old API key (the network called with the kept access token).
    ana = MADE["conversations"][0]
    wrote = requests.post(f"{base}/netsim/_control/inbound", timeout=10, json={
        "phoneNumberId": number["phoneNumberId"], "from": ana["customer"], "name": "Ana Pérez", "type": "text",
        "text": {"body": "¿Siguen abiertos después de la actualización?"}})
    assert wrote.status_code == 201, wrote.text

    def thread_of_ana():
        return requests.get(f"{org_url}/conversations/{ana['id']}/messages", params={"limit": 200}, headers=key,
                            timeout=10).json()["data"]["items"]
    eventually(thread_of_ana, lambda items: wrote.json()["wamid"] in {m["wamid"] for m in items})
    answer = requests.post(f"{org_url}/messages", headers={**key, "Idempotency-Key": "after-upgrade-1"}, timeout=10,
                           json={"phoneNumberId": number["id"], "to": ana["customer"], "type": "text",
                                 "payload": {"body": "¡Claro! Hasta las 7 p. m."}})
    assert answer.status_code == 201, answer.text
    sent = eventually(lambda: requests.get(f"{org_url}/messages/{answer.json()['data']['id']}", headers=key,
                                           timeout=10).json()["data"], lambda m: m["status"] == "delivered")
    network = requests.get(f"{base}/netsim/_control/sent", params={"phoneNumberId": number["phoneNumberId"]},
                           timeout=10).json()["data"]
    assert [m["text"]["body"] for m in network if m["wamid"] == sent["wamid"]] == ["¡Claro! Hasta las 7 p. m."]

    # The knowledge note is found by its words (FTS5) and its meaning (the vec0 table).
    found = requests.post(f"{org_url}/bot/knowledge/search", headers=owner, timeout=60,
                          json={"query": "pan de masa madre"})
    assert found.status_code == 201, found.text
    [hit] = found.json()["data"]["results"]
    assert hit["documentId"] == MADE["knowledgeDocument"]["id"] and hit["porTexto"] and hit["similarity"] > 0


def test_the_upgrade_kept_a_backup_of_the_old_data_that_restores_with_the_key_shown_later(upgraded, tmp_path):
    """The start that migrated took a PRE_UPGRADE backup first (listed READY, at the old revision).
    Its backup key is new to this installation (revision 0045 kept none): the first manual backup's
    answer shows it, and it opens that archive: `appliance restore` puts the old data in a new
    directory and migrates it forward."""
    base, data_dir = upgraded
    owner = sign_in(base)
    listed = requests.get(f"{base}/installation/backups", headers=owner, timeout=10)
    assert listed.status_code == 200, listed.text
    [kept] = listed.json()["data"]
    assert (kept["kind"], kept["status"], kept["schemaRevision"], kept["appVersion"]) == (
        "PRE_UPGRADE", "READY", "0045", appliance.__version__)

    started = requests.post(f"{base}/installation/backups", headers=owner, json={}, timeout=10)
    assert started.status_code == 202, started.text
    key_text = started.json()["data"]["backupKey"]
    assert key_text and keys.key_id(key_text) == kept["keyId"] == started.json()["data"]["keyId"]
    eventually(lambda: requests.get(f"{base}/installation/backups/{started.json()['data']['id']}", headers=owner,
                                    timeout=10).json()["data"]["status"], lambda status: status == "READY", seconds=60)

    download = requests.get(f"{base}/installation/backups/{kept['id']}/download", headers=owner, timeout=60)
    assert download.status_code == 200 and hashlib.sha256(download.content).hexdigest() == kept["sha256"]
    archive = tmp_path / "pre-upgrade.tar.gz"
    archive.write_bytes(download.content)
    restored = tmp_path / "restored"
    done = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(restored), "restore", str(archive),
                           "--key", key_text], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"the database is at revision {migrations.head_revision()}" in done.stdout
    assert revision(restored) == migrations.head_revision()
    with closing(sqlite3.connect(restored / "appliance.db")) as database:
        assert database.execute("SELECT id, email FROM users").fetchall() == [(MADE["owner"]["userId"],
                                                                              MADE["owner"]["email"])]
        message_ids = {row[0] for row in database.execute("SELECT id FROM messages")}
    assert message_ids == {id_ for made in MADE["conversations"] for id_ in made["messageIds"]}
    assert (restored / "secret.key").read_bytes() == (data_dir / "secret.key").read_bytes()
    photo = restored / "media" / MADE["organizationId"] / MADE["media"]["messageId"]
    assert hashlib.sha256(photo.read_bytes()).hexdigest() == MADE["media"]["sha256"]
