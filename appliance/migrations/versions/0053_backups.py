"""backups (the installation's archives and the attempts to make them)

Revision ID: 0053
Revises: 0052
Create Date: 2026-11-27 16:30:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0053'
down_revision = '0052'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('backups',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('file_name', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('progress', sa.Integer(), nullable=False),
    sa.Column('size_bytes', sa.Integer(), nullable=True),
    sa.Column('sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('app_version', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('schema_revision', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('key_id', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True),
    sa.Column('created_by_user_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('finished_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_backups_created_at'), 'backups', ['created_at'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_backups_created_at'), table_name='backups')
    op.drop_table('backups')
