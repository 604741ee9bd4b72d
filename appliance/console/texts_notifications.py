"""What the console's notification page says."""

from appliance.core.i18n import Words, _l

NOTIFICATION_TEXTS = Words("console_notifications", {
    "notifications_title": _l("Notifications"),
    "notifications_intro": _l("Get a notification on this computer or your phone when a customer needs you, even "
                              "with the inbox closed. Turn it on with the bell (🔕) at the top of the inbox, in each "
                              "browser you use."),
    "secure_note": _l("Browsers only allow notifications on pages opened over HTTPS or on localhost. On the office "
                      "network, open the appliance at its HTTPS address (see the installer's notes) to turn them on."),
    "what": _l("Tell me when"), "save": _l("Save"),
    "triggers": {
        "assigned": _l("A conversation is assigned to me"),
        "customer_message": _l("A customer writes in a conversation assigned to me"),
        "handoff": _l("A customer asks for a person on a number I work on"),
        "unanswered": _l("A customer has waited too long (the inbox's wait notice)"),
    },
    "where": _l("Where"), "none_yet": _l("No browser or phone has notifications on yet."), "browser": _l("Browser"),
    "device": _l("Phone app"), "since": _l("since"), "last_ok": _l("last delivered"), "never": _l("never"),
    "failing": _l("failing"), "remove": _l("Remove"), "send_test": _l("Send me a test"),
    "done": {
        "saved": _l("Saved."), "removed": _l("Removed."), "test_sent": _l("Test sent to {n} browsers and phones."),
    },
})
