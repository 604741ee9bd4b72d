"""Hybrid search of the library: passages near the question's meaning (vector_index) and passages
holding its words (word_index), fused by reciprocal rank.

A passage is kept when its cosine similarity reaches `min_similarity`, or when it holds every
word of the question that matters (`porTexto`): an exact-word hit (a product code, a name the
model never saw) is used even when the model finds it far. Each search is recorded for the
insights: what was asked, by which agent, its best similarity, and whether anything answered.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.core.rows import from_json, insert_many, reading_connection
from appliance.core.ids import new_id
from appliance.knowledge import embedder, word_index, words
from appliance.knowledge.models import KnowledgeQuery, KnowledgeQueryHit

RRF_K = 60  # the usual constant of reciprocal rank fusion: rank 1 weighs 1/61, rank 10 1/70
DEFAULT_TOP_K, DEFAULT_MIN_SIMILARITY = 5, 0.3


@dataclass(frozen=True)
class Result:
    chunk_id: int
    document_id: str
    title: str
    text: str
    similarity: float
    por_texto: bool
    score: float


@dataclass(frozen=True)
class Ranked:
    """The candidates of both lists, before the threshold: what the evaluation measures."""
    by_meaning: list[int]
    by_words: list[int]
    fused: list[tuple[int, float]]
    similarity: dict[int, float]  # of the passages found by meaning (the others are looked up)


def do_search(session: Session, *, actor: OrgActor, query: str, top_k: int = DEFAULT_TOP_K,
              min_similarity: float = DEFAULT_MIN_SIMILARITY, tags: list[str] | None = None,
              agent_id: str | None = None, record: bool = True, within: list[str] | None = None) -> list[Result]:
    """`within`: only these documents (an agent's own library), on top of the other filters. The
    reads do not take a write unit's lock (`reading_connection`): only `record` writes."""
    vector = embedder.current().embed_queries([query])[0]
    wanted = words.terms(query)
    document_ids = readable_documents(session, organization_id=actor.organization_id, tags=tags, agent_id=agent_id)
    if within is not None:
        allowed = set(within)
        document_ids = [d for d in (within if document_ids is None else document_ids) if d in allowed]
    results: list[Result] = []
    if document_ids != []:
        ranked = rank(session, organization_id=actor.organization_id, vector=vector, terms=wanted,
                      pool=max(4 * top_k, 20), document_ids=document_ids)
        results = _results(session, organization_id=actor.organization_id, vector=vector, terms=wanted,
                           ranked=ranked, top_k=top_k, min_similarity=min_similarity)
    if record:
        record_question(session, organization_id=actor.organization_id, agent_id=agent_id, query=query,
                        results=results)
    return results


# Through the driver: every AI reply searches, and the ORM's statements cost ~1 ms each here.
_DOCUMENTS = "SELECT id, tags, agent_ids, compartido FROM knowledge_documents WHERE organization_id = ?"
_PASSAGES = ("SELECT c.id, c.document_id, c.text, d.title FROM knowledge_chunks c "
             "JOIN knowledge_documents d ON d.id = c.document_id WHERE c.id IN ({ids})")


def readable_documents(session: Session, *, organization_id: str, tags: list[str] | None,
                       agent_id: str | None) -> list[str] | None:
    """The documents a search may read: None for all of the organization's; with `tags`, those with
    any of them; with `agent_id`, the agent's own and the shared ones (None when that is all)."""
    if not tags and not agent_id:
        return None
    rows = [(doc_id, from_json(doc_tags), from_json(agent_ids), shared) for doc_id, doc_tags, agent_ids, shared in
            reading_connection(session).execute(_DOCUMENTS, (organization_id,)).fetchall()]
    wanted_tags = {tag.casefold() for tag in tags or ()}
    readable = [doc_id for doc_id, doc_tags, agent_ids, shared in rows
                if (not wanted_tags or wanted_tags & {tag.casefold() for tag in doc_tags or ()})
                and (not agent_id or shared or agent_id in (agent_ids or ()))]
    # All of them (an agent of a shared library, the usual case): no filter, which costs the word
    # index a join per matching passage.
    return None if len(readable) == len(rows) and rows else readable


def rank(session: Session, *, organization_id: str, vector, terms: list[str], pool: int,
         document_ids: list[str] | None) -> Ranked:
    # vector_index (and numpy with it) on the first search, not at start (issue 46, footprint).
    from appliance.knowledge import vector_index

    nearest = vector_index.nearest(session, organization_id=organization_id, vector=vector, k=pool,
                                   document_ids=document_ids)
    by_meaning = [chunk_id for chunk_id, _ in nearest]
    by_words = word_index.best(session, organization_id=organization_id, terms=terms, k=pool,
                               document_ids=document_ids)
    scores: dict[int, float] = {}
    for ranking in (by_meaning, by_words):
        for position, chunk_id in enumerate(ranking, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (RRF_K + position)
    fused = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return Ranked(by_meaning, by_words, fused, dict(nearest))


def _results(session: Session, *, organization_id: str, vector, terms: list[str], ranked: Ranked, top_k: int,
             min_similarity: float) -> list[Result]:
    from appliance.knowledge import vector_index  # numpy: on first use (see rank)

    ids = [chunk_id for chunk_id, _ in ranked.fused]
    similarity = dict(ranked.similarity)
    rows = {row[0]: row for row in reading_connection(session).execute(
        _PASSAGES.format(ids=", ".join("?" * len(ids))), ids).fetchall()} if ids else {}
    # The passages found by their words only: their similarity, all in one look.
    similarity.update(vector_index.similarities(session, organization_id=organization_id, vector=vector,
                                                chunk_ids=[chunk_id for chunk_id in rows if chunk_id not in similarity]))
    results = []
    for chunk_id, score in ranked.fused:
        row = rows.get(chunk_id)
        if row is None:
            continue
        exact = words.matches_all(row[2], terms)
        close = similarity.get(chunk_id, 0.0)
        if close >= min_similarity or exact:
            results.append(Result(chunk_id, row[1], row[3], row[2], close, exact, round(score, 6)))
        if len(results) == top_k:
            break
    return results


def record_question(session: Session, *, organization_id: str, agent_id: str | None, query: str, results) -> None:
    """Keep a question for the insights: what was asked, by which agent, its best similarity, whether
    anything answered, and the documents the answers came from (`results`: anything with
    `document_id` and `similarity`). Through the driver: the bot records one in every AI reply's
    transaction, where two mapped objects and their flush cost ~3 ms."""
    now, query_id = clock.now(), new_id()
    insert_many(session, KnowledgeQuery.__table__, [{
        "id": query_id, "organization_id": organization_id, "agent_id": agent_id, "query": query[:1000],
        "question_key": words.question_key(query), "answered": bool(results), "created_at": now,
        "best_similarity": max((result.similarity for result in results), default=None)}])
    insert_many(session, KnowledgeQueryHit.__table__, [
        {"query_id": query_id, "document_id": document_id, "organization_id": organization_id, "created_at": now}
        for document_id in dict.fromkeys(result.document_id for result in results)])
