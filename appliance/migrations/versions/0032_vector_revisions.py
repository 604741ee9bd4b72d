"""a revision per organization's passage vectors, so a process may keep them in memory

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-25 22:30:00
"""
from alembic import op


revision = '0032'
down_revision = '0031'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Read and written only by appliance/knowledge/vector_index.py (like the vec0 table): its
    # in-memory copy of an organization's vectors is good while this number has not moved. Adding
    # vectors moves it (vector_index.add); deleting a passage moves it here, whatever deletes it.
    op.execute("CREATE TABLE vec_knowledge_revisions (organization_id TEXT PRIMARY KEY NOT NULL, "
               "revision INTEGER NOT NULL)")
    op.execute("DROP TRIGGER knowledge_chunks_forget")
    op.execute("CREATE TRIGGER knowledge_chunks_forget AFTER DELETE ON knowledge_chunks BEGIN "
               "DELETE FROM vec_knowledge_chunks WHERE chunk_id = old.id; "
               "DELETE FROM fts_knowledge_chunks WHERE rowid = old.id; "
               "INSERT INTO vec_knowledge_revisions (organization_id, revision) VALUES (old.organization_id, 1) "
               "ON CONFLICT (organization_id) DO UPDATE SET revision = revision + 1; END")


def downgrade() -> None:
    op.execute("DROP TRIGGER knowledge_chunks_forget")
    op.execute("CREATE TRIGGER knowledge_chunks_forget AFTER DELETE ON knowledge_chunks BEGIN "
               "DELETE FROM vec_knowledge_chunks WHERE chunk_id = old.id; "
               "DELETE FROM fts_knowledge_chunks WHERE rowid = old.id; END")
    op.execute("DROP TABLE vec_knowledge_revisions")
