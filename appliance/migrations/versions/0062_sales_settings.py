"""sales settings: the template that delivers license keys outside the customer's window

Revision ID: 0062
Revises: 0061
Create Date: 2026-11-28 13:00:00

One row per organization that chose one: the approved template (by name and language, as the
sending service finds it in the number's business account) whose body carries the keys of a sale
paid after the customer's 24-hour window closed.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0062'
down_revision = '0061'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('sales_settings',
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('delivery_template_name', sqlmodel.sql.sqltypes.AutoString(length=512), nullable=True),
    sa.Column('delivery_template_language', sqlmodel.sql.sqltypes.AutoString(length=15), nullable=True),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id')
    )


def downgrade() -> None:
    op.drop_table('sales_settings')
