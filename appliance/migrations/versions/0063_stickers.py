"""stickers: the organization's sticker library

Revision ID: 0063
Revises: 0062
Create Date: 2026-11-28 13:00:00

One row per sticker of an organization's library (appliance/stickers): the normalized WEBP's hash
(one copy of a picture per organization), its size, whether it moves, and what the upload was and
how it was re-encoded (the sentence the console shows). The file itself is under the data
directory.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0063'
down_revision = '0062'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('stickers',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
    sa.Column('sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('size_bytes', sa.Integer(), nullable=False),
    sa.Column('animated', sa.Boolean(), nullable=False),
    sa.Column('frames', sa.Integer(), nullable=False),
    sa.Column('source_format', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('source_width', sa.Integer(), nullable=False),
    sa.Column('source_height', sa.Integer(), nullable=False),
    sa.Column('source_bytes', sa.Integer(), nullable=False),
    sa.Column('encoding', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('quality', sa.Integer(), nullable=True),
    sa.Column('created_by_user_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['created_by_user_id'], ['users.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('organization_id', 'sha256', name='uq_stickers_org_sha256')
    )
    op.create_index(op.f('ix_stickers_organization_id'), 'stickers', ['organization_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_stickers_organization_id'), table_name='stickers')
    op.drop_table('stickers')
