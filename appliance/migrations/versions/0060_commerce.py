"""commerce: products, their license keys, and what an order's payment and delivery came to

Revision ID: 0060
Revises: 0059
Create Date: 2026-11-28 11:00:00

Products (goods or licenses) of an organization, unique by their retailer id (Meta's catalog's and
the carts'); a license's keys, sealed, unique per product by their hash, each assigned once (the
partial index holds the ones not given out, which is what assigning reads); and on each order its
payment (unpaid, paid by a payment link, a confirmed transfer or by hand) and the delivery of its
keys (none, waiting and why, delivered). Existing orders are unpaid with nothing to deliver.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0060'
down_revision = '0059'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('products',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('retailer_id', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=150), nullable=False),
    sa.Column('description', sqlmodel.sql.sqltypes.AutoString(length=5000), nullable=False),
    sa.Column('price_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('image_url', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('available', sa.Boolean(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('low_stock_at', sa.Integer(), nullable=False),
    sa.Column('synced_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('meta_catalog_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('sync_error', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('organization_id', 'retailer_id', name='uq_products_retailer')
    )
    op.create_index('ix_products_organization', 'products', ['organization_id', 'name', 'id'], unique=False)
    op.create_table('license_keys',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('product_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('key_sealed', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
    sa.Column('key_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('order_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('assigned_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('replaced_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('replaced_reason', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['product_id'], ['products.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('product_id', 'key_hash', name='uq_license_keys_product_hash')
    )
    op.create_index('ix_license_keys_available', 'license_keys', ['product_id', 'id'], unique=False,
                    sqlite_where=sa.text('assigned_at IS NULL'), postgresql_where=sa.text('assigned_at IS NULL'))
    op.create_index('ix_license_keys_order', 'license_keys', ['order_id'], unique=False,
                    sqlite_where=sa.text('order_id IS NOT NULL'), postgresql_where=sa.text('order_id IS NOT NULL'))
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('payment_status', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False,
                                      server_default='UNPAID'))
        batch_op.add_column(sa.Column('paid_at', appliance.core.db.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('paid_via', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True))
        batch_op.add_column(sa.Column('payment_reference', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch_op.add_column(sa.Column('paid_by_user_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('payment_link_id', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch_op.add_column(sa.Column('payment_link_url', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True))
        batch_op.add_column(sa.Column('receipt_message_id', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True))
        batch_op.add_column(sa.Column('delivery_status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False,
                                      server_default='NONE'))
        batch_op.add_column(sa.Column('delivery_note', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True))
        batch_op.add_column(sa.Column('delivered_at', appliance.core.db.UTCDateTime(), nullable=True))
        batch_op.create_foreign_key('fk_orders_paid_by_user_id_users', 'users', ['paid_by_user_id'], ['id'],
                                    ondelete='SET NULL')
        batch_op.create_index('ix_orders_payment_link', ['payment_link_id'], unique=False,
                              sqlite_where=sa.text('payment_link_id IS NOT NULL'),
                              postgresql_where=sa.text('payment_link_id IS NOT NULL'))
        batch_op.create_index('ix_orders_waiting_delivery', ['organization_id'], unique=False,
                              sqlite_where=sa.text("delivery_status = 'WAITING'"),
                              postgresql_where=sa.text("delivery_status = 'WAITING'"))


def downgrade() -> None:
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index('ix_orders_waiting_delivery')
        batch_op.drop_index('ix_orders_payment_link')
        batch_op.drop_constraint('fk_orders_paid_by_user_id_users', type_='foreignkey')
        for column in ('delivered_at', 'delivery_note', 'delivery_status', 'receipt_message_id', 'payment_link_url',
                       'payment_link_id', 'paid_by_user_id', 'payment_reference', 'paid_via', 'paid_at',
                       'payment_status'):
            batch_op.drop_column(column)
    op.drop_index('ix_license_keys_order', table_name='license_keys')
    op.drop_index('ix_license_keys_available', table_name='license_keys')
    op.drop_table('license_keys')
    op.drop_index('ix_products_organization', table_name='products')
    op.drop_table('products')
