"""the knowledge base: documents, passages, their vectors (sqlite-vec) and words (FTS5), searches

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-23 08:47:07.630779
"""
from alembic import op

from appliance.migrations import on_sqlite
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0028'
down_revision = '0027'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('knowledge_documents',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('agent_ids', sa.JSON(), nullable=False),
    sa.Column('compartido', sa.Boolean(), nullable=False),
    sa.Column('source_type', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('file_name', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True),
    sa.Column('mime_type', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('size_bytes', sa.Integer(), nullable=True),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
    sa.Column('sync_every_hours', sa.Integer(), nullable=True),
    sa.Column('next_sync_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('etag', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('content', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('text_sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
    sa.Column('error', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('chunk_count', sa.Integer(), nullable=False),
    sa.Column('embedded_with', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('last_synced_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('resolves_question_key', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('processing_token', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('processing_since', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('processing_attempts', sa.Integer(), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('knowledge_documents', schema=None) as batch_op:
        batch_op.create_index('ix_knowledge_documents_org', ['organization_id', 'created_at'], unique=False)
        batch_op.create_index('ix_knowledge_documents_status', ['status'], unique=False)

    op.create_table('knowledge_queries',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('agent_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('query', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('question_key', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('best_similarity', sa.Float(), nullable=True),
    sa.Column('answered', sa.Boolean(), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('knowledge_queries', schema=None) as batch_op:
        batch_op.create_index('ix_knowledge_queries_org_time', ['organization_id', 'created_at'], unique=False)

    op.create_table('knowledge_chunks',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('document_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=False),
    sa.Column('ordinal', sa.Integer(), nullable=False),
    sa.Column('text', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['knowledge_documents.id'], name='fk_knowledge_chunks_document_id', ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('knowledge_chunks', schema=None) as batch_op:
        batch_op.create_index('ix_knowledge_chunks_document', ['document_id', 'ordinal'], unique=False)

    op.create_table('knowledge_query_hits',
    sa.Column('query_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('document_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['knowledge_documents.id'], name='fk_knowledge_query_hits_document_id', ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['query_id'], ['knowledge_queries.id'], name='fk_knowledge_query_hits_query_id', ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('query_id', 'document_id')
    )
    with op.batch_alter_table('knowledge_query_hits', schema=None) as batch_op:
        batch_op.create_index('ix_knowledge_query_hits_org_time', ['organization_id', 'created_at'], unique=False)

    if on_sqlite():  # SQLite's own structures (migrations.on_sqlite)
        # Not models (Alembic's comparison skips `vec_` and `fts_` tables); read and written only by
        # appliance/knowledge/vector_index.py and word_index.py. The vectors are partitioned by
        # organization; the words carry the organization as one token (`org`) so a search intersects
        # inside the index. Both follow the passages' deletes, whatever deletes them (a document, its
        # organization, a reprocess), so no vector or word outlives its passage.
        op.execute("CREATE VIRTUAL TABLE vec_knowledge_chunks USING vec0(chunk_id integer primary key, "
                   "organization_id text partition key, document_id text, embedding float[512] distance_metric=cosine)")
        op.execute("CREATE VIRTUAL TABLE fts_knowledge_chunks USING fts5(text, org, "
                   "tokenize = 'unicode61 remove_diacritics 2')")
        op.execute("CREATE TRIGGER knowledge_chunks_forget AFTER DELETE ON knowledge_chunks BEGIN "
                   "DELETE FROM vec_knowledge_chunks WHERE chunk_id = old.id; "
                   "DELETE FROM fts_knowledge_chunks WHERE rowid = old.id; END")


def downgrade() -> None:
    op.execute("DROP TRIGGER knowledge_chunks_forget")
    op.execute("DROP TABLE fts_knowledge_chunks")
    op.execute("DROP TABLE vec_knowledge_chunks")
    with op.batch_alter_table('knowledge_query_hits', schema=None) as batch_op:
        batch_op.drop_index('ix_knowledge_query_hits_org_time')

    op.drop_table('knowledge_query_hits')
    with op.batch_alter_table('knowledge_chunks', schema=None) as batch_op:
        batch_op.drop_index('ix_knowledge_chunks_document')

    op.drop_table('knowledge_chunks')
    with op.batch_alter_table('knowledge_queries', schema=None) as batch_op:
        batch_op.drop_index('ix_knowledge_queries_org_time')

    op.drop_table('knowledge_queries')
    with op.batch_alter_table('knowledge_documents', schema=None) as batch_op:
        batch_op.drop_index('ix_knowledge_documents_status')
        batch_op.drop_index('ix_knowledge_documents_org')

    op.drop_table('knowledge_documents')
