"""the bot's AI job per conversation (an answer being thought, outside the turn's transaction)

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-23 09:46:16.233488
"""
from alembic import op
import sqlalchemy as sa


revision = '0030'
down_revision = '0029'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('bot_conversations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ai_job', sa.JSON(), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('bot_conversations', schema=None) as batch_op:
        batch_op.drop_column('ai_job')

