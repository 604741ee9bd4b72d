"""installation_settings (the public address kept by the installation's administrator) and
webhook_setups (each organization's verify token for Meta's webhook, and what Meta last did)

Revision ID: 0052
Revises: 0051
Create Date: 2026-11-27 13:00:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0052'
down_revision = '0051'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('installation_settings',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
    sa.Column('value', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
    sa.Column('updated_by_user_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('webhook_setups',
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('verify_token_sealed', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
    sa.Column('verify_token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('verified_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('last_delivery_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('last_rejected_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('rotated_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id'),
    sa.UniqueConstraint('verify_token_hash')
    )


def downgrade() -> None:
    op.drop_table('webhook_setups')
    op.drop_table('installation_settings')
