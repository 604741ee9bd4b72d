"""The passages' vectors: a sqlite-vec `vec0` table partitioned by organization (one
organization's search scans only its own vectors), cosine distance.

Searches read an organization's vectors from a copy in this process's memory (a float32 matrix,
2 KB a passage) while the organization's revision (`vec_knowledge_revisions`, moved by `add` and
by the passages' delete trigger) is the one the copy was made at: a passage's similarity is a row,
not a point lookup that reads vec0's whole chunk (~0.6 ms). The copy is loaded from
`vec_knowledge_vectors`, the same vectors in a plain table indexed by organization (vec0 scans
every organization's vectors for any query but a nearest-neighbour one: 1.5 s at 100,000). The
revision is read in the search's own transaction, so a search never sees vectors its snapshot does
not have. Copies beyond MEMORY_BUDGET (least recently used first) are dropped; an organization
whose copy would take more than a quarter of it (COPIES_AT_LEAST: ~32,000 passages) is searched in
vec0 directly (exact): two such organizations taking turns would otherwise each drop the other's
copy and load 200 MB from the database for every question (10 organizations of 100,000 passages:
searches of over 30 s, tests/bench/bench_knowledge_scale.py).

The nearest passages of a small library are found exactly, one matrix product. From SIGNS_FROM
passages the copy also keeps each vector's signs (one bit a component, 64 bytes a passage), and a
search narrows to the RESCORED·k passages whose signs differ least from the question's before
ranking those by their exact similarity: at 10,000 passages the 20 MB product (~3 ms, and it
pushed the embedding model's weights out of the processor's cache) becomes 640 KB of bit counts
and 640 rows (~0.7 ms), and 99.9% of the exact top 20 is still found, measured on real sentences
(tests/bench/eval_vector_scan.py). Similarities are always exact: only which passages get looked
at is estimated.

The only module that knows sqlite-vec, and pgvector. Rows are added with their passage (in both
of SQLite's tables) and removed by a trigger on `knowledge_chunks` (migrations 0028, 0032; 0055).

On PostgreSQL (migration 0055) the vectors are one table, `vec_knowledge_chunks` (pgvector
`vector(512)`, an HNSW index for cosine distance, a btree on the organization), which is both
what the copy loads from (SQLite's plain table) and what an organization beyond the budget is
searched in (vec0). The copy, its revisions (the same table, moved by the same trigger's work) and
every similarity are the same as on SQLite, so a search ranks the same on both; only the oversized
case differs, where HNSW is approximate (an iterative scan, so a filter still brings k back) and
vec0 exact. Vectors travel in pgvector's binary form both ways: written by a binary dumper on the
statement's cursor, read as `vector_send` (a 4-byte header, then big-endian floats), ~10x cheaper
than their text.
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import Callable, Iterable

import numpy as np
from sqlmodel import Session

from appliance.core.rows import batches_by_key, driver_connection, reading_connection

TABLE = "vec_knowledge_chunks"
HNSW_INDEX = "vec_knowledge_chunks_hnsw"  # PostgreSQL's index of TABLE (migration 0055)
VECTORS = "vec_knowledge_vectors"  # the same vectors in a plain table: loaded by organization, looked up by passage
REVISIONS = "vec_knowledge_revisions"
DIMENSIONS = 512  # of the table; an embedder of another size needs a migration
MEMORY_BUDGET = 256 * 1024 * 1024  # bytes of vectors kept in memory, all organizations together
COPIES_AT_LEAST = 4  # organizations whose copies fit the budget together: no copy may take more
# From this many passages a search first narrows by the vectors' signs (64 bytes a passage, which
# stay in the processor's cache) to RESCORED times k candidates, then ranks those by their exact
# similarity. Below it the exact scan is cheap (2,048 rows: 4 MB) and stays exact.
SIGNS_FROM = 2048
RESCORED = 32  # candidates per result wanted: 99.9% of the exact top 20 found (tests/bench/eval_vector_scan.py)


@dataclass(frozen=True)
class _Snapshot:
    revision: int
    chunk_ids: np.ndarray  # int64, one a row of `matrix`
    documents: list[str]  # the organization's documents with passages, each once
    document_of_row: np.ndarray  # int32, each row's index in `documents`: a filter is one table lookup
    matrix: np.ndarray  # float32, len(chunk_ids) x DIMENSIONS
    row_of: dict[int, int]
    signs: np.ndarray | None  # uint64, DIMENSIONS/64 x len(chunk_ids): each component's sign, one bit (None when small)


_snapshots: OrderedDict[str, _Snapshot] = OrderedDict()
_lock = threading.Lock()


def _from_float32(blobs: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), DIMENSIONS)


_SENT = np.dtype([("header", ">u4"), ("vector", ">f4", (DIMENSIONS,))])  # what pgvector's vector_send writes


def _from_vector_send(blobs: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(blobs), dtype=_SENT)["vector"].astype(np.float32)


@dataclass(frozen=True)
class _Reads:
    """An engine's statements for the in-memory copy and the lookups: each reads (…, the vector's bytes)."""
    count: str
    load: str  # chunk_id, document_id, vector of an organization's passages
    lookup: str  # chunk_id, vector of the passages `{ids}`
    vectors: Callable[[list[bytes]], np.ndarray]


_SQLITE = _Reads(f"SELECT count(*) FROM {VECTORS} WHERE organization_id = ?",
                 f"SELECT chunk_id, document_id, embedding FROM {VECTORS} WHERE organization_id = ?",
                 f"SELECT chunk_id, embedding FROM {VECTORS} WHERE chunk_id IN ({{ids}})", _from_float32)
_POSTGRES = _Reads(f"SELECT count(*) FROM {TABLE} WHERE organization_id = ?",
                   f"SELECT chunk_id, document_id, vector_send(embedding) FROM {TABLE} WHERE organization_id = ?",
                   f"SELECT chunk_id, vector_send(embedding) FROM {TABLE} WHERE chunk_id IN ({{ids}})",
                   _from_vector_send)


def _reads(session: Session) -> _Reads:
    return _POSTGRES if session.get_bind().dialect.name == "postgresql" else _SQLITE


def add(session: Session, rows: Iterable[tuple[int, str, str, np.ndarray]]) -> None:
    """(chunk id, organization id, document id, vector) each."""
    rows = list(rows)
    driver = driver_connection(session)
    if _reads(session) is _POSTGRES:
        _add_to_postgres(driver, rows)
    else:
        values = [(chunk_id, org, doc, np.asarray(vector, dtype=np.float32).tobytes())
                  for chunk_id, org, doc, vector in rows]
        for table in (TABLE, VECTORS):
            driver.executemany(f"INSERT INTO {table}(chunk_id, organization_id, document_id, embedding) "
                               "VALUES (?, ?, ?, ?)", values)
    driver.executemany(f"INSERT INTO {REVISIONS} (organization_id, revision) VALUES (?, 1) "
                       f"ON CONFLICT (organization_id) DO UPDATE SET revision = {REVISIONS}.revision + 1",
                       [(org,) for org in {org for _, org, _, _ in rows}])
    session.info.pop("vector_snapshots", None)  # this transaction's own searches see its new vectors


@cache
def _vector_dumper():
    """psycopg's dumper of a numpy vector in pgvector's binary form (registered on a statement's
    own cursor, so no other statement of the connection changes)."""
    from psycopg.adapt import Dumper
    from psycopg.pq import Format

    class VectorDumper(Dumper):
        format = Format.BINARY
        oid = 0  # the statement casts its parameter (`%s::vector`): the server reads it as one

        def dump(self, obj):
            vector = np.asarray(obj, dtype=">f4")
            return struct.pack(">HH", len(vector), 0) + vector.tobytes()

    return VectorDumper


def _vector_cursor(driver):
    cursor = driver.cursor()  # psycopg's own: `%s` placeholders
    cursor.adapters.register_dumper(np.ndarray, _vector_dumper())
    return cursor


def _add_to_postgres(driver, rows: list[tuple[int, str, str, np.ndarray]]) -> None:
    with _vector_cursor(driver) as cursor:
        cursor.executemany(f"INSERT INTO {TABLE} (chunk_id, organization_id, document_id, embedding) "
                           "VALUES (%s, %s, %s, %s::vector)",
                           [(chunk_id, org, doc, np.asarray(vector, dtype=np.float32))
                            for chunk_id, org, doc, vector in rows])


def _snapshot(session: Session, organization_id: str) -> _Snapshot | None:
    """The organization's vectors as of this transaction (looked up once per transaction: a search
    asks for a passage's similarity many times); None when they do not fit the budget."""
    seen = session.info.setdefault("vector_snapshots", {})
    if organization_id not in seen:
        seen[organization_id] = _current_snapshot(session, organization_id)
    return seen[organization_id]


def _current_snapshot(session: Session, organization_id: str) -> _Snapshot | None:
    driver = reading_connection(session)
    found = driver.execute(f"SELECT revision FROM {REVISIONS} WHERE organization_id = ?", (organization_id,)).fetchone()
    revision = found[0] if found else 0
    with _lock:
        cached = _snapshots.get(organization_id)
        if cached is not None and cached.revision == revision and cached.matrix.nbytes <= MEMORY_BUDGET // COPIES_AT_LEAST:
            _snapshots.move_to_end(organization_id)
            return cached
    reads = _reads(session)
    count = driver.execute(reads.count, (organization_id,)).fetchone()[0]
    if count * DIMENSIONS * 4 > MEMORY_BUDGET // COPIES_AT_LEAST:
        return None
    rows = driver.execute(reads.load, (organization_id,)).fetchall()
    matrix = reads.vectors([row[2] for row in rows]) if rows else np.zeros((0, DIMENSIONS), dtype=np.float32)
    chunk_ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
    documents = list(dict.fromkeys(row[1] for row in rows))
    position = {document_id: index for index, document_id in enumerate(documents)}
    snapshot = _Snapshot(revision, chunk_ids, documents,
                         np.fromiter((position[row[1]] for row in rows), dtype=np.int32, count=len(rows)), matrix,
                         {int(chunk_id): index for index, chunk_id in enumerate(chunk_ids)},
                         _signs(matrix) if len(rows) >= SIGNS_FROM else None)
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
    readable = None  # a document's index -> whether the search may read it
    if document_ids is not None:
        allowed = set(document_ids)
        readable = np.fromiter((d in allowed for d in snapshot.documents), dtype=bool, count=len(snapshot.documents))
        if readable.all():  # an agent reading all documents (the common case) needs no filter
            readable = None
    rows = _candidates(snapshot, query, k * RESCORED, readable)  # None: every row
    matrix = snapshot.matrix if rows is None else snapshot.matrix[rows]
    scores = matrix @ query / max(float(np.linalg.norm(query)), 1e-12)
    if readable is not None:
        scores = np.where(readable[snapshot.document_of_row if rows is None else snapshot.document_of_row[rows]],
                          scores, -np.inf)
    chunk_ids = snapshot.chunk_ids if rows is None else snapshot.chunk_ids[rows]
    best = np.argpartition(-scores, k)[:k] if len(scores) > k else np.arange(len(scores))
    ordered = best[np.lexsort((chunk_ids[best], -scores[best]))]
    return [(int(chunk_ids[i]), _similarity(1.0 - float(scores[i]))) for i in ordered if np.isfinite(scores[i])]


def _signs(matrix: np.ndarray) -> np.ndarray:
    """Each row's components reduced to their signs, packed 64 to a word: one row of words per
    64 components, one column per vector (column-major, so counting a passage's differing bits
    adds eight contiguous rows: 5x faster than summing each vector's eight words)."""
    return np.ascontiguousarray(np.packbits(matrix > 0, axis=1).view(np.uint64).T)


def _candidates(snapshot: _Snapshot, query: np.ndarray, wanted: int, readable: np.ndarray | None) -> np.ndarray | None:
    """The rows worth an exact look (`closest_by_signs`), only readable ones while there are
    enough; None when the copy is small enough to rank exactly."""
    if snapshot.signs is None or len(snapshot.chunk_ids) <= wanted:
        return None
    unreadable = None if readable is None else ~readable[snapshot.document_of_row]
    return closest_by_signs(snapshot.signs, query, wanted, unreadable)


def closest_by_signs(signs: np.ndarray, query: np.ndarray, wanted: int,
                     excluded: np.ndarray | None = None) -> np.ndarray:
    """The `wanted` columns of `signs` (as `_signs` packs them) whose signs differ least from the
    query's: fewest differing bits, the cheapest estimate of the angle between two vectors.
    `excluded` (a bool per column) go after every other."""
    differing = np.bitwise_count(signs ^ _signs(query[None])).sum(axis=0, dtype=np.uint16)
    if excluded is not None:
        differing[excluded] = DIMENSIONS + 1
    return np.argpartition(differing, wanted)[:wanted]


def _nearest_in_vec0(session: Session, organization_id: str, query: np.ndarray, k: int,
                     document_ids: list[str] | None) -> list[tuple[int, float]]:
    if _reads(session) is _POSTGRES:
        return _nearest_in_hnsw(session, organization_id, query, k, document_ids)
    sql = (f"SELECT chunk_id, distance FROM {TABLE} WHERE embedding MATCH ? AND k = ? "
           f"AND organization_id = ?")
    params: list = [query.tobytes(), k, organization_id]
    if document_ids is not None:
        sql += f" AND document_id IN ({', '.join('?' * len(document_ids))})"
        params.extend(document_ids)
    rows = reading_connection(session).execute(sql, params).fetchall()
    return [(chunk_id, _similarity(distance)) for chunk_id, distance in rows]


def _nearest_in_hnsw(session: Session, organization_id: str, query: np.ndarray, k: int,
                     document_ids: list[str] | None) -> list[tuple[int, float]]:
    """pgvector's HNSW index, scanned on until k passages pass the filters (an iterative scan:
    without one, the index's first 40 candidates are all it looks at, most of them another
    organization's)."""
    sql = f"SELECT chunk_id, embedding <=> %s::vector FROM {TABLE} WHERE organization_id = %s"
    params: list = [query, organization_id]
    if document_ids is not None:
        sql += " AND document_id = ANY(%s)"
        params.append(list(document_ids))
    sql += " ORDER BY embedding <=> %s::vector LIMIT %s"
    params += [query, k]
    with _vector_cursor(reading_connection(session)) as cursor:
        # The connection's setting (a hot reader has no transaction to scope it to); only this
        # module's statements scan an HNSW index.
        cursor.execute("SELECT set_config('hnsw.iterative_scan', 'strict_order', false), "
                       "set_config('hnsw.ef_search', %s, false)", (str(min(max(k, 40), 1000)),))
        rows = cursor.execute(sql, params).fetchall()
    return [(chunk_id, _similarity(distance)) for chunk_id, distance in rows]


def similarities(session: Session, *, organization_id: str, vector: np.ndarray, chunk_ids: list[int]) -> dict[int, float]:
    """The cosine similarity of each of these passages to `vector`: rows of the organization's copy,
    or looked up in the plain table (vec0 answers anything but a nearest-neighbour query by scanning
    every vector)."""
    if not chunk_ids:
        return {}
    query = np.asarray(vector, dtype=np.float32)
    norm = max(float(np.linalg.norm(query)), 1e-12)
    snapshot = _snapshot(session, organization_id)
    found, missing, rows_of_found = {}, [], []
    for chunk_id in chunk_ids:
        row = snapshot.row_of.get(chunk_id) if snapshot is not None else None
        if row is None:
            missing.append(chunk_id)
        else:
            rows_of_found.append((chunk_id, row))
    if rows_of_found:  # one product for all of them
        scores = snapshot.matrix[[row for _, row in rows_of_found]] @ query / norm
        found = {chunk_id: _similarity(1.0 - float(score)) for (chunk_id, _), score in zip(rows_of_found, scores)}
    if missing:
        reads = _reads(session)
        rows = reading_connection(session).execute(reads.lookup.format(ids=", ".join("?" * len(missing))),
                                                   missing).fetchall()
        if rows:
            scores = reads.vectors([row[1] for row in rows]) @ query / norm
            found.update({chunk_id: _similarity(1.0 - float(score)) for (chunk_id, _), score in zip(rows, scores)})
    return found


def copy_to_postgres(source, target) -> int:
    """`appliance migrate-to-postgres`: the vectors copied as they are (no passage is embedded
    again). Answers how many."""
    copied = 0
    driver = target.connection.info["driver"]  # the pooled connection's (postgres_engine)
    # The HNSW graph built once over every vector, instead of grown by each insert: several times
    # faster for a large library (the index is migration 0055's, made again the same way).
    driver.execute(f"DROP INDEX {HNSW_INDEX}")
    for rows in batches_by_key(source, VECTORS, "chunk_id, organization_id, document_id, embedding", key="chunk_id"):
        vectors = _from_float32([row[3] for row in rows])
        _add_to_postgres(driver, [(chunk_id, org, doc, vector)
                                  for (chunk_id, org, doc, _), vector in zip(rows, vectors)])
        copied += len(rows)
    driver.execute("SET LOCAL maintenance_work_mem = '512MB'")  # the graph in memory while it is built
    driver.execute(f"CREATE INDEX {HNSW_INDEX} ON {TABLE} USING hnsw (embedding vector_cosine_ops)")
    return copied


def _similarity(distance: float) -> float:
    return round(min(1.0, max(0.0, 1.0 - distance)), 4)
