"""Retrieval quality of the knowledge base on the evaluation set of knowledge_eval_set.py:
recall@5 and MRR (over the first 20) of the vector ranking alone, the word ranking alone, and
their fusion; then the calibration of minSimilarity: for each threshold, how many answerable
questions keep their answer in the top 5 and how many unanswerable ones come back empty.

The library is built through the API of a real app (files uploaded, notes written, the page read
over HTTP from a loopback server), in a temporary data directory.

Run: .venv/bin/python tests/bench/eval_knowledge.py
"""

from __future__ import annotations

import io
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench import knowledge_eval_set as eval_set  # noqa: E402
from tests.fixtures import local_server  # noqa: E402

POOL = 20
THRESHOLDS = [round(0.05 * i, 2) for i in range(0, 13)]


@contextmanager
def serving(pages: dict[str, bytes]):
    """A loopback web server for the set's pages."""
    class Handler(local_server.QuietHandler):
        def do_GET(self):
            body = pages.get(self.path.lstrip("/"))
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body or b"")

    with local_server.serving(Handler) as server:
        yield server.url


def build_library(client, org_id: str, token: str, base_url: str) -> None:
    """Every document of the set, through the API; fails loudly if one does not become READY."""
    headers = {"Authorization": f"Bearer {token}"}
    base = f"/organizations/{org_id}/bot/knowledge"
    for doc in eval_set.documents():
        if doc["kind"] == "file":
            made = client.post(base, data={"file": (io.BytesIO(doc["content"]), doc["name"])}, headers=headers,
                               content_type="multipart/form-data")
        elif doc["kind"] == "note":
            made = client.post(f"{base}/notes", json={"title": doc["title"], "content": doc["content"]}, headers=headers)
        else:
            made = client.post(f"{base}/url", json={"url": f"{base_url}/{doc['name']}"}, headers=headers)
        assert made.status_code == 201, made.get_json()
    listed = client.get(base, headers=headers).get_json()["data"]
    assert all(d["status"] == "READY" for d in listed), [(d["title"], d["status"], d["error"]) for d in listed]


@dataclass
class Scores:
    recall_at_5: float
    mrr: float


def _scores(first_ranks: list[int | None]) -> Scores:
    found = [rank for rank in first_ranks if rank is not None]
    return Scores(sum(1 for rank in found if rank <= 5) / len(first_ranks),
                  sum(1 / rank for rank in found) / len(first_ranks))


def evaluate(database, organization_id: str) -> dict:
    from appliance.core.actor import OrgActor  # noqa: F401  (the app is built by then)
    from appliance.knowledge import embedder, search, vector_index, words
    from appliance.knowledge.models import KnowledgeChunk
    from sqlmodel import select

    ranks = {"vector": [], "words": [], "hybrid": []}
    kept_at = {t: 0 for t in THRESHOLDS}
    empty_at = {t: 0 for t in THRESHOLDS}
    with database.unit_of_work(write=False) as session:
        texts = dict(session.exec(select(KnowledgeChunk.id, KnowledgeChunk.text)).all())

        def first(ids, answer):
            return next((i for i, chunk_id in enumerate(ids, 1) if answer.casefold() in texts[chunk_id].casefold()), None)

        def ranked_with_similarity(query):
            vector = embedder.current().embed_queries([query])[0]
            terms = words.terms(query)
            ranked = search.rank(session, organization_id=organization_id, vector=vector, terms=terms, pool=POOL,
                                 document_ids=None)
            sims = {**ranked.similarity, **vector_index.similarities(
                session, organization_id=organization_id, vector=vector, chunk_ids=[c for c, _ in ranked.fused if c not in ranked.similarity])}
            exact = {c for c, _ in ranked.fused if words.matches_all(texts[c], terms)}
            return ranked, lambda threshold: [c for c, _ in ranked.fused if sims.get(c, 0) >= threshold or c in exact][:5]

        for query, answer in eval_set.QUESTIONS:
            ranked, kept = ranked_with_similarity(query)
            ranks["vector"].append(first(ranked.by_meaning, answer))
            ranks["words"].append(first(ranked.by_words, answer))
            ranks["hybrid"].append(first([c for c, _ in ranked.fused], answer))
            for threshold in THRESHOLDS:
                kept_at[threshold] += first(kept(threshold), answer) is not None
        for query in eval_set.UNANSWERABLE:
            _, kept = ranked_with_similarity(query)
            for threshold in THRESHOLDS:
                empty_at[threshold] += not kept(threshold)
    return {"scores": {name: _scores(found) for name, found in ranks.items()},
            "kept": {t: kept_at[t] / len(eval_set.QUESTIONS) for t in THRESHOLDS},
            "empty": {t: empty_at[t] / len(eval_set.UNANSWERABLE) for t in THRESHOLDS},
            "misses": [q for (q, _), r in zip(eval_set.QUESTIONS, ranks["hybrid"]) if r is None or r > 5]}


def report(result: dict) -> None:
    print(f"{len(eval_set.QUESTIONS)} questions ({len(eval_set.QUESTIONS_ES)} Spanish, {len(eval_set.QUESTIONS_EN)} "
          f"English), {len(eval_set.UNANSWERABLE)} unanswerable, {len(eval_set.documents())} documents")
    print(f"{'ranking':<8} {'recall@5':>9} {'MRR':>6}")
    for name, scores in result["scores"].items():
        print(f"{name:<8} {scores.recall_at_5:>9.3f} {scores.mrr:>6.3f}")
    print("minSimilarity  answered-in-top-5  unanswerable-left-empty")
    for threshold in THRESHOLDS:
        print(f"{threshold:>13.2f}  {result['kept'][threshold]:>17.3f}  {result['empty'][threshold]:>23.3f}")
    if result["misses"]:
        print("hybrid misses (not in the top 5):", *result["misses"], sep="\n  ")


def main() -> int:
    from appliance.app import create_app
    from appliance.core import runtime
    from appliance.settings import load_settings

    with tempfile.TemporaryDirectory() as data_dir, serving({"talleres.html": eval_set.WORKSHOPS_HTML}) as base_url:
        settings = load_settings({}, data_dir=Path(data_dir), knowledge_allow_private_urls=True)
        client = create_app(settings, migrate=True, queue_immediate=True).test_client()
        signed = client.post("/auth/signup", json={"email": "eval@example.com", "password": "correct horse battery",
                                                   "name": "Eval"}).get_json()["data"]
        token = signed["tokens"]["accessToken"]
        org = client.post("/organizations", json={"name": "La Espiga", "slug": "espiga", "billingEmail": "b@espiga.test"},
                          headers={"Authorization": f"Bearer {token}"}).get_json()["data"]
        build_library(client, org["id"], token, base_url)
        result = evaluate(runtime.get().db, org["id"])
        report(result)
        runtime.get().db.dispose()
    hybrid, vector, words_only = (result["scores"][k] for k in ("hybrid", "vector", "words"))
    return 0 if hybrid.recall_at_5 >= max(vector.recall_at_5, words_only.recall_at_5) else 1


if __name__ == "__main__":
    raise SystemExit(main())
