"""billing: add-ons, billing accounts, wallet entries, payment reports

Revision ID: 0058
Revises: 0057
Create Date: 2026-11-28 06:00:00

The first tables of billing (docs/billing.md): the add-on units an organization pays for beyond
its plan, its billing periods' anchor and a waiting interval change, the wallet's ledger (one
entry per source and reference: nothing credited or debited twice) and the bank transfers
reported for an administrator to review.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0058'
down_revision = '0057'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('billing_accounts',
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('anchor_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('next_interval', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('next_interval_from', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id')
    )
    op.create_table('organization_addons',
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('addon_type', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.Column('next_quantity', sa.Integer(), nullable=True),
    sa.Column('next_from', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id', 'addon_type')
    )
    op.create_table('payment_reports',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('bank', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('paid_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('receipt_media_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('rejection_reason', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('reported_by', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('reviewed_by', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('reviewed_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['reported_by'], ['users.id'], ondelete='RESTRICT'),
    sa.ForeignKeyConstraint(['reviewed_by'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('payment_reports', schema=None) as batch_op:
        batch_op.create_index('ix_payment_reports_organization', ['organization_id', 'created_at'], unique=False)
        batch_op.create_index('ix_payment_reports_pending', ['created_at'], unique=False, sqlite_where=sa.text("status = 'PENDING_REVIEW'"), postgresql_where=sa.text("status = 'PENDING_REVIEW'"))

    op.create_table('wallet_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('description', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('for_organization_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('organization_id', 'source', 'reference', name='uq_wallet_entries_source_reference')
    )
    with op.batch_alter_table('wallet_entries', schema=None) as batch_op:
        batch_op.create_index('ix_wallet_entries_organization', ['organization_id', 'id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('wallet_entries', schema=None) as batch_op:
        batch_op.drop_index('ix_wallet_entries_organization')

    op.drop_table('wallet_entries')
    with op.batch_alter_table('payment_reports', schema=None) as batch_op:
        batch_op.drop_index('ix_payment_reports_pending', sqlite_where=sa.text("status = 'PENDING_REVIEW'"), postgresql_where=sa.text("status = 'PENDING_REVIEW'"))
        batch_op.drop_index('ix_payment_reports_organization')

    op.drop_table('payment_reports')
    op.drop_table('organization_addons')
    op.drop_table('billing_accounts')
