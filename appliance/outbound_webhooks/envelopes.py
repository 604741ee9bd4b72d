"""What a receiver gets: the events one may subscribe to, the two body formats, and the Standard
Webhooks headers (signed with the `standardwebhooks` package, the spec's own reference code, so
what we sign is exactly what its verifiers check).

GENERIC is the signed JSON envelope `{id, type, createdAt, organizationId, data}`. TEAMCHAT is a
chat app's incoming webhook (Slack, Google Chat, Mattermost, Microsoft Teams workflows): `{text}`,
one sentence in the organization's language. Both carry the same headers."""

from __future__ import annotations

import base64
import json
import os
import re
from datetime import datetime
from urllib.parse import urlsplit

from standardwebhooks.webhooks import Webhook

from appliance.core import clock, events
from appliance.core.i18n import Words, _l, language_of

WEBHOOK_TEST = "webhook.test"
# Every event a webhook may ask for (the reference's catalog, and the messages' two); the others
# of the outbox are the appliance's own business.
SUBSCRIBABLE = (WEBHOOK_TEST, events.CONVERSATION_HANDOFF_REQUESTED, events.CONVERSATION_UNANSWERED,
                events.CONVERSATION_UPDATED, events.CONVERSATION_ASSIGNMENT_CHANGED, events.QUALITY_CHANGED,
                events.TEMPLATE_STATUS, events.AGENT_STATUS_CHANGED, events.MESSAGE_CREATED, events.MESSAGE_UPDATED,
                events.SALE_COMPLETED, events.LICENSE_KEY_REPLACED, events.LICENSE_TRANSFER_CONFIRMED,
                events.LICENSE_PAYMENT_UNMATCHED)
GENERIC, TEAMCHAT = "GENERIC", "TEAMCHAT"
FORMATS = (GENERIC, TEAMCHAT)
_CHAT_HOSTS = ("hooks.slack.com", "chat.googleapis.com")
_CHAT_HOST_SUFFIXES = (".webhook.office.com", ".logic.azure.com")
# Mattermost runs on the business's own host: its incoming webhooks are `/hooks/` and a 26-character
# id of lowercase letters and digits, and nothing after it. Automation tools' addresses may say
# `/hooks/` too (hooks.zapier.com/hooks/catch/1/abc/) and want the JSON event: their hosted services
# never count as a chat app, and on a host of the business's own (n8n) only Mattermost's shape does.
_MATTERMOST_PATH = re.compile(r"/hooks/[a-z0-9]{26}/?\Z")
_AUTOMATION_DOMAINS = ("zapier.com", "make.com", "n8n.cloud")


def detect_format(url: str) -> str:
    """TEAMCHAT for the chat apps' incoming-webhook addresses, GENERIC for everything else."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if any(host == domain or host.endswith("." + domain) for domain in _AUTOMATION_DOMAINS):
        return GENERIC
    if host in _CHAT_HOSTS or host.endswith(_CHAT_HOST_SUFFIXES) or _MATTERMOST_PATH.search(parts.path):
        return TEAMCHAT
    return GENERIC


def new_secret() -> str:
    """`whsec_` and 32 random bytes in base64, as the spec writes secrets."""
    return "whsec_" + base64.b64encode(os.urandom(32)).decode()


def body(format_: str, *, event_id: str, event_type: str, created_at: datetime, organization_id: str,
         data: dict, locale: str) -> str:
    if format_ == TEAMCHAT:
        return json.dumps({"text": sentence(event_type, data, locale)}, ensure_ascii=False)
    return json.dumps({"id": event_id, "type": event_type, "createdAt": clock.iso(created_at),
                       "organizationId": organization_id, "data": data}, ensure_ascii=False, separators=(",", ":"))


def signer(secret: str) -> Webhook:
    """The spec's reference signer for one secret (made once per webhook: it decodes the secret)."""
    return Webhook(secret)


def headers(signer: Webhook, event_id: str, payload: str, at: datetime) -> dict[str, str]:
    """The Standard Webhooks headers for one attempt (the timestamp is the attempt's)."""
    return {"content-type": "application/json", "user-agent": "appliance-webhooks/1",
            "webhook-id": event_id, "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": signer.sign(event_id, at, payload)}


# One sentence per event for chat apps, in the organization's language.
_SENTENCES = Words("webhook_sentences", {
    WEBHOOK_TEST: _l("Test from your WhatsApp inbox: this webhook works."),
    events.CONVERSATION_HANDOFF_REQUESTED: _l("A customer asks for a person ({reason}). Conversation "
                                              "{conversationId}."),
    events.CONVERSATION_UNANSWERED: _l("A customer has waited {minutes} minutes without a reply. Conversation "
                                       "{conversationId}."),
    events.CONVERSATION_UPDATED: _l("Conversation {conversationId} changed: it is {status}."),
    events.CONVERSATION_ASSIGNMENT_CHANGED: _l("Conversation {conversationId} was {assignment}."),
    events.QUALITY_CHANGED: _l("The quality of number {phoneNumberId} went from {from} to {to}."),
    events.TEMPLATE_STATUS: _l("Template {name} ({language}) is now {status}."),
    events.AGENT_STATUS_CHANGED: _l("{userName} went from {from} to {to}."),
    events.MESSAGE_CREATED: _l("New {direction} message in conversation {conversationId}."),
    events.MESSAGE_UPDATED: _l("A message of conversation {conversationId} is now {status}."),
    events.SALE_COMPLETED: _l("Order {orderId} was paid ({total} {currency}): the sale is complete."),
    events.LICENSE_KEY_REPLACED: _l("A license key of order {orderId} was replaced: {reason}"),
    events.LICENSE_TRANSFER_CONFIRMED: _l("The transfer for order {orderId} was confirmed."),
    events.LICENSE_PAYMENT_UNMATCHED: _l("A payment of {amount} {currency} matches no unpaid order ({reason}); "
                                         "check order {orderId}."),
    "assigned": _l("assigned"), "released": _l("released"), "in": _l("incoming"), "out": _l("outgoing"),
    "unknown": _l("unknown"),
})


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def sentence(event_type: str, data: dict, locale: str) -> str:
    words = _SENTENCES[language_of(locale)]
    values = _Blank({key: value for key, value in data.items() if value is not None})
    values["assignment"] = words["assigned" if data.get("assigneeUserId") else "released"]
    values["direction"] = words.get(str(data.get("direction")), words["unknown"])
    values.setdefault("userName", data.get("userId") or "?")
    values.setdefault("reason", "-")
    return words.get(event_type, "{type}").format_map(_Blank({**values, "type": event_type}))
