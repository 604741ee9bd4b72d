"""webhooks that the old rule took for chat apps get the JSON event again

Revision ID: 0050
Revises: 0049
Create Date: 2026-11-27 11:00:00

Until issue 43 any address with `/hooks/` in its path was taken for a chat app (TEAMCHAT), so
Zapier's, Make's and n8n's webhooks got `{"text": ...}` instead of the event. The format is stored
when a webhook is made: those the old rule misread (what it would call TEAMCHAT and today's rule
calls GENERIC) are corrected. A TEAMCHAT chosen by hand for another address is left as it is.
"""
import re
from urllib.parse import urlsplit

import sqlalchemy as sa
from alembic import op


revision = '0050'
down_revision = '0049'
branch_labels = None
depends_on = None

# Today's rule (outbound_webhooks/envelopes.detect_format), copied: a migration keeps the rule it ran with.
_CHAT_HOSTS = ("hooks.slack.com", "chat.googleapis.com")
_CHAT_HOST_SUFFIXES = (".webhook.office.com", ".logic.azure.com")
_MATTERMOST_PATH = re.compile(r"/hooks/[a-z0-9]{26}/?\Z")


def _misread(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    chat_app = host in _CHAT_HOSTS or host.endswith(_CHAT_HOST_SUFFIXES) or _MATTERMOST_PATH.search(parts.path)
    return "/hooks/" in parts.path and not chat_app


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.text("SELECT id, url FROM outbound_webhooks WHERE format = 'TEAMCHAT'")).fetchall()
    wrong = [{"id": id_} for id_, url in rows if _misread(url)]
    if wrong:
        connection.execute(sa.text("UPDATE outbound_webhooks SET format = 'GENERIC' WHERE id = :id"), wrong)


def downgrade() -> None:
    pass  # the misread format is not worth restoring
