"""a WABA or number disconnected may be connected again on PostgreSQL too

Revision ID: 0056
Revises: 0055
Create Date: 2026-11-28 12:00:00

0007 made `uq_wabas_connected_waba_id` and `uq_phone_numbers_connected_id` unique among the
connected rows only (`WHERE disconnected_at IS NULL`), but said so for SQLite alone
(`sqlite_where`): on PostgreSQL they were unique over every row, so connecting an account again
after a disconnect (its row is kept, with its conversations' history) failed with a unique
violation. They are rebuilt there with the same condition. The other partial indexes of 0008,
0013 and 0033 that say `sqlite_where` only are unique `WHERE x IS NOT NULL`, which PostgreSQL's
unique indexes are anyway (NULLs are distinct), or not unique at all.
"""
from alembic import op
import sqlalchemy as sa

from appliance.migrations import on_sqlite


revision = '0056'
down_revision = '0055'
branch_labels = None
depends_on = None

_INDEXES = (('uq_wabas_connected_waba_id', 'wabas', 'waba_id'),
            ('uq_phone_numbers_connected_id', 'phone_numbers', 'phone_number_id'))


def upgrade() -> None:
    if on_sqlite():  # 0007's indexes are already partial there
        return
    for name, table, column in _INDEXES:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, [column], unique=True, postgresql_where=sa.text('disconnected_at IS NULL'))


def downgrade() -> None:
    if on_sqlite():
        return
    for name, table, column in _INDEXES:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, [column], unique=True)
