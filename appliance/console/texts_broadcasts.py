"""What the console's campaign pages say: the list, the wizard and a campaign's page."""

from appliance.core.i18n import Words, _l, _lp, _ln

BROADCAST_TEXTS = Words("console_broadcasts", {
    "broadcasts_title": _l("Campaigns"), "new_broadcast": _l("New campaign"),
    "broadcasts_intro": _l("Send an approved template to your contact lists. Messages leave at your number's pace, "
                           "contacts who opted out are skipped, and replies within 30 days are counted."),
    "statuses": {
        "SCHEDULED": _l("Scheduled"), "RUNNING": _l("Sending"), "PAUSED": _l("Paused"),
        "COMPLETED": _lp("console_broadcasts.statuses.COMPLETED", "Done"), "CANCELLED": _l("Cancelled"),
    },
    "starts_at": _l("starts"), "started": _l("started"), "finished": _l("finished"), "progress": _l("Progress"),
    "count_total": _l("recipients"), "count_sent": _lp("console_broadcasts.count_sent", "Sent"),
    "count_delivered": _l("Delivered"), "count_read": _l("Read"),
    "count_replied": _lp("console_broadcasts.count_replied", "Replied"),
    "count_failed": _lp("console_broadcasts.count_failed", "Failed"), "count_skipped": _l("Skipped"),
    "count_pending": _l("Waiting"), "handled": _l("handled"), "more": _l("More"),
    "no_broadcasts": _l("No campaigns yet. Put your customers in a contact list (a CSV import does it), then create "
                        "a campaign with an approved template."),
    "import_first": _l("Import contacts"), "paused_title": _l("Paused: nothing more is sent for now"),
    "paused_reasons": {
        "template_paused": _l("Meta paused the template for low quality."),
        "template_disabled": _l("Meta disabled the template."), "template_rejected": _l("The template was rejected."),
        "template_deleted": _l("The template no longer exists."),
        "number_disconnected": _l("The number was disconnected from the appliance."),
        "organization_suspended": _l("The organization is suspended: resume once it is lifted."),
    },
    "funnel_hint": _l("Sent counts every message the network accepted; delivered includes the read ones. Replies are "
                      "the customer's first message within 30 days."),
    "resume": _l("Resume sending"), "retry_failed": _ln("Retry the {n} failed", "Retry the {n} failed"),
    "cancel": _l("Cancel the campaign"),
    "retry_confirm": _l("Send the message again to every failed recipient? Those whose send was cut short (-2, -3) "
                        "may have received it already and would get it twice."),
    "cancel_confirm": _l("Cancel this campaign? Whoever has not received it yet will not get it."),
    "recipients": _l("Recipients"), "export_csv": _l("Export CSV"), "all": _l("All"), "contact": _l("Contact"),
    "state": _l("State"), "sent_at": _l("Sent"), "replied_at": _l("Replied"),
    "recipient_states": {
        "pending": _l("Waiting"), "sent": _l("Sent"),
        "delivered": _lp("console_broadcasts.recipient_states.delivered", "Delivered"),
        "read": _lp("console_broadcasts.recipient_states.read", "Read"),
        "failed": _lp("console_broadcasts.recipient_states.failed", "Failed"),
        "skipped": _lp("console_broadcasts.recipient_states.skipped", "Skipped"),
    },
    "skip_reasons": {
        "opted_out": _l("opted out"), "duplicate": _l("same number twice"), "invalid_number": _l("no WhatsApp number"),
        "missing_variable": _l("a value was missing (add a fallback: {{contact.name|cliente}})"),
        "cancelled": _l("campaign cancelled"),
    },
    "attempts": _l("{n} attempts"), "no_recipients": _l("No one here."),
    "no_numbers": _l("Connect a WhatsApp number first:"), "connect_whatsapp": _l("Connect WhatsApp"),
    "step_message": _l("Message"), "campaign_name": _l("Campaign name"), "campaign_name_hint": _l("Weekend offers"),
    "number": _l("From number"), "choose": _l("Choose…"), "template": _l("Approved template"),
    "no_templates": _l("This number's account has no approved template yet."), "templates_link": _l("Templates"),
    "continue": _l("Continue"), "step_values": _l("Values"),
    "values_hint": _l("Write a value, or take it from each contact:"), "header_value": _l("Header"),
    "header_link": _l("Header {kind} (link)"), "body_value": _l("Value {{{{{name}}}}}"),
    "button_value": _l("Button {n} ({kind})"), "no_values": _l("This template has nothing to fill."),
    "step_audience": _l("Audience"), "members": _ln("{n} contact", "{n} contacts"),
    "opted_out_n": _ln("{n} opted out", "{n} opted out"),
    "no_number_n": _l("{n} without a number"),
    "will_receive": _l("will receive it (each once; opted-out contacts are left out)"),
    "no_lists": _l("No contact lists yet."), "count_again": _l("Count again"), "step_when": _l("When"),
    "send_now": _l("Send now"), "send_later": _l("Schedule"), "send_at": _l("Day and time ({zone})"),
    "create": _l("Create campaign"), "preview": _l("Preview"), "preview_for": _l("As {name} will see it"),
    "preview_sample": _l("With a sample contact"),
    "preview_missing": _l("{placeholder} is empty for this contact: they would be skipped. Add a fallback after a "
                          "bar."),
    "refresh_preview": _l("Refresh the preview"), "preview_empty": _l("Choose a template to see the message."),
    "done": {
        "broadcast_created": _l("Campaign created."), "broadcast_cancelled": _l("Campaign cancelled."),
        "broadcast_resumed": _l("Sending again."), "broadcast_retried": _l("The failed ones are being sent again."),
    },
})
