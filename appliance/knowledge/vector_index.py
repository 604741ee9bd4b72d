"""The passages' vectors: a sqlite-vec `vec0` table partitioned by organization (one
organization's search scans only its own vectors), cosine distance, exact nearest neighbours.

The only module that knows sqlite-vec; a PostgreSQL build swaps in pgvector here. Rows are
added with their passage and removed by a trigger on `knowledge_chunks` (migration 0028).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from sqlmodel import Session

from appliance.core.db import driver_connection

TABLE = "vec_knowledge_chunks"
DIMENSIONS = 512  # of the table; an embedder of another size needs a migration


def add(session: Session, rows: Iterable[tuple[int, str, str, np.ndarray]]) -> None:
    """(chunk id, organization id, document id, vector) each."""
    driver_connection(session).executemany(
        f"INSERT INTO {TABLE}(chunk_id, organization_id, document_id, embedding) VALUES (?, ?, ?, ?)",
        [(chunk_id, org, doc, np.asarray(vector, dtype=np.float32).tobytes()) for chunk_id, org, doc, vector in rows])


def nearest(session: Session, *, organization_id: str, vector: np.ndarray, k: int,
            document_ids: list[str] | None = None) -> list[tuple[int, float]]:
    """The k passages most similar to `vector`, as (chunk id, cosine similarity), best first; within
    `document_ids` when given (filtered during the scan, so k results come back if k exist)."""
    sql = (f"SELECT chunk_id, distance FROM {TABLE} WHERE embedding MATCH ? AND k = ? "
           f"AND organization_id = ?")
    params: list = [np.asarray(vector, dtype=np.float32).tobytes(), k, organization_id]
    if document_ids is not None:
        sql += f" AND document_id IN ({', '.join('?' * len(document_ids))})"
        params.extend(document_ids)
    rows = driver_connection(session).execute(sql, params).fetchall()
    return [(chunk_id, _similarity(distance)) for chunk_id, distance in rows]


def similarities(session: Session, *, vector: np.ndarray, chunk_ids: list[int]) -> dict[int, float]:
    """The cosine similarity of each of these passages to `vector`. One point lookup each: vec0
    answers `chunk_id IN (...)` by scanning every vector of the table."""
    driver = driver_connection(session)
    query = np.asarray(vector, dtype=np.float32)
    found = {}
    for chunk_id in chunk_ids:
        row = driver.execute(f"SELECT embedding FROM {TABLE} WHERE chunk_id = ?", (chunk_id,)).fetchone()
        if row is not None:
            found[chunk_id] = _similarity(1.0 - float(np.frombuffer(row[0], dtype=np.float32) @ query))
    return found


def _similarity(distance: float) -> float:
    return round(min(1.0, max(0.0, 1.0 - distance)), 4)
