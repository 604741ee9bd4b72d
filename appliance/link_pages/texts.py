from appliance.core.i18n import Words, _l

TEXTS = Words("link_pages", {
    "chat": _l("Chat on WhatsApp"), "made_with": _l("Made with the business messaging appliance"),
    "empty": _l("No links yet."),
})
