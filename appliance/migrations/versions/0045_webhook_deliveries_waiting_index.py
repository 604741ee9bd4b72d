"""the sender's index leaves out the deliveries in the air

Revision ID: 0045
Revises: 0044
Create Date: 2026-11-27 00:40:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0045'
down_revision = '0044'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index('ix_webhook_deliveries_undelivered')
        batch_op.create_index('ix_webhook_deliveries_waiting', ['webhook_id', 'id'], unique=False,
                              sqlite_where=sa.text("status IN ('PENDING', 'RETRYING') AND in_flight_since IS NULL"))


def downgrade() -> None:
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_index('ix_webhook_deliveries_waiting')
        batch_op.create_index('ix_webhook_deliveries_undelivered', ['webhook_id', 'id'], unique=False,
                              sqlite_where=sa.text("status IN ('PENDING', 'RETRYING')"))
