"""the bot remembers when a conversation last closed; a close ends its hand-off

Revision ID: 0046
Revises: 0045
Create Date: 2026-11-27 10:00:00
"""
import sqlalchemy as sa
from alembic import op

from appliance.core.db import UTCDateTime


revision = '0046'
down_revision = '0045'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (no table copy): bot_conversations has a row per conversation the bot heard.
    op.add_column('bot_conversations', sa.Column('last_closed_at', UTCDateTime(), nullable=True))
    # The states of conversations closed now remember it (their next message is welcomed), and a
    # hand-off deferred to an opening ends with the close, as it does from now on.
    op.execute("UPDATE bot_conversations SET last_closed_at = (SELECT closed_at FROM conversations c "
               "WHERE c.id = bot_conversations.conversation_id), handoff_at = NULL "
               "WHERE conversation_id IN (SELECT id FROM conversations WHERE status = 'closed')")
    # Closed conversations that kept a hand-off kept the bot silent and the banner after they reopened.
    op.execute("UPDATE conversations SET handoff_pending = FALSE, handoff_reason = NULL, handoff_detail = NULL, "
               "handoff_requested_at = NULL WHERE status = 'closed' AND handoff_pending")


def downgrade() -> None:
    # The hand-offs cleared above stay cleared (closed conversations have none from now on).
    with op.batch_alter_table('bot_conversations', schema=None) as batch_op:
        batch_op.drop_column('last_closed_at')
