"""What the console's bot library pages say: the image library and the services catalog."""

from appliance.core.i18n import Words, _l, _lp

BOT_LIBRARY_TEXTS = Words("console_bot_library", {
    "back_to_bot": _l("Bot"), "save": _l("Save"), "delete": _l("Delete"), "add": _l("Add"),
    "images_title": _l("Images"),
    "images_intro": _l("Pictures the bot sends: a menu, a price list, a map. A rule sends one with its reply; the "
                       "caption is what the customer reads under it (the rule's text wins)."),
    "no_images": _l("No images yet. Add your menu or price list: customers ask for them every day."),
    "new_image": _l("Add an image"), "file": _l("Image (JPG, PNG or WEBP, up to 5 MB)"),
    "label": _l("Name (for your team)"), "caption": _l("Caption (for the customer)"), "uploading": _l("Uploading…"),
    "size": _l("Size"), "force_delete": _l("Delete even if rules send it (they will reply without it)"),
    "services_title": _l("Services and prices"),
    "services_intro": _l("What you offer and what it costs. The bot and its AI agents answer price questions from "
                         "here; inactive services are kept but never offered."),
    "no_services": _l("No services yet. Add what customers ask about most."), "new_service": _l("New service"),
    "nombre": _l("Name"), "categoria": _l("Category"), "descripcion": _l("Description"),
    "notas": _l("Notes (for the bot, not shown as such)"), "moneda": _l("Currency"), "url": _l("Link to buy or book"),
    "activo": _lp("console_bot_library.activo", "Active"), "mostrar_precio": _l("Say the price"),
    "mostrar_sin_stock": _l("Offer it without stock"), "orden": _l("Order (lower first)"), "prices": _l("Prices"),
    "etiqueta": _l("Label"), "monto": _l("Amount"), "periodo": _l("Per"), "stock": _l("Stock (empty: not counted)"),
    "periods": {"UNICO": _l("once"), "MENSUAL": _l("month"), "ANUAL": _l("year"), "POR_HORA": _l("hour")},
    "inactive": _l("inactive"),
    "done": {
        "image_added": _l("Image added."), "image_saved": _l("Image saved."), "image_deleted": _l("Image deleted."),
        "service_created": _l("Service added."), "service_saved": _l("Service saved."),
        "service_deleted": _l("Service deleted."),
    },
    "errors": {},
})
