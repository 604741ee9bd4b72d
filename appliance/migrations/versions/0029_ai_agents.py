"""AI agents: providers' credentials (sealed keys), agents, conversations point at an agent through conversations.bot_agent_id (0016)

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-23 09:33:29.698605
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0029'
down_revision = '0028'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('ai_provider_credentials',
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('provider', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
    sa.Column('api_key_sealed', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('base_url', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('last_error', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('last_checked_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name='fk_ai_provider_credentials_organization_id', ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id', 'provider')
    )
    op.create_table('bot_agents',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('organization_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('phone_number_pks', sa.JSON(), nullable=False),
    sa.Column('provider', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
    sa.Column('model', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('system_prompt', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('temperature', sa.Float(), nullable=False),
    sa.Column('max_tokens', sa.Integer(), nullable=False),
    sa.Column('knowledge_doc_ids', sa.JSON(), nullable=False),
    sa.Column('knowledge_tags', sa.JSON(), nullable=False),
    sa.Column('route_tags', sa.JSON(), nullable=False),
    sa.Column('capabilities', sa.JSON(), nullable=False),
    sa.Column('is_default', sa.Boolean(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('updated_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('bot_agents', schema=None) as batch_op:
        batch_op.create_index('ix_bot_agents_org', ['organization_id', 'name'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('bot_agents', schema=None) as batch_op:
        batch_op.drop_index('ix_bot_agents_org')

    op.drop_table('bot_agents')
    op.drop_table('ai_provider_credentials')
