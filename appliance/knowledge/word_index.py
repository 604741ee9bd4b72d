"""The passages' words: an FTS5 table (accents and case folded by `unicode61 remove_diacritics 2`),
ranked by bm25. Queries carry the terms of words.py (stop words already left out).

The only module that knows FTS5; a PostgreSQL build swaps in tsvector here. Rows are added with
their passage and removed by a trigger on `knowledge_chunks` (migration 0028).
"""

from __future__ import annotations

from typing import Iterable

from sqlmodel import Session

from appliance.core.db import driver_connection, reading_connection
from appliance.knowledge.words import SHORTEST_PREFIX

TABLE = "fts_knowledge_chunks"


# The organization as one token of the `org` column, so a search intersects its rows inside the index
# instead of ranking every organization's matches and dropping most.
def _org_token(organization_id: str) -> str:
    return "o" + organization_id.replace("-", "")


def add(session: Session, rows: Iterable[tuple[int, str, str]]) -> None:
    """(chunk id, organization id, text) each; the chunk id is the row id."""
    driver_connection(session).executemany(f"INSERT INTO {TABLE}(rowid, org, text) VALUES (?, ?, ?)",
                                           [(chunk_id, _org_token(org), text) for chunk_id, org, text in rows])


def best(session: Session, *, organization_id: str, terms: list[str], k: int,
         document_ids: list[str] | None = None) -> list[int]:
    """Up to k passages holding any of the terms (a long term also as a word's start), most relevant
    first."""
    if not terms:
        return []
    words = " OR ".join(f'"{term}"' + ("*" if len(term) >= SHORTEST_PREFIX else "") for term in terms)
    expression = f'org : "{_org_token(organization_id)}" AND text : ({words})'
    if document_ids is None:
        sql = f"SELECT rowid FROM {TABLE} WHERE {TABLE} MATCH ?"
        params: list = [expression]
    else:
        sql = (f"SELECT f.rowid FROM {TABLE} f JOIN knowledge_chunks c ON c.id = f.rowid "
               f"WHERE {TABLE} MATCH ? AND c.document_id IN ({', '.join('?' * len(document_ids))})")
        params = [expression, *document_ids]
    sql += f" ORDER BY bm25({TABLE}, 1.0, 0.0) LIMIT ?"
    params.append(k)
    return [row[0] for row in reading_connection(session).execute(sql, params).fetchall()]
