"""What the console's selling pages say: the catalog (products, their license keys, the push to Meta)
and the e-invoicing account."""

from appliance.core.i18n import Words, _l

PRODUCT_TEXTS = Words("console_products", {
    "products_title": _l("Catalog"),
    "products_intro": _l("What you sell on WhatsApp. Licenses carry keys: when an order is paid, its keys go to the "
                         "customer in the chat by themselves."),
    "search": _l("Search"), "search_hint": _l("Product name"),
    "no_products": _l("No products yet. Add the first one below; then push the catalog to Meta so customers can "
                      "order from WhatsApp."),
    "no_match": _l("No product matches."),
    "name": _l("Name"), "retailer_id": _l("Product code (retailer id)"), "price": _l("Price"), "currency": _l("Currency"),
    "description": _l("Description"), "image_url": _l("Picture address (https)"), "url": _l("Product page (optional)"),
    "kind": _l("Kind"), "kinds": {"GOODS": _l("Goods"), "LICENSE": _l("License (keys)")},
    "available": _l("For sale"), "not_available": _l("Not for sale"), "low_stock_at": _l("Warn when keys left are at most"),
    "add": _l("Add the product"), "add_title": _l("Add a product"), "save": _l("Save"), "delete": _l("Delete"),
    "delete_confirm": _l("Delete this product and its keys not given out?"),
    "stock": _l("Keys"), "stock_line": _l("{available} left · {delivered} delivered"), "low": _l("Few keys left"),
    "keys_title": _l("License keys"),
    "keys_intro": _l("One key per line. They are stored sealed and shown to nobody; each key is added once (repeated "
                     "ones are left out). Paid orders waiting for keys get them at once."),
    "keys_field": _l("Keys"), "add_keys": _l("Add the keys"),
    "sync": _l("Push the catalog to Meta"),
    "sync_intro": _l("Customers see and order your products in WhatsApp once they are in the Meta catalog connected to "
                     "your business account."),
    "synced": _l("In Meta's catalog since {date}"), "not_synced": _l("Not in Meta's catalog yet"),
    "sync_refused": _l("Meta refused it: {reason}"),
    "back": _l("All products"), "more": _l("More"),
    "delivery_title": _l("Keys after 24 hours"),
    "delivery_intro": _l("A customer who pays more than 24 hours after their last message can only get a template. "
                         "Choose the approved template that carries their keys."),
    "delivery_template": _l("Template"), "no_template": _l("None: the delivery waits for the customer to write"),
    "no_fitting_templates": _l("No template can carry keys yet: create one whose body has one variable (the keys) or "
                               "two (the product's name, then the keys), and wait for its approval."),
    "einvoicing_title": _l("E-invoicing"),
    "einvoicing_intro": _l("Paid orders are invoiced before DIAN through your provider (Factus). Its API keys are here; "
                           "invoices are made from each paid order."),
    "einvoicing_sandbox": _l("In the sandbox, invoices are made at the built-in Factus double: they have no validity "
                             "before DIAN."),
    "provider_url": _l("Provider's address"), "client_id": _l("Client ID"), "client_secret": _l("Client secret"),
    "username": _l("User (email)"), "password": _l("Password"), "numbering_range": _l("Numbering range ID (optional)"),
    "tax_rate": _l("IVA included in prices"), "kept_secret": _l("Leave empty to keep the one saved (give it again when the address, the client or the user changes)."),
    "not_configured": _l("Not set up yet: paid orders cannot be invoiced."), "configured": _l("Set up"),
    "done": {"created": _l("Product added."), "saved": _l("Product saved."), "deleted": _l("Product deleted."),
             "keys_added": _l("Keys added."), "synced": _l("Catalog pushed to Meta: see each product's state."),
             "einvoicing_saved": _l("E-invoicing account saved."), "delivery_saved": _l("Saved.")},
})
