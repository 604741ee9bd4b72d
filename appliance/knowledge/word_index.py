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

The only module that knows FTS5; a PostgreSQL build swaps in tsvector here.
"""

from __future__ import annotations

from typing import Iterable

from sqlmodel import Session

from appliance.core.rows import driver_connection, reading_connection
from appliance.knowledge import words

TABLE = "fts_knowledge_chunks"


def _org_prefix(organization_id: str) -> str:
    return "o" + organization_id.replace("-", "")


def indexed_words(organization_id: str, text: str) -> str:
    """What the index stores for a passage: its words, folded, each with the organization in front."""
    prefix = _org_prefix(organization_id)
    return " ".join(prefix + word for word in words.tokens(text))


def add(session: Session, rows: Iterable[tuple[int, str, str]]) -> None:
    """(chunk id, organization id, text) each; the chunk id is the row id."""
    driver_connection(session).executemany(f"INSERT INTO {TABLE}(rowid, words) VALUES (?, ?)",
                                           [(chunk_id, indexed_words(org, text)) for chunk_id, org, text in rows])


def best(session: Session, *, organization_id: str, terms: list[str], k: int,
         document_ids: list[str] | None = None) -> list[int]:
    """Up to k passages holding any of the terms (a long term also as a word's start), most relevant
    first."""
    if not terms:
        return []
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
