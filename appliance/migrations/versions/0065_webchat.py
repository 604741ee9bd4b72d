"""webchat: the website's chat: widgets, visitors and their conversations

Revision ID: 0065
Revises: 0064
Create Date: 2026-11-28 13:00:00

Widgets (a chat box on the business's website, its conversations in a number's inbox), their
visitors (each with a contact without a WhatsApp number), and the conversations' channel.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0065'
down_revision = '0064'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('webchat_widgets',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('phone_number_pk', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('allowed_origins', sa.JSON(), nullable=False),
    sa.Column('greeting', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('pre_chat_fields', sa.JSON(), nullable=False),
    sa.Column('enforce_identity', sa.Boolean(), nullable=False),
    sa.Column('offline_email', sqlmodel.sql.sqltypes.AutoString(length=254), nullable=True),
    sa.Column('website_token', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('identity_secret_sealed', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['phone_number_pk'], ['phone_numbers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_webchat_widgets_organization_id', 'webchat_widgets', ['organization_id'], unique=False)
    op.create_index('uq_webchat_widgets_token', 'webchat_widgets', ['website_token'], unique=True)
    op.create_table('webchat_visitors',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('widget_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('contact_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('identifier', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(length=254), nullable=True),
    sa.Column('last_seen_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('offline_mailed_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['contact_id'], ['contacts.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['widget_id'], ['webchat_widgets.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('widget_id', 'identifier', name='uq_webchat_visitors_identifier')
    )
    op.create_index('ix_webchat_visitors_organization_id', 'webchat_visitors', ['organization_id'], unique=False)
    op.create_index('ix_webchat_visitors_widget_id', 'webchat_visitors', ['widget_id'], unique=False)
    op.create_index('uq_webchat_visitors_token', 'webchat_visitors', ['token_hash'], unique=True,
                    sqlite_where=sa.text('token_hash IS NOT NULL'), postgresql_where=sa.text('token_hash IS NOT NULL'))
    with op.batch_alter_table('conversations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('channel', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False,
                                      server_default='whatsapp'))


def downgrade() -> None:
    # SQLite drops a column in place (3.35+): a batch's copy of conversations would drop the old table,
    # and its cascades would empty the tables that point at it.
    op.drop_column('conversations', 'channel')
    op.drop_table('webchat_visitors')
    op.drop_table('webchat_widgets')
