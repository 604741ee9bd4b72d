"""the failed sends of an organization, newest first (the console's home counts the last day's)

Revision ID: 0054
Revises: 0053
Create Date: 2026-11-27 19:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0054'
down_revision = '0053'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_messages_failed', 'messages', ['organization_id', 'created_at'], unique=False,
                    sqlite_where=sa.text("status = 'failed'"), postgresql_where=sa.text("status = 'failed'"))


def downgrade() -> None:
    op.drop_index('ix_messages_failed', table_name='messages')
