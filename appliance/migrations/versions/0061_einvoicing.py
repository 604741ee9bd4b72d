"""e-invoicing: an organization's provider account and each order's electronic invoice

Revision ID: 0061
Revises: 0060
Create Date: 2026-11-28 12:00:00

The account at the DIAN-authorized provider (Factus: its OAuth client and user, secrets sealed,
the numbering range and the IVA rate) and one electronic invoice per order: pending (with its
next attempt; the partial index holds those the minute task looks at), issued (number, CUFE, QR
address, whether its PDF is kept) or rejected with the provider's reason.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0061'
down_revision = '0060'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('invoicing_accounts',
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('provider', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('client_id', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('client_secret_sealed', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=False),
    sa.Column('username', sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
    sa.Column('password_sealed', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=False),
    sa.Column('numbering_range_id', sa.Integer(), nullable=True),
    sa.Column('tax_rate', sqlmodel.sql.sqltypes.AutoString(length=6), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id')
    )
    op.create_table('electronic_invoices',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('order_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('customer', sa.JSON(), nullable=False),
    sa.Column('number', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('cufe', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
    sa.Column('qr_url', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('has_pdf', sa.Boolean(), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('issued_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('order_id')
    )
    op.create_index(op.f('ix_electronic_invoices_organization_id'), 'electronic_invoices', ['organization_id'],
                    unique=False)
    op.create_index('ix_electronic_invoices_pending', 'electronic_invoices', ['next_attempt_at'], unique=False,
                    sqlite_where=sa.text("status = 'PENDING'"), postgresql_where=sa.text("status = 'PENDING'"))


def downgrade() -> None:
    op.drop_index('ix_electronic_invoices_pending', table_name='electronic_invoices')
    op.drop_index(op.f('ix_electronic_invoices_organization_id'), table_name='electronic_invoices')
    op.drop_table('electronic_invoices')
    op.drop_table('invoicing_accounts')
