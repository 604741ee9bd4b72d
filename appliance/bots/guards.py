"""When the bot must not speak, whatever it was about to say: the one list every step consults."""

from __future__ import annotations

from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation

# Reasons to stay silent that last (a person has the conversation...): logged when they begin, not
# on every message of a conversation the team is handling.
LASTING_SILENCES = frozenset({"handoff_pending", "assigned", "opted_out", "bot_excluded", "organization_suspended"})


def silence_reason(config: dict | None, conversation: Conversation, contact: Contact | None, *,
                   suspended: bool = False) -> str | None:
    """Why the bot must not speak in this conversation now, or None. A suspended organization's
    bot stays silent (billing: an invoice 7 days overdue) until the suspension is lifted."""
    if suspended:
        return "organization_suspended"
    if config is None or not config["enabled"] or config["mode"] == "OFF":
        return "bot_off"
    if contact is None or contact.opted_out_at is not None:
        return "opted_out"
    if contact.bot_excluded:
        return "bot_excluded"
    if conversation.handoff_pending:
        return "handoff_pending"
    if conversation.assignee_user_id:
        return "assigned"
    return None


