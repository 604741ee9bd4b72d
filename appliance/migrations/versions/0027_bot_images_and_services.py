"""bot images and the services catalog; a rule may send an image

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-23 07:52:17.755589
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('bot_images',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('label', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('caption', sqlmodel.sql.sqltypes.AutoString(length=1024), nullable=False),
    sa.Column('mime_type', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('size_bytes', sa.Integer(), nullable=False),
    sa.Column('sha256', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('bot_images', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bot_images_organization_id'), ['organization_id'], unique=False)

    op.create_table('catalog_services',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('categoria', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('nombre', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('descripcion', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('notas', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('moneda', sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
    sa.Column('url_contratacion', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
    sa.Column('activo', sa.Boolean(), nullable=False),
    sa.Column('mostrar_precio', sa.Boolean(), nullable=False),
    sa.Column('mostrar_sin_stock', sa.Boolean(), nullable=False),
    sa.Column('orden', sa.Integer(), nullable=False),
    sa.Column('precios', sa.JSON(), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('catalog_services', schema=None) as batch_op:
        batch_op.create_index('ix_catalog_services_org_order', ['organization_id', 'orden', 'nombre'], unique=False)

    with op.batch_alter_table('bot_rules', schema=None) as batch_op:
        batch_op.add_column(sa.Column('image_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.create_foreign_key('fk_bot_rules_image_id', 'bot_images', ['image_id'], ['id'], ondelete='SET NULL')



def downgrade() -> None:
    with op.batch_alter_table('bot_rules', schema=None) as batch_op:
        batch_op.drop_constraint('fk_bot_rules_image_id', type_='foreignkey')
        batch_op.drop_column('image_id')

    with op.batch_alter_table('catalog_services', schema=None) as batch_op:
        batch_op.drop_index('ix_catalog_services_org_order')

    op.drop_table('catalog_services')
    with op.batch_alter_table('bot_images', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bot_images_organization_id'))

    op.drop_table('bot_images')
