"""What the console's templates and contacts pages say (read over console/texts.py's)."""

from appliance.core.i18n import Words, _l, _lp, _ln

CATALOG = Words("console_catalog", {
    # templates
    "templates_title": _l("Templates"),
    "templates_intro": _l("Messages approved by WhatsApp, for writing first or after 24 hours without an answer. New "
                          "ones are reviewed by the network, usually within minutes."),
    "all": _lp("console_catalog.all", "All"),
    "status_names": {
        "APPROVED": _l("Approved"), "PENDING": _l("In review"), "REJECTED": _l("Rejected"), "PAUSED": _l("Paused"),
    },
    "sync": _l("Sync with WhatsApp"), "new_template": _l("New template"), "template_name": _l("Name"),
    "template_language": _l("Language"), "category": _l("Category"), "template_status": _l("Status"),
    "no_templates": _l("No templates here yet. Create one, or sync to bring those made in Meta's manager."),
    "no_templates_filtered": _l("No templates with this status."), "more": _l("More"),
    "new_template_title": _l("New template"), "business_account": _l("Business account"),
    "name_hint": _l("Lower-case letters, digits and _, for example order_ready."),
    "language_hint": _l("For example es, en_US, pt_BR."), "header": _l("Header (optional)"),
    "header_example": _l("Example for the header's placeholder"), "body": _l("Message"),
    "body_hint": _l("Up to 1,024 characters. Write {{1}}, {{2}}… (or {{name}}) where each message fills a value."),
    "body_examples": _l("Example values"),
    "body_examples_hint": _l("One per line, in the order of the placeholders. WhatsApp's reviewers read them."),
    "footer": _l("Footer (optional)"), "buttons": _l("Buttons (optional)"), "quick_replies": _l("Quick replies"),
    "url_button": _l("Link button"), "url_button_text": _l("Button text"), "url_button_url": _l("Address (https://)"),
    "preview": _l("Preview"), "send_for_review": _l("Send for review"),
    "no_accounts_for_templates": _l("Connect a WhatsApp business account first: templates belong to one."),
    "connect_whatsapp": _l("Connect WhatsApp"), "rejected_reason": _l("Why it was rejected"), "synced_at": _l("Synced"),
    "components": _l("As the network stores it"), "back_to_templates": _l("All templates"),
    "categories": {"MARKETING": _l("Marketing"), "UTILITY": _l("Utility"), "AUTHENTICATION": _l("Authentication")},
    "synced": _l("Synced {templates} templates: {added} new, {changed} changed, {removed} removed."),
    # contacts
    "contacts_title": _l("Contacts"), "lists_title": _l("Lists"), "search": _l("Search"),
    "search_hint": _l("Name or number"), "all_lists": _l("Every contact"), "contact_name": _l("Name"),
    "wa_id": _l("WhatsApp number"), "wa_id_hint": _l("With country code, for example +57 300 123 4567."),
    "profile_name": _l("WhatsApp profile"), "added_on": _l("Added"),
    "opted_out": _lp("console_catalog.opted_out", "opted out"), "bot_excluded": _l("no automation"),
    "no_contacts": _l("No contacts yet. They appear when customers write to you; you can also import a CSV into a "
                      "list or add one below."),
    "no_contacts_found": _l("No contact matches."), "add_contact": _l("Add a contact"), "add": _l("Add"),
    "contact_title": _l("Contact"), "automation": _l("Automation"),
    "bot_excluded_label": _l("Never answered by automation (rules, AI agents)"), "attributes": _l("Attributes"),
    "attributes_hint": _l("Your own fields: a customer number, a city… Templates and broadcasts can use them."),
    "attribute_name": _l("Field"), "attribute_value": _l("Value"), "marketing": _l("Marketing messages"),
    "opted_out_since": _l("Opted out of marketing on {date}. Broadcasts skip this contact."),
    "opted_in": _l("Receives marketing messages (has not opted out)."), "member_of": _l("Lists"),
    "not_in_lists": _l("Not in any list."), "add_to_list": _l("Add to list"), "leave": _l("Remove"),
    "delete_contact": _l("Delete contact"),
    "confirm_delete_contact": _l("Delete this contact with all its conversations and messages? This cannot be undone."),
    "back_to_contacts": _l("All contacts"),
    "no_lists": _l("No lists yet. A list is an audience for broadcasts; create one and import a CSV into it."),
    "new_list": _l("New list"), "list_name": _l("Name"), "list_description": _l("Description (optional)"),
    "members": _l("Contacts"), "import_csv": _l("Import CSV"), "see_contacts": _l("See contacts"),
    "delete": _l("Delete"), "confirm_delete_list": _l("Delete this list? Its contacts stay."),
    "import_title": _l("Import contacts into “{name}”"),
    "import_intro": _l("A CSV from a spreadsheet: a column with the phone number (phone, telefono, whatsapp…), "
                       "optionally a name column; other columns become attributes. At most {rows} rows and "
                       "{megabytes} MB."),
    "file": _l("CSV file"), "update_existing": _l("Known numbers take the file's name and columns"),
    "read_file": _l("Read the file"), "uploading": _l("Uploading…"), "importing": _l("Importing…"),
    "preview_title": _l("What the file holds"),
    "preview_counts": _l("{rows} rows: {new} new contacts, {known} already known, {rejected} rejected."),
    "columns": _l("Columns that become attributes"), "first_rows": _l("First rows"), "line": _l("Line"),
    "rejected_rows": _l("Rejected rows"), "reason": _l("Reason"),
    "rejections_more": _l("Only the first 100 are listed."),
    "confirm_import": _ln("Import {count} contact", "Import {count} contacts", count="count"),
    "choose_other": _l("Choose another file"), "nothing_to_import": _l("No row can be imported."),
    "import_done_title": _l("Import finished"),
    "import_done": _l("{rows} rows read: {created} new contacts, {updated} updated, {added} joined the list "
                      "({already} were already in it), {rejected} rejected."),
    "done": {
        "synced": _l("Templates synced."),
        "synced_with_errors": _l("Templates synced, but the network refused some business accounts; check their "
                                 "tokens on the WhatsApp page."),
        "template_created": _l("Sent for review. WhatsApp answers within minutes to hours; the status changes here "
                               "by itself."),
        "contact_created": _l("Contact added."), "contact_deleted": _l("Contact deleted."),
        "list_joined": _l("Added to the list."), "list_left": _l("Removed from the list."),
        "list_created": _l("List created. Now import a CSV into it."), "list_deleted": _l("List deleted."),
    },
    "errors": {
        "template_exists": _l("This account already has a template with this name and language."),
        "contact_exists": _l("A contact with this number already exists."),
        "contact_list_name_taken": _l("A list with this name already exists."),
        "import_preview_expired": _l("This preview has expired; upload the file again."),
    },
})
