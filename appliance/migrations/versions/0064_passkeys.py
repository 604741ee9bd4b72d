"""passkeys: the team's passkeys (WebAuthn credentials) and their ceremonies' challenges

Revision ID: 0064
Revises: 0063
Create Date: 2026-11-28 13:00:00

`passkeys`: a person's WebAuthn credentials (the credential id unique across the installation, its
COSE public key, the sign counter). `passkey_challenges`: each ceremony's challenge until it is spent
or expires (five minutes), bound to its ceremony and, for a registration, to the person.
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel
import appliance.core.db


revision = '0064'
down_revision = '0063'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('passkeys',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('credential_id', sqlmodel.sql.sqltypes.AutoString(length=1400), nullable=False),
    sa.Column('public_key', sa.LargeBinary(), nullable=False),
    sa.Column('sign_count', sa.Integer(), nullable=False),
    sa.Column('transports', sa.JSON(), nullable=False),
    sa.Column('aaguid', sqlmodel.sql.sqltypes.AutoString(length=36), nullable=True),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('user_verified', sa.Boolean(), nullable=False),
    sa.Column('backed_up', sa.Boolean(), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('last_used_at', appliance.core.db.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('credential_id')
    )
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_passkeys_user_id'), ['user_id'], unique=False)

    op.create_table('passkey_challenges',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('ceremony', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('challenge', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('created_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.Column('expires_at', appliance.core.db.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('challenge')
    )
    with op.batch_alter_table('passkey_challenges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_passkey_challenges_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_passkey_challenges_user_id'), ['user_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('passkey_challenges', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passkey_challenges_user_id'))
        batch_op.drop_index(batch_op.f('ix_passkey_challenges_expires_at'))

    op.drop_table('passkey_challenges')
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passkeys_user_id'))

    op.drop_table('passkeys')
