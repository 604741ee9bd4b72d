"""native devices count their failed pushes in a row, as browser subscriptions do

Revision ID: 0048
Revises: 0047
Create Date: 2026-12-02 00:10:00

GET /push/subscriptions shows `failures` for every browser and device. Devices kept before this
revision start at 0 (a failing one still has its lastError).
"""
import sqlalchemy as sa
from alembic import op

revision = '0048'
down_revision = '0047'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('push_devices', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failures', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('push_devices', schema=None) as batch_op:
        batch_op.drop_column('failures')
