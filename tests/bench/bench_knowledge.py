"""Issue 19's targets for the knowledge base, on a real server over loopback HTTP:

- search p95 under 30 ms with 10,000 passages in the organization and 100,000 in the database
  (10 organizations), through POST /bot/knowledge/search with an API key (the query embedded,
  both indexes read, the search recorded);
- ingestion of a 100-page PDF (upload to READY), in pages per second;
- the memory the embedding model adds to the server (RSS before and after its first use).

The 100,000 passages are written straight into the database (random unit vectors): embedding them
for real would take most of an hour and measure the model, not the search. Their words follow
the shape of real text: a Zipf distribution over 20,000 word forms, with the business words the
queries use (envío, precio, horario...) in about 5% of passages each, as in a real library; a
corpus where every passage holds every query word is the word index's worst case, and is measured
too (`--dense`). Each organization's passages belong to one real document.

Run: .venv/bin/python tests/bench/bench_knowledge.py
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_auth import _call, running_server, scratch_dir  # noqa: E402

from appliance.knowledge import word_index  # noqa: E402

ORGS, PER_ORG, SEARCHES = 10, 10_000, 600
TARGET_P95_MS = 30.0
VOCABULARY = ("pan tarta envío precio horario tienda pedido cliente domingo reparto factura tarjeta devolución "
              "garantía producto oferta descuento cita reserva mesa menú café bollo queso chocolate harina horno "
              "obrador calle ciudad pueblo semana mes año euros gratis rápido nuevo grande pequeño caliente frío "
              "abrimos cerramos llamamos enviamos pagamos compramos vendemos preparamos servimos entregamos").split()
QUERIES = ["¿Cuánto cuesta el envío?", "horario del domingo", "¿Aceptan tarjeta?", "precio de la tarta de queso",
           "¿Hacen reparto a los pueblos?", "quiero devolver un pedido", "factura para empresa", "reserva de mesa",
           "What time do you open?", "Do you deliver on Sundays?", "menú del día", "descuento para clientes",
           "pan sin gluten", "¿Dónde está la tienda?", "garantía de los productos"]


def rss_mb(port: int) -> float:
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if f"--port\x00{port}\x00".encode() in (proc / "cmdline").read_bytes():
                    for line in (proc / "status").read_text().splitlines():
                        if line.startswith("VmRSS:"):
                            return int(line.split()[1]) / 1024
            except OSError:
                continue
    raise RuntimeError("server process not found")


def _signup_org(conn, n: int) -> tuple[str, str]:
    _, signup = _call(conn, "POST", "/auth/signup", {"email": f"k{n}@example.com", "password": "bench password",
                                                     "name": f"K{n}"})
    jwt = signup["data"]["tokens"]["accessToken"]
    _, org = _call(conn, "POST", "/organizations", {"name": f"K{n}", "slug": f"know-{n}", "billingEmail": f"b@k{n}.test"},
                   token=jwt)
    _, key = _call(conn, "POST", f"/organizations/{org['data']['id']}/api-keys", {"name": "bench"}, token=jwt)
    return org["data"]["id"], key["data"]["secret"]


def _passage_words(rng, dense: bool):
    """A function giving one passage's words."""
    if dense:
        words = np.array(VOCABULARY)
        return lambda: " ".join(rng.choice(words, size=int(rng.integers(60, 160))))
    syllables = ["ba", "ce", "di", "fo", "gu", "la", "me", "ni", "po", "ru", "sa", "te", "vi", "zo", "mar", "sol", "tren"]
    forms = np.array(["".join(rng.choice(syllables, size=int(rng.integers(2, 4)))) + str(i % 7) for i in range(20_000)])
    weights = 1.0 / np.arange(1, len(forms) + 1) ** 1.07
    weights /= weights.sum()
    business = np.array(VOCABULARY)

    def passage():
        size = int(rng.integers(60, 160))
        drawn = forms[rng.choice(len(forms), size=size, p=weights)]
        mask = rng.random(size) < 0.03  # ~5% of passages hold any one business word
        drawn[mask] = rng.choice(business, size=int(mask.sum()))
        return " ".join(drawn)
    return passage


def _seed(data_dir: str, org_ids: list[str], dense: bool) -> float:
    """PER_ORG passages per organization, under one READY document each, straight into the tables."""
    import pysqlite3.dbapi2 as sqlite
    import sqlite_vec
    rng = np.random.default_rng(7)
    passage = _passage_words(rng, dense)
    db = sqlite.connect(str(Path(data_dir) / "appliance.db"), timeout=60)
    db.enable_load_extension(True)
    sqlite_vec.load(db)
    db.isolation_level = None
    started = time.perf_counter()
    next_id = 1_000_000
    for org in org_ids:
        doc_id = str(uuid.uuid4())
        now = "2026-11-23 00:00:00.000000"
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO knowledge_documents (id, organization_id, title, tags, agent_ids, compartido, source_type, "
                   "status, chunk_count, processing_attempts, created_at, updated_at) VALUES "
                   "(?, ?, 'Seeded', '[]', '[]', 1, 'NOTE', 'READY', ?, 0, ?, ?)", (doc_id, org, PER_ORG, now, now))
        vectors = rng.standard_normal((PER_ORG, 512)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = []
        for i in range(PER_ORG):
            text = passage()
            rows.append((next_id, doc_id, org, i, text, vectors[i].tobytes()))
            next_id += 1
        db.executemany("INSERT INTO knowledge_chunks (id, document_id, organization_id, ordinal, text) VALUES (?, ?, ?, ?, ?)",
                       [r[:5] for r in rows])
        for table in ("vec_knowledge_chunks", "vec_knowledge_vectors"):  # as vector_index.add writes them
            db.executemany(f"INSERT INTO {table} (chunk_id, organization_id, document_id, embedding) VALUES (?, ?, ?, ?)",
                           [(r[0], org, doc_id, r[5]) for r in rows])
        db.execute("INSERT INTO vec_knowledge_revisions (organization_id, revision) VALUES (?, 1) "
                   "ON CONFLICT (organization_id) DO UPDATE SET revision = revision + 1", (org,))
        db.executemany("INSERT INTO fts_knowledge_chunks (rowid, words) VALUES (?, ?)",  # as word_index.add does
                       [(r[0], word_index.indexed_words(org, r[4])) for r in rows])
        db.execute("COMMIT")
    db.close()
    return time.perf_counter() - started


def _hundred_page_pdf() -> bytes:
    from tests.knowledge.samples import pdf_bytes
    rng = random.Random(3)
    pages = []
    for page in range(100):
        paragraphs = [f"# Capítulo {page + 1}"]
        for _ in range(4):
            paragraphs.append(" ".join(rng.choice(VOCABULARY) for _ in range(75)).capitalize() + ".")
        pages.append(paragraphs)
    return pdf_bytes(pages)


def _upload(port: int, org_id: str, key: str, name: str, content: bytes) -> dict:
    boundary = "benchboundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/pdf\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", f"/organizations/{org_id}/bot/knowledge", body,
                 {"X-Api-Key": key, "Content-Type": f"multipart/form-data; boundary={boundary}"})
    response = conn.getresponse()
    data = json.loads(response.read())
    assert response.status == 201, data
    return data["data"]


def main() -> int:
    data_dir = scratch_dir("bench-knowledge-")
    with running_server(data_dir=data_dir) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        orgs = [_signup_org(conn, n) for n in range(ORGS)]
        org_id, key = orgs[0]
        idle = rss_mb(port)
        # The model's cost: a note processed (the model loads), then the server's RSS again.
        status, note = _call(conn, "POST", f"/organizations/{org_id}/bot/knowledge/notes",
                             {"title": "Envíos", "content": "El envío cuesta 3 euros."}, headers={"X-Api-Key": key})
        assert status == 201, note
        for _ in range(100):
            if _call(conn, "GET", f"/organizations/{org_id}/bot/knowledge/{note['data']['id']}",
                     headers={"X-Api-Key": key})[1]["data"]["status"] == "READY":
                break
            time.sleep(0.1)
        with_model = rss_mb(port)
        print(f"server RSS: {idle:.0f} MB before the model, {with_model:.0f} MB after (+{with_model - idle:.0f} MB; goal < 150)")

        pdf = _hundred_page_pdf()
        started = time.perf_counter()
        doc = _upload(port, org_id, key, "manual.pdf", pdf)
        accepted = time.perf_counter() - started
        while True:
            _, current = _call(conn, "GET", f"/organizations/{org_id}/bot/knowledge/{doc['id']}", headers={"X-Api-Key": key})
            if current["data"]["status"] != "PROCESSING":
                break
            time.sleep(0.05)
        took = time.perf_counter() - started
        print(f"ingestion: 100-page PDF ({len(pdf) // 1024} KB) answered 201 in {accepted * 1000:.0f} ms, "
              f"{current['data']['status']} with {current['data']['chunkCount']} passages after {took:.1f} s "
              f"= {100 / took:.1f} pages/s")

        dense = "--dense" in sys.argv
        seeded = _seed(data_dir, [org for org, _ in orgs], dense)
        print(f"seeded {ORGS} x {PER_ORG:,} passages ({ORGS * PER_ORG:,} in all, "
              f"{'every query word in most passages' if dense else 'Zipf words'}) in {seeded:.0f} s")
        search_path = f"/organizations/{org_id}/bot/knowledge/search"
        rng = random.Random(11)
        for _ in range(30):  # warm-up: statements, pages of the indexes in the cache
            _call(conn, "POST", search_path, {"query": rng.choice(QUERIES)}, headers={"X-Api-Key": key})
        latencies, errors = [], 0
        for _ in range(SEARCHES):
            began = time.perf_counter()
            status, found = _call(conn, "POST", search_path, {"query": rng.choice(QUERIES), "topK": 5},
                                  headers={"X-Api-Key": key})
            latencies.append((time.perf_counter() - began) * 1000)
            errors += status != 201
        latencies.sort()
        p50, p95, p99 = (latencies[int(len(latencies) * q) - 1] for q in (0.5, 0.95, 0.99))
        print(f"search over HTTP, {SEARCHES} queries, one client: p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, "
              f"mean {statistics.mean(latencies):.1f} ms (target p95 < {TARGET_P95_MS:.0f} ms), errors {errors}")
        print(f"server RSS at the end: {rss_mb(port):.0f} MB")
    return 0 if p95 < TARGET_P95_MS and not errors and current["data"]["status"] == "READY" else 1


if __name__ == "__main__":
    raise SystemExit(main())
