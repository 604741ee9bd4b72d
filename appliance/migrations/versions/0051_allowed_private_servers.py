"""allowed_private_servers: the private servers (scheme://host[:port]) the installation's
administrator lets the appliance reach for organizations, kept in the console
(APPLIANCE_ALLOWED_PRIVATE_URLS, when set, wins over it)

Revision ID: 0051
Revises: 0050
Create Date: 2026-11-28 10:00:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0051'
down_revision = '0050'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('allowed_private_servers',
    sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('added_by_user_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('added_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('origin')
    )


def downgrade() -> None:
    op.drop_table('allowed_private_servers')
