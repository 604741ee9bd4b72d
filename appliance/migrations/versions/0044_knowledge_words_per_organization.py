"""the passages' word index keeps each word with its organization, and no copy of the text

Revision ID: 0044
Revises: 0043
Create Date: 2026-11-26 12:27:31
"""
from alembic import op

from appliance.migrations import on_sqlite


revision = '0044'
down_revision = '0043'
branch_labels = None
depends_on = None

_BATCH = 2000


def upgrade() -> None:
    if on_sqlite():  # SQLite's own structures (migrations.on_sqlite)
        # appliance/knowledge/word_index.py explains the format. Its function writes the rows, so an
        # existing library is indexed exactly as new passages will be; the trigger of 0032 keeps
        # deleting by rowid, which `contentless_delete` allows.
        from appliance.knowledge.word_index import indexed_words
        op.execute("DROP TABLE fts_knowledge_chunks")
        op.execute("CREATE VIRTUAL TABLE fts_knowledge_chunks USING fts5(words, content='', contentless_delete=1, "
                   "tokenize = 'unicode61 remove_diacritics 2')")
        connection = op.get_bind()
        last = -1
        while True:
            rows = connection.exec_driver_sql(
                "SELECT id, organization_id, text FROM knowledge_chunks WHERE id > ? ORDER BY id LIMIT ?",
                (last, _BATCH)).fetchall()
            if not rows:
                break
            connection.exec_driver_sql("INSERT INTO fts_knowledge_chunks (rowid, words) VALUES (?, ?)",
                                       [(chunk_id, indexed_words(org, text)) for chunk_id, org, text in rows])
            last = rows[-1][0]


def downgrade() -> None:
    op.execute("DROP TABLE fts_knowledge_chunks")
    op.execute("CREATE VIRTUAL TABLE fts_knowledge_chunks USING fts5(text, org, "
               "tokenize = 'unicode61 remove_diacritics 2')")
    op.execute("INSERT INTO fts_knowledge_chunks (rowid, text, org) "
               "SELECT id, text, 'o' || replace(organization_id, '-', '') FROM knowledge_chunks")
