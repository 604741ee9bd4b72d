"""The passages' words: a contentless FTS5 table of terms that carry their organization, ranked by
bm25. Queries carry the terms of words.py (stop words already left out).

Each word is indexed with its organization in front (`o<organization id, hex>envio`), so an
organization's words are its own terms in the index:

- a query reads only its organization's doclists: the prefix `"o…envi"*` merges this
  organization's words that start with "envi", not every organization's;
- bm25 weighs a word by how rare it is in this organization's passages (a neighbour's documents
  do not change another business's ranking);
- no `org` column to intersect: bm25 counted that column's 10,000-row doclist on every query.

Measured at 10 organizations of 10,000 passages, a three-term question: 5.4 -> 2.0 ms
(tests/bench/bench_ai.py). The words are folded here as words.py folds a query (case, accents),
so the tokenizer only splits them. Contentless: the text lives in `knowledge_chunks`, the index
keeps no second copy of it; `contentless_delete` lets the trigger on `knowledge_chunks` remove a
passage's row (migrations 0028, 0032, 0044).

On PostgreSQL (migration 0055) the words are a `tsvector` in `fts_knowledge_chunks`, GIN-indexed,
fed the same folded words (words.py: no language's parser or stemmer between them and the index)
with their positions, so a search finds what it finds on SQLite and ranks it by the same bm25:
FTS5's formula (k1 1.2, b 0.75, an IDF at least 1e-6), written in SQL over the matching passages.
A term's frequency in a passage is `ts_rank_cd` with every weight 1 on that term alone (each
occurrence a cover worth 1); its document frequency is counted among the organization's matching
passages; N and the average length are the whole table's, as FTS5's are, kept in
`fts_knowledge_totals` by triggers. The organization travels in front of each word there too, as a
short tag (11 characters of a hash, not 33 of the id: a passage's words then stay in its row, where
ranking reads them, instead of out of line), with an `organization_id` column that the search also
requires, so two organizations whose tags collide still never see each other's passages.
Slower than FTS5, which ranks from its own compact position lists where PostgreSQL reads each
matching passage's row: at 10 organizations of 10,000 passages (bench_knowledge.py's words and
questions), the word search alone took p50 0.6 / p95 3.7 ms on SQLite and 6 / 22 ms on PostgreSQL
18 (2 cores, 128 MB of shared buffers: most rows read from the OS's cache). The only module that
knows FTS5 and these tables.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Iterable

from sqlmodel import Session

from appliance.core.rows import batches_by_key, driver_connection, reading_connection
from appliance.knowledge import words

TABLE = "fts_knowledge_chunks"
K1, B = 1.2, 0.75  # FTS5's bm25 parameters
_LONGEST = 500  # characters of a word PostgreSQL indexes (a lexeme takes at most 2 KB)
_POSITIONS, _LAST_POSITION = 256, 16383  # a tsvector keeps at most these of a word, up to this position


def _on_postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def _org_prefix(organization_id: str) -> str:
    return "o" + organization_id.replace("-", "")


@lru_cache(maxsize=4096)
def _org_tag(organization_id: str) -> str:
    return "o" + hashlib.blake2b(organization_id.encode(), digest_size=5).hexdigest()


def indexed_words(organization_id: str, text: str) -> str:
    """What the index stores for a passage: its words, folded, each with the organization in front."""
    prefix = _org_prefix(organization_id)
    return " ".join(prefix + word for word in words.tokens(text))


def postgres_words(organization_id: str, text: str) -> tuple[str, int]:
    """What PostgreSQL's index stores for a passage: its words (tagged with the organization, at
    their positions) as a tsvector's text, and how many words it has (bm25's length)."""
    tag = _org_tag(organization_id)
    found = words.tokens(text)
    positions: dict[str, list[int]] = {}
    for position, word in enumerate(found, start=1):
        if len(word) <= _LONGEST:
            at = positions.setdefault(word, [])
            if len(at) < _POSITIONS:
                at.append(min(position, _LAST_POSITION))
    # Letters and digits only (words.tokens): nothing to quote inside the quotes.
    return " ".join(f"'{tag}{word}':{','.join(map(str, at))}" for word, at in positions.items()), len(found)


_PG_ADD = ("INSERT INTO fts_knowledge_chunks (chunk_id, organization_id, words, size) "
           "SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[]::tsvector[], ?::integer[])")


def add(session: Session, rows: Iterable[tuple[int, str, str]]) -> None:
    """(chunk id, organization id, text) each; the chunk id is the row id."""
    if _on_postgres(session):
        _add_to_postgres(driver_connection(session), rows)
        return
    driver_connection(session).executemany(f"INSERT INTO {TABLE}(rowid, words) VALUES (?, ?)",
                                           [(chunk_id, indexed_words(org, text)) for chunk_id, org, text in rows])


def _add_to_postgres(driver, rows: Iterable[tuple[int, str, str]]) -> None:
    # One statement for all of them: the totals' trigger runs once.
    columns: tuple[list, list, list, list] = ([], [], [], [])
    for chunk_id, org, text in rows:
        literal, size = postgres_words(org, text)
        for column, value in zip(columns, (chunk_id, org, literal, size)):
            column.append(value)
    if columns[0]:
        driver.execute(_PG_ADD, columns)


def best(session: Session, *, organization_id: str, terms: list[str], k: int,
         document_ids: list[str] | None = None) -> list[int]:
    """Up to k passages holding any of the terms (a long term also as a word's start), most relevant
    first."""
    if not terms:
        return []
    if _on_postgres(session):
        return _best_on_postgres(session, organization_id, terms, k, document_ids)
    prefix = _org_prefix(organization_id)
    expression = " OR ".join(f'"{prefix}{term}"' + ("*" if len(term) >= words.SHORTEST_PREFIX else "") for term in terms)
    if document_ids is None:
        sql = f"SELECT rowid FROM {TABLE} WHERE {TABLE} MATCH ?"
        params: list = [expression]
    else:
        sql = (f"SELECT f.rowid FROM {TABLE} f JOIN knowledge_chunks c ON c.id = f.rowid "
               f"WHERE {TABLE} MATCH ? AND c.document_id IN ({', '.join('?' * len(document_ids))})")
        params = [expression, *document_ids]
    sql += f" ORDER BY bm25({TABLE}) LIMIT ?"
    params.append(k)
    return [row[0] for row in reading_connection(session).execute(sql, params).fetchall()]


# bm25 as FTS5 computes it (fts5_aux.c), for n terms: the matching passages with each term's
# frequency in them (`hits`, read once), each term's IDF from how many of them hold it, then the sum
# over terms. One column per term, no subquery per passage (a term's subquery cost ~4 us a passage).
# The document filter applies after the counts, as FTS5's join does: it narrows what is returned,
# not how rare a word is. The length is float8 before any arithmetic: 0.75 times an integer is
# PostgreSQL's numeric, ~7 ms over 12,000 matching passages.
@lru_cache(maxsize=64)
def _postgres_best(n: int, filtered_documents: int | None) -> str:
    terms = range(1, n + 1)
    tf = ", ".join(f"ts_rank_cd('{{1,1,1,1}}', f.words, ?::tsquery, 0)::float8 AS tf{i}" for i in terms)
    held = ", ".join(f"count(*) FILTER (WHERE tf{i} > 0) AS n{i}" for i in terms)
    raw_idf = ", ".join(f"ln((totals.n - d.n{i} + 0.5) / (d.n{i} + 0.5)) AS idf{i}" for i in terms)
    idf = ", ".join(f"CASE WHEN idf{i} <= 0 THEN 1e-6 ELSE idf{i} END AS idf{i}" for i in terms)
    score = " + ".join(f"idf.idf{i} * h.tf{i} * {K1 + 1} / (h.tf{i} + {K1} * ({1 - B} + {B} * h.size / totals.avgdl))"
                       for i in terms)
    documents = "" if filtered_documents is None else (
        f"JOIN knowledge_chunks c ON c.id = h.chunk_id AND c.document_id IN ({', '.join('?' * filtered_documents)})")
    return f"""WITH hits AS MATERIALIZED (
    SELECT f.chunk_id, f.size::float8 AS size, {tf}
    FROM fts_knowledge_chunks f WHERE f.words @@ ?::tsquery AND f.organization_id = ?),
totals AS MATERIALIZED (
    SELECT passages::float8 AS n, words::float8 / greatest(passages, 1) AS avgdl FROM fts_knowledge_totals),
idf AS MATERIALIZED (
    SELECT {idf} FROM (SELECT {raw_idf} FROM totals CROSS JOIN (SELECT {held} FROM hits) d) raw)
SELECT h.chunk_id FROM hits h CROSS JOIN totals CROSS JOIN idf {documents}
ORDER BY {score} DESC, h.chunk_id LIMIT ?"""


def _best_on_postgres(session: Session, organization_id: str, terms: list[str], k: int,
                      document_ids: list[str] | None) -> list[int]:
    tag = _org_tag(organization_id)
    queries = [f"'{tag}{term}'" + (":*" if len(term) >= words.SHORTEST_PREFIX else "") for term in terms]
    sql = _postgres_best(len(queries), None if document_ids is None else len(document_ids))
    params = [*queries, " | ".join(queries), organization_id, *(document_ids or ()), k]
    return [row[0] for row in reading_connection(session).execute(sql, params).fetchall()]


def copy_to_postgres(source, target) -> int:
    """`appliance migrate-to-postgres`: PostgreSQL's words built from the passages themselves (the
    SQLite index keeps no text). Answers how many passages."""
    copied = 0
    driver = target.connection.info["driver"]  # the pooled connection's, taking `?` (postgres_engine)
    for rows in batches_by_key(source, "knowledge_chunks", "id, organization_id, text", key="id"):
        _add_to_postgres(driver, [tuple(row) for row in rows])
        copied += len(rows)
    return copied
