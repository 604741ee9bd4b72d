"""What the console's webhook pages say: the list, the editor, the secret and the delivery log."""

from appliance.core.i18n import Words, _l, _lp, _ln

WEBHOOK_TEXTS = Words("console_webhooks", {
    "webhooks_title": _l("Webhooks"), "new_webhook": _l("New webhook"),
    "webhooks_intro": _l("Tell other systems what happens in your inbox: each event is posted to the address you "
                         "give, signed (Standard Webhooks), retried for about a day when the receiver is down, and "
                         "every attempt is logged."),
    "no_webhooks": _l("No webhooks yet. Add the address of your CRM, your own server or a Slack, Google Chat or "
                      "Teams channel."),
    "url": _l("Address (URL)"),
    "url_hint": _l("An http:// or https:// address. One on your office network works once the installation's "
                   "administrator allows that server."),
    "events": _l("Events"), "events_count": _ln("{n} event", "{n} events"),
    "events_hint": _l("What this webhook hears."),
    "event_names": {
        "webhook.test": _l("Test event (sent by the Send test button)"),
        "conversation.handoff_requested": _l("A customer asks for a person"),
        "conversation.unanswered": _l("A customer waits without a human reply"),
        "conversation.updated": _l("A conversation changes (status, tags, notes...)"),
        "conversation.assignment_changed": _l("A conversation is assigned or released"),
        "quality.changed": _l("A number's quality rating changes"),
        "template.status": _l("A template is approved, rejected or paused"),
        "agent.status_changed": _l("An agent's work status changes"),
        "message.created": _l("A message is received or sent"),
        "message.updated": _l("A sent message is delivered, read or fails"),
    },
    "format": _l("Format"), "format_auto": _l("Find it from the address"),
    "formats": {"GENERIC": _l("JSON event (for programs)"), "TEAMCHAT": _l("Chat message (Slack, Google Chat, Teams)")},
    "numbers": _l("Numbers"),
    "numbers_hint": _l("None ticked: every number. Events of no number (an agent's status) only go to webhooks of "
                       "every number."),
    "threshold": _l("Minutes without a reply"),
    "threshold_hint": _l("For “waits without a human reply”: 1 to 1,440 (default 2)."),
    "agent_statuses": _l("Only these statuses"),
    "agent_statuses_hint": _l("For “an agent's work status changes”; none ticked: all."),
    "status_names": {
        "ONLINE": _l("Online"), "LUNCH": _l("Lunch"), "BREAK": _lp("console_webhooks.status_names.BREAK", "Break"),
        "MEETING": _l("Meeting"), "TRAINING": _lp("console_webhooks.status_names.TRAINING", "Training"),
        "OFFLINE": _l("Shift ended"),
    },
    "active": _l("On"), "create": _l("Create webhook"), "save": _l("Save changes"),
    "health": {"ok": _l("Working"), "failing": _l("Failing for a day"), "disabled": _l("Off")},
    "gone_note": _l("The receiver answered 410 Gone, so the webhook was turned off. Turn it on again when the "
                    "address works."),
    "failing_note": _l("No event has been accepted since {since}. Events wait for it and are retried on schedule."),
    "last_delivery": _l("Last delivered"), "never": _l("never"),
    "failures": _ln("{n} failed attempt in a row", "{n} failed attempts in a row"),
    "send_test": _l("Send test"), "reveal_secret": _l("Show signing secret"), "secret_title": _l("Signing secret"),
    "secret_note": _l("Receivers verify each request's webhook-signature header with this secret (any Standard "
                      "Webhooks library does it). Keep it private."),
    "copy": _l("Copy"), "copied": _l("Copied"), "delete": _l("Delete webhook"),
    "confirm_delete": _l("Delete this webhook and its delivery log?"), "settings": _l("Settings"),
    "log_title": _l("Deliveries"), "log_empty": _l("Nothing sent yet. Press “Send test” to check the receiver."),
    "all": _lp("console_catalog.all", "All"),
    "delivery_statuses": {
        "PENDING": _l("Waiting"), "RETRYING": _l("Retrying"),
        "DELIVERED": _lp("console_webhooks.delivery_statuses.DELIVERED", "Delivered"),
        "FAILED": _lp("console_webhooks.delivery_statuses.FAILED", "Failed"),
    },
    "when": _l("When"), "event": _l("Event"), "state": _l("State"), "attempts": _l("Attempts"), "answer": _l("Answer"),
    "took": _lp("console_webhooks.took", "Time"), "next_attempt": _l("next attempt"), "request": _l("Request"),
    "response": _l("Response"),
    "attempt_outcomes": {
        "delivered": _l("delivered"), "failed": _lp("console_webhooks.attempt_outcomes.failed", "failed"),
        "interrupted": _l("interrupted by a restart"),
    },
    "retry": _l("Send again"), "older": _l("Older"), "back_to_list": _l("All webhooks"),
    "done": {
        "created": _l("Webhook created. Press “Send test” to check the receiver."), "saved": _l("Changes saved."),
        "test_sent": _l("Test event sent: its delivery is below."), "deleted": _l("Webhook deleted."),
        "retried": _l("Delivery sent again."),
    },
})
