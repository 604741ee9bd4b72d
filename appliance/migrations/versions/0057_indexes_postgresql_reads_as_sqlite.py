"""PostgreSQL's indexes answer what SQLite's do: partial ones partial, the outbox's name index in id order

Revision ID: 0057
Revises: 0056
Create Date: 2026-11-28 04:00:00

The indexes below were made partial for SQLite alone (`sqlite_where`), so on PostgreSQL they
covered every row. Most of a table's rows are outside them (a customer's message has no send state
and no client id, a conversation is rarely snoozed), so every insert there kept entries nobody reads:
four of the eight indexes of `messages` for each message that arrives. Rebuilt with the same
conditions, as 0056 did for the connected ids. Nothing reads these indexes through an
`ON CONFLICT (columns)` target, which a partial index would have to repeat.

The outbox's index on the event name (0001) holds, on SQLite, each row's id too (the rowid every
index entry carries), so the dispatcher's "newest id of this name" and "this listener's next ids,
in order" read a few entries. PostgreSQL's index on the name alone orders equal names by where the
row lies: both read every event of the name, ever (a cost that grew with the table: 0.07 ms a
question after a minute of inbound load, asked several times a delivery). Now (name, id) on both.
"""
from alembic import op
import sqlalchemy as sa

from appliance.migrations import on_sqlite


revision = '0057'
down_revision = '0056'
branch_labels = None
depends_on = None

_WAITING = "status IN ('PENDING', 'RETRYING') AND in_flight_since IS NULL"  # outbound_webhooks.models.WAITING
# (name, table, columns, unique, condition)
_INDEXES = (
    ('uq_messages_wamid', 'messages', ['wamid'], True, 'wamid IS NOT NULL'),
    ('uq_messages_org_client_id', 'messages', ['organization_id', 'client_id'], True, 'client_id IS NOT NULL'),
    ('ix_messages_send_queue', 'messages', ['phone_number_pk', 'id'], False, 'send_state IS NOT NULL'),
    ('ix_messages_send_recipient', 'messages', ['phone_number_pk', 'customer_wa_id', 'id'], False,
     'send_state IS NOT NULL'),
    ('uq_contacts_org_wa_id', 'contacts', ['organization_id', 'wa_id'], True, 'wa_id IS NOT NULL'),
    ('uq_contacts_org_user_id', 'contacts', ['organization_id', 'user_id'], True, 'user_id IS NOT NULL'),
    ('ix_conversations_snoozed', 'conversations', ['snoozed_until'], False, "status = 'snoozed'"),
    ('ix_conversations_waiting', 'conversations', ['organization_id', 'awaiting_reply_since'], False,
     'awaiting_reply_since IS NOT NULL'),
    ('ix_bot_conversations_due', 'bot_conversations', ['due_at'], False, 'due_at IS NOT NULL'),
    ('ix_webhook_deliveries_waiting', 'webhook_deliveries', ['webhook_id', 'id'], False, _WAITING),
    ('ix_broadcast_recipients_waiting', 'broadcast_recipients', ['broadcast_id', 'id'], False,
     'message_id IS NULL AND skipped_reason IS NULL'),
    ('ix_broadcast_recipients_message', 'broadcast_recipients', ['message_id'], True, 'message_id IS NOT NULL'),
    ('ix_broadcast_recipients_reply', 'broadcast_recipients', ['contact_id', 'sent_at'], False, 'replied_at IS NULL'),
)


def upgrade() -> None:
    op.drop_index('ix_outbox_events_name', table_name='outbox_events')
    op.create_index('ix_outbox_events_name', 'outbox_events', ['name', 'id'])
    if on_sqlite():  # partial there since they were made
        return
    for name, table, columns, unique, condition in _INDEXES:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, columns, unique=unique, postgresql_where=sa.text(condition))


def downgrade() -> None:
    op.drop_index('ix_outbox_events_name', table_name='outbox_events')
    op.create_index('ix_outbox_events_name', 'outbox_events', ['name'])
    if on_sqlite():
        return
    for name, table, columns, unique, _ in _INDEXES:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, columns, unique=unique)
