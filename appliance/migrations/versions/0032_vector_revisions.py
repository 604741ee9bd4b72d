"""the passages' vectors also in a plain table, and a revision per organization, so a process may
keep an organization's vectors in memory

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-25 22:30:00
"""
from alembic import op

from appliance.migrations import on_sqlite


revision = '0032'
down_revision = '0031'
branch_labels = None
depends_on = None

_FORGET = ("CREATE TRIGGER knowledge_chunks_forget AFTER DELETE ON knowledge_chunks BEGIN "
           "DELETE FROM vec_knowledge_chunks WHERE chunk_id = old.id; "
           "DELETE FROM fts_knowledge_chunks WHERE rowid = old.id; {more}END")


def upgrade() -> None:
    if on_sqlite():  # SQLite's own structures (migrations.on_sqlite)
        # Read and written only by appliance/knowledge/vector_index.py (like the vec0 table). vec0 reads
        # a partition only for a nearest-neighbour query: any other read scans every organization's
        # vectors (1.5 s for 100,000), so the vectors are kept once more in a plain table indexed by
        # organization, which the in-memory copy loads from (and a passage's similarity is looked up in).
        # The copy is good while the organization's revision has not moved: adding vectors moves it
        # (vector_index.add); deleting a passage moves it here, whatever deletes it.
        op.execute("CREATE TABLE vec_knowledge_vectors (chunk_id INTEGER PRIMARY KEY NOT NULL, "
                   "organization_id TEXT NOT NULL, document_id TEXT NOT NULL, embedding BLOB NOT NULL)")
        op.execute("CREATE INDEX ix_vec_knowledge_vectors_org ON vec_knowledge_vectors (organization_id)")
        op.execute("INSERT INTO vec_knowledge_vectors (chunk_id, organization_id, document_id, embedding) "
                   "SELECT chunk_id, organization_id, document_id, embedding FROM vec_knowledge_chunks")
        op.execute("CREATE TABLE vec_knowledge_revisions (organization_id TEXT PRIMARY KEY NOT NULL, "
                   "revision INTEGER NOT NULL)")
        op.execute("DROP TRIGGER knowledge_chunks_forget")
        op.execute(_FORGET.format(more=(
            "DELETE FROM vec_knowledge_vectors WHERE chunk_id = old.id; "
            "INSERT INTO vec_knowledge_revisions (organization_id, revision) VALUES (old.organization_id, 1) "
            "ON CONFLICT (organization_id) DO UPDATE SET revision = revision + 1; ")))


def downgrade() -> None:
    op.execute("DROP TRIGGER knowledge_chunks_forget")
    op.execute(_FORGET.format(more=""))
    op.execute("DROP TABLE vec_knowledge_revisions")
    op.execute("DROP TABLE vec_knowledge_vectors")
