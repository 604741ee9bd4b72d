"""times written through the driver get SQLAlchemy's stored form (microseconds always)

Rows inserted through `core.db.insert_many` before this version stored whole-second times without
`.000000` (the driver's own adapter), which compares wrongly as text against SQLAlchemy's form:
cursors over such columns skipped or repeated rows.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-22 01:20:00
"""
from alembic import op

from appliance.migrations import on_sqlite

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

# The tables written through insert_many, and their time columns.
_COLUMNS = {
    "messages": ("sent_at", "created_at", "updated_at"),
    "conversations": ("last_message_at", "last_inbound_at", "created_at", "updated_at"),
    "contacts": ("opted_out_at", "created_at", "updated_at"),
    "contact_list_members": ("added_at",),
    "outbox_events": ("created_at",),
}


def upgrade() -> None:
    if on_sqlite():  # SQLite's own structures (migrations.on_sqlite)
        for table, columns in _COLUMNS.items():
            for column in columns:
                op.execute(f"UPDATE {table} SET {column} = {column} || '.000000' WHERE length({column}) = 19")


def downgrade() -> None:
    pass  # the longer form is what SQLAlchemy writes too: nothing to undo
