"""attendance remembers when it was turned on (no day before it is expected of anyone)

Revision ID: 0047
Revises: 0046
Create Date: 2026-12-02 00:00:00

Organizations that had attendance before this revision never recorded the moment. The closest the
data tells is the earliest of the first session started (nobody can start one while attendance is
off) and, while it is on, the settings' last change (it was on by then): that is what they get.
"""
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

import appliance.core.db

revision = '0047'
down_revision = '0046'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('attendance_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('enabled_at', appliance.core.db.UTCDateTime(), nullable=True))
    settings = sa.table('attendance_settings', sa.column('organization_id', sa.String()),
                        sa.column('enabled', sa.Boolean()), sa.column('updated_at', appliance.core.db.UTCDateTime()),
                        sa.column('enabled_at', appliance.core.db.UTCDateTime()))
    sessions = sa.table('attendance_sessions', sa.column('organization_id', sa.String()),
                        sa.column('started_ms', sa.BigInteger()))
    bind = op.get_bind()
    first_started = dict(bind.execute(sa.select(sessions.c.organization_id, sa.func.min(sessions.c.started_ms))
                                      .group_by(sessions.c.organization_id)).all())
    for organization_id, enabled, updated_at in bind.execute(
            sa.select(settings.c.organization_id, settings.c.enabled, settings.c.updated_at)).all():
        candidates = [updated_at] if enabled and updated_at is not None else []
        if organization_id in first_started:
            candidates.append(datetime.fromtimestamp(first_started[organization_id] / 1000, timezone.utc))
        if candidates:
            bind.execute(settings.update().where(settings.c.organization_id == organization_id)
                         .values(enabled_at=min(candidates)))


def downgrade() -> None:
    with op.batch_alter_table('attendance_settings', schema=None) as batch_op:
        batch_op.drop_column('enabled_at')
