"""The passages' vectors: a sqlite-vec `vec0` table partitioned by organization (one
organization's search scans only its own vectors), cosine distance, exact nearest neighbours.

Searches read an organization's vectors from a copy in this process's memory (a float32 matrix,
2 KB a passage) while the organization's revision (`vec_knowledge_revisions`, moved by `add` and
by the passages' delete trigger) is the one the copy was made at: a scan of 10,000 vectors is one
matrix product (~1 ms) instead of vec0's ~12 ms, and a passage's similarity a row, not a point
lookup that reads vec0's whole chunk (~0.6 ms). The revision is read in the search's own
transaction, so a search never sees vectors its snapshot does not have. Copies beyond
MEMORY_BUDGET (least recently used first) are dropped; an organization larger than it is searched
in vec0 directly.

The only module that knows sqlite-vec; a PostgreSQL build swaps in pgvector here. Rows are
added with their passage and removed by a trigger on `knowledge_chunks` (migrations 0028, 0032).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable

import numpy as np
from sqlmodel import Session

from appliance.core.db import driver_connection

TABLE = "vec_knowledge_chunks"
REVISIONS = "vec_knowledge_revisions"
DIMENSIONS = 512  # of the table; an embedder of another size needs a migration
MEMORY_BUDGET = 256 * 1024 * 1024  # bytes of vectors kept in memory, all organizations together


@dataclass(frozen=True)
class _Snapshot:
    revision: int
    chunk_ids: np.ndarray  # int64, one a row of `matrix`
    document_ids: np.ndarray  # str
    matrix: np.ndarray  # float32, len(chunk_ids) x DIMENSIONS
    row_of: dict[int, int]


_snapshots: OrderedDict[str, _Snapshot] = OrderedDict()
_lock = threading.Lock()


def add(session: Session, rows: Iterable[tuple[int, str, str, np.ndarray]]) -> None:
    """(chunk id, organization id, document id, vector) each."""
    rows = list(rows)
    driver = driver_connection(session)
    driver.executemany(
        f"INSERT INTO {TABLE}(chunk_id, organization_id, document_id, embedding) VALUES (?, ?, ?, ?)",
        [(chunk_id, org, doc, np.asarray(vector, dtype=np.float32).tobytes()) for chunk_id, org, doc, vector in rows])
    driver.executemany(f"INSERT INTO {REVISIONS} (organization_id, revision) VALUES (?, 1) "
                       "ON CONFLICT (organization_id) DO UPDATE SET revision = revision + 1",
                       [(org,) for org in {org for _, org, _, _ in rows}])


def _snapshot(session: Session, organization_id: str) -> _Snapshot | None:
    """The organization's vectors as of this transaction; None when they do not fit the budget."""
    driver = driver_connection(session)
    found = driver.execute(f"SELECT revision FROM {REVISIONS} WHERE organization_id = ?", (organization_id,)).fetchone()
    revision = found[0] if found else 0
    with _lock:
        cached = _snapshots.get(organization_id)
        if cached is not None and cached.revision == revision:
            _snapshots.move_to_end(organization_id)
            return cached
    count = driver.execute(f"SELECT count(*) FROM {TABLE} WHERE organization_id = ?", (organization_id,)).fetchone()[0]
    if count * DIMENSIONS * 4 > MEMORY_BUDGET:
        return None
    rows = driver.execute(f"SELECT chunk_id, document_id, embedding FROM {TABLE} WHERE organization_id = ?",
                          (organization_id,)).fetchall()
    matrix = np.frombuffer(b"".join(row[2] for row in rows), dtype=np.float32).reshape(len(rows), DIMENSIONS) \
        if rows else np.zeros((0, DIMENSIONS), dtype=np.float32)
    chunk_ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
    snapshot = _Snapshot(revision, chunk_ids, np.array([row[1] for row in rows], dtype=object), matrix,
                         {int(chunk_id): index for index, chunk_id in enumerate(chunk_ids)})
    with _lock:
        _snapshots[organization_id] = snapshot
        _snapshots.move_to_end(organization_id)
        while sum(s.matrix.nbytes for s in _snapshots.values()) > MEMORY_BUDGET and len(_snapshots) > 1:
            _snapshots.popitem(last=False)
    return snapshot


def nearest(session: Session, *, organization_id: str, vector: np.ndarray, k: int,
            document_ids: list[str] | None = None) -> list[tuple[int, float]]:
    """The k passages most similar to `vector`, as (chunk id, cosine similarity), best first; within
    `document_ids` when given (filtered during the scan, so k results come back if k exist)."""
    query = np.asarray(vector, dtype=np.float32)
    snapshot = _snapshot(session, organization_id)
    if snapshot is None:
        return _nearest_in_vec0(session, organization_id, query, k, document_ids)
    scores = snapshot.matrix @ query / max(float(np.linalg.norm(query)), 1e-12)
    if document_ids is not None:
        scores = np.where(np.isin(snapshot.document_ids, list(document_ids)), scores, -np.inf)
    if len(scores) > k:
        candidates = np.argpartition(-scores, k)[:k]
    else:
        candidates = np.arange(len(scores))
    ordered = candidates[np.lexsort((snapshot.chunk_ids[candidates], -scores[candidates]))]
    return [(int(snapshot.chunk_ids[i]), _similarity(1.0 - float(scores[i]))) for i in ordered if np.isfinite(scores[i])]


def _nearest_in_vec0(session: Session, organization_id: str, query: np.ndarray, k: int,
                     document_ids: list[str] | None) -> list[tuple[int, float]]:
    sql = (f"SELECT chunk_id, distance FROM {TABLE} WHERE embedding MATCH ? AND k = ? "
           f"AND organization_id = ?")
    params: list = [query.tobytes(), k, organization_id]
    if document_ids is not None:
        sql += f" AND document_id IN ({', '.join('?' * len(document_ids))})"
        params.extend(document_ids)
    rows = driver_connection(session).execute(sql, params).fetchall()
    return [(chunk_id, _similarity(distance)) for chunk_id, distance in rows]


def similarities(session: Session, *, organization_id: str, vector: np.ndarray, chunk_ids: list[int]) -> dict[int, float]:
    """The cosine similarity of each of these passages to `vector`: rows of the organization's copy,
    or one point lookup each in vec0 (which answers `chunk_id IN (...)` by scanning every vector)."""
    query = np.asarray(vector, dtype=np.float32)
    norm = max(float(np.linalg.norm(query)), 1e-12)
    snapshot = _snapshot(session, organization_id)
    found, missing = {}, []
    for chunk_id in chunk_ids:
        row = snapshot.row_of.get(chunk_id) if snapshot is not None else None
        if row is None:
            missing.append(chunk_id)
        else:
            found[chunk_id] = _similarity(1.0 - float(snapshot.matrix[row] @ query) / norm)
    driver = driver_connection(session)
    for chunk_id in missing:
        row = driver.execute(f"SELECT embedding FROM {TABLE} WHERE chunk_id = ?", (chunk_id,)).fetchone()
        if row is not None:
            found[chunk_id] = _similarity(1.0 - float(np.frombuffer(row[0], dtype=np.float32) @ query) / norm)
    return found


def _similarity(distance: float) -> float:
    return round(min(1.0, max(0.0, 1.0 - distance)), 4)
