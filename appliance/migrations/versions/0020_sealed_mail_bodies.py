"""outgoing_mails.body_sealed: mail bodies (reset, verification and invitation links) sealed with the
keyring; `body` stays for rows written before, which the server seals at its next start
(mail.service.seal_clear_bodies: a migration has no key)

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-23 04:45:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outgoing_mails', schema=None) as batch_op:
        batch_op.add_column(sa.Column('body_sealed', sqlmodel.sql.sqltypes.AutoString(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outgoing_mails', schema=None) as batch_op:
        batch_op.drop_column('body_sealed')
