"""api_keys.phone_number_ids -> phone_number_pks, memberships.waba_ids -> waba_pks: our ids are
`*_pk` everywhere, and `phone_number_id`/`waba_id` only ever mean the network's (the API still says
phoneNumberIds and wabaIds)

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-23 02:30:00
"""
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE api_keys RENAME COLUMN phone_number_ids TO phone_number_pks")
    op.execute("ALTER TABLE memberships RENAME COLUMN waba_ids TO waba_pks")


def downgrade() -> None:
    op.execute("ALTER TABLE api_keys RENAME COLUMN phone_number_pks TO phone_number_ids")
    op.execute("ALTER TABLE memberships RENAME COLUMN waba_pks TO waba_ids")
