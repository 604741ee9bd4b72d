"""Issue 46, safe upgrades: a data directory made by an older program (238e48e, schema revision 0045;
tests/fixtures/upgrade-238e48e.tar.gz, made through that program's API by
tools/make_upgrade_fixture.py, what it holds in the .json beside it) is started by today's
`appliance serve`, which migrates it to today's head. Then everything its people and systems had
still works: the owner signs in, the API key authenticates, the conversations keep their messages,
the customer's photo downloads unchanged, and the connected business account still receives and
sends (its sealed token and app secret read with the kept secret.key)."""

import hashlib
import json
import sqlite3
import tarfile
from contextlib import closing
from pathlib import Path

import pytest
import requests

import appliance
from appliance import migrations
from tests.e2e.conftest import free_port, start_server
from tests.waiting import eventually

pytestmark = pytest.mark.slow  # and `processes` (tests/conftest.py): it runs a server

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ARCHIVE = FIXTURES / "upgrade-238e48e.tar.gz"
MADE = json.loads((FIXTURES / "upgrade-238e48e.json").read_text())


def _revision(data_dir: Path) -> str:
    with closing(sqlite3.connect(data_dir / "appliance.db")) as database:
        [(revision,)] = database.execute("SELECT version_num FROM alembic_version").fetchall()
    return revision


@pytest.fixture
def upgraded(tmp_path):
    """The old data directory unpacked, and today's server started on it (in sandbox mode, as it was
    made: the stored sandbox account is recreated in the simulator)."""
    data_dir = tmp_path / "data"
    with tarfile.open(ARCHIVE) as archive:
        archive.extractall(data_dir, filter="data")
    assert _revision(data_dir) == MADE["revision"] == "0045"  # the old schema, not one migrated by mistake
    port = free_port()
    proc = start_server(data_dir, port, "--sandbox", env={"APPLIANCE_SMTP_URL": "", "APPLIANCE_BASE_URL": ""})
    try:
        yield f"http://127.0.0.1:{port}", data_dir
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0, proc.log_path.read_text()


def test_todays_program_upgrades_a_data_directory_of_238e48e(upgraded):
    base, data_dir = upgraded
    assert _revision(data_dir) == migrations.head_revision()
    org_url = f"{base}/organizations/{MADE['organizationId']}"

    signed_in = requests.post(f"{base}/auth/login", timeout=10, json={
        "email": MADE["owner"]["email"], "password": MADE["owner"]["password"]})
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json()["data"]["user"]["id"] == MADE["owner"]["userId"]
    owner = {"Authorization": f"Bearer {signed_in.json()['data']['tokens']['accessToken']}"}
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
