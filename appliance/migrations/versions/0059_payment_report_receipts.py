"""payment reports keep the receipt a person attached on the Billing page

Revision ID: 0059
Revises: 0058
Create Date: 2026-11-28 10:00:00

A transfer reported from the Billing page carries its receipt (a photo or a PDF of the bank's
voucher) as a file of its own, kept under DATA_DIR/billing/receipts: sending it to WhatsApp first
(the API's receiptMediaId, an uploaded media's id) would need a connected number, which paying for
the installation must not. The file's type (sniffed, not claimed) and its name are kept here;
both are empty when there is no file of its own.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0059'
down_revision = '0058'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('payment_reports', sa.Column('receipt_file_type', sqlmodel.sql.sqltypes.AutoString(length=100),
                                               nullable=True))
    op.add_column('payment_reports', sa.Column('receipt_file_name', sqlmodel.sql.sqltypes.AutoString(length=255),
                                               nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('payment_reports', schema=None) as batch_op:
        batch_op.drop_column('receipt_file_name')
        batch_op.drop_column('receipt_file_type')
