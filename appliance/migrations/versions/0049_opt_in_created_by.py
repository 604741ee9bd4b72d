"""every opt-in record says who made it (`createdBy`)

Revision ID: 0049
Revises: 0048
Create Date: 2026-12-02 00:20:00

`created_by` is the maker as one string: `user:<id>` (a person), `key:<id>` (an API key),
`oauth:<id>` (an application with a person's grant) or `keyword` (the customer wrote an opt-out
keyword). Records kept before this revision get what can still be told: the person when one was
recorded, `keyword` for the keyword's records (those of migration 0033 included), and `key` alone for
the rest (an API key made them; which one was not recorded).
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0049'
down_revision = '0048'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('contact_opt_ins', schema=None) as batch_op:
        batch_op.add_column(sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
    op.execute("UPDATE contact_opt_ins SET created_by = CASE "
               "WHEN created_by_user_id IS NOT NULL THEN 'user:' || created_by_user_id "
               "WHEN source = 'keyword' THEN 'keyword' ELSE 'key' END")
    with op.batch_alter_table('contact_opt_ins', schema=None) as batch_op:
        batch_op.alter_column('created_by', existing_type=sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('contact_opt_ins', schema=None) as batch_op:
        batch_op.drop_column('created_by')
