"""billing: add-ons, accounts, wallet, payment reports, invoices, cards and payments

Revision ID: 0058
Revises: 0057
Create Date: 2026-11-28 06:00:00

The first tables of billing (docs/billing.md): the add-on units an organization pays for beyond
its plan, its billing periods' anchor, a waiting interval change and its auto-pay, the wallet's
ledger (one entry per source and reference: nothing credited or debited twice), the bank transfers
reported for an administrator to review, the invoices of each period with their lines, the cards
kept at the processor (sealed) and each attempt to take money through it (its reference the
processor's idempotency key).
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
    sa.Column('auto_pay_enabled', sa.Boolean(), nullable=False),
    sa.Column('auto_pay_method_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id')
    )
    op.create_table('invoices',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('wallet_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('period_start', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('period_end', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('total_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('due_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('paid_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('last_failure', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('owner_told_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['wallet_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('number'),
    sa.UniqueConstraint('organization_id', 'period_start', name='uq_invoices_organization_period')
    )
    with op.batch_alter_table('invoices', schema=None) as batch_op:
        batch_op.create_index('ix_invoices_open', ['next_attempt_at'], unique=False, sqlite_where=sa.text("status = 'OPEN'"), postgresql_where=sa.text("status = 'OPEN'"))
        batch_op.create_index('ix_invoices_organization', ['organization_id', 'period_start'], unique=False)

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
    op.create_table('payment_methods',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('source_sealed', sqlmodel.sql.sqltypes.AutoString(length=400), nullable=False),
    sa.Column('brand', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('last4', sqlmodel.sql.sqltypes.AutoString(length=4), nullable=False),
    sa.Column('exp_month', sa.Integer(), nullable=False),
    sa.Column('exp_year', sa.Integer(), nullable=False),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
    sa.Column('is_default', sa.Boolean(), nullable=False),
    sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('payment_methods', schema=None) as batch_op:
        batch_op.create_index('ix_payment_methods_organization', ['organization_id', 'created_at'], unique=False)

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

    op.create_table('invoice_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('invoice_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('description', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.Column('unit_minor', sa.BigInteger(), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['invoice_id'], ['invoices.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('invoice_lines', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_invoice_lines_invoice_id'), ['invoice_id'], unique=False)

    op.create_table('payments',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('wallet_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('purpose', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('invoice_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
    sa.Column('method', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('transaction_id', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=True),
    sa.Column('status_message', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('phone_number', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
    sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('settled_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['invoice_id'], ['invoices.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['wallet_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('reference')
    )
    with op.batch_alter_table('payments', schema=None) as batch_op:
        batch_op.create_index('ix_payments_open', ['created_at'], unique=False, sqlite_where=sa.text("status = 'PENDING'"), postgresql_where=sa.text("status = 'PENDING'"))
        batch_op.create_index('ix_payments_organization', ['organization_id', 'created_at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('payments', schema=None) as batch_op:
        batch_op.drop_index('ix_payments_organization')
        batch_op.drop_index('ix_payments_open', sqlite_where=sa.text("status = 'PENDING'"), postgresql_where=sa.text("status = 'PENDING'"))

    op.drop_table('payments')
    with op.batch_alter_table('invoice_lines', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_invoice_lines_invoice_id'))

    op.drop_table('invoice_lines')
    with op.batch_alter_table('wallet_entries', schema=None) as batch_op:
        batch_op.drop_index('ix_wallet_entries_organization')

    op.drop_table('wallet_entries')
    with op.batch_alter_table('payment_reports', schema=None) as batch_op:
        batch_op.drop_index('ix_payment_reports_pending', sqlite_where=sa.text("status = 'PENDING_REVIEW'"), postgresql_where=sa.text("status = 'PENDING_REVIEW'"))
        batch_op.drop_index('ix_payment_reports_organization')

    op.drop_table('payment_reports')
    with op.batch_alter_table('payment_methods', schema=None) as batch_op:
        batch_op.drop_index('ix_payment_methods_organization')

    op.drop_table('payment_methods')
    op.drop_table('organization_addons')
    with op.batch_alter_table('invoices', schema=None) as batch_op:
        batch_op.drop_index('ix_invoices_organization')
        batch_op.drop_index('ix_invoices_open', sqlite_where=sa.text("status = 'OPEN'"), postgresql_where=sa.text("status = 'OPEN'"))

    op.drop_table('invoices')
    op.drop_table('billing_accounts')
