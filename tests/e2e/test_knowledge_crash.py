"""Issue 19: a server killed (SIGKILL) while it reads a document resumes it at the next start: the
document ends READY with its passages once, no vector or word without its passage, none twice."""

import signal
import sqlite3

import pysqlite3.dbapi2 as sqlite
import requests
import sqlite_vec

from tests.bench.bench_knowledge import _hundred_page_pdf
from tests.e2e.conftest import free_port, start_server
from tests.waiting import eventually


def test_a_document_cut_short_by_a_kill_is_read_at_the_next_start(tmp_path):
    port, data_dir = free_port(), tmp_path / "data"
    base = f"http://127.0.0.1:{port}"
    proc = start_server(data_dir, port)
    signup = requests.post(f"{base}/auth/signup", json={"email": "k@example.com", "password": "kill test pass",
                                                        "name": "K"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {signup['data']['tokens']['accessToken']}"}
    org = requests.post(f"{base}/organizations", json={"name": "K", "slug": "kill", "billingEmail": "b@kill.test"},
                        headers=auth, timeout=10).json()["data"]["id"]
    docs = f"{base}/organizations/{org}/bot/knowledge"
    made = requests.post(docs, files={"file": ("manual.pdf", _hundred_page_pdf(), "application/pdf")}, headers=auth,
                         timeout=30)
    assert made.status_code == 201 and made.json()["data"]["status"] == "PROCESSING"
    proc.send_signal(signal.SIGKILL)  # queued or mid-read (a 100-page PDF takes seconds): both must resume
    proc.wait(timeout=10)
    with sqlite3.connect(data_dir / "appliance.db") as db:
        assert db.execute("SELECT status FROM knowledge_documents").fetchone() == ("PROCESSING",)

    proc = start_server(data_dir, port)
    try:
        document = eventually(lambda: requests.get(f"{docs}/{made.json()['data']['id']}", headers=auth, timeout=10).json()["data"],
                              lambda d: d["status"] != "PROCESSING", seconds=60)
        assert document["status"] == "READY" and document["chunkCount"] == 100
        db = sqlite.connect(str(data_dir / "appliance.db"))
        db.enable_load_extension(True)
        sqlite_vec.load(db)
        chunks = db.execute("SELECT count(*), count(DISTINCT ordinal) FROM knowledge_chunks").fetchone()
        words = db.execute("SELECT count(*) FROM fts_knowledge_chunks").fetchone()[0]
        vectors = db.execute("SELECT count(*) FROM vec_knowledge_chunks").fetchone()[0]
        db.close()
        assert chunks == (100, 100) and words == vectors == 100
        found = requests.post(f"{docs}/search", json={"query": "capítulo"}, headers=auth, timeout=10).json()["data"]
        assert found["results"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
