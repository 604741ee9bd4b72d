"""What the console's orders page says."""

from appliance.core.i18n import Words, _l, _lp

ORDER_TEXTS = Words("console_orders", {
    "orders_title": _l("Orders"),
    "orders_intro": _l("Carts customers send from your WhatsApp catalog. Move each one along; tick “tell the "
                       "customer” to send them a message (only within 24 hours of their last message)."),
    "all": _l("All"),
    "codes": {
        "PENDING": _l("Pending"), "IN_PROCESS": _l("In process"), "COMPLETED": _l("Completed"),
        "CANCELLED": _lp("console_orders.codes.CANCELLED", "Cancelled"),
    },
    "no_orders": _l("No orders yet. They appear here when a customer sends a cart from your catalog."),
    "customer": _l("Customer"), "items": _l("Items"), "total": _l("Total"), "received": _l("Received"),
    "status": _l("Status"), "note": _l("Note for the customer (optional)"), "notify": _l("Tell the customer"),
    "save": _l("Save"), "conversation": _l("Conversation"), "their_note": _l("Their note"), "more": _l("Older orders"),
    "reasons": {"window_closed": _l("not told: more than 24 hours since their last message")},
    "payment": _l("Payment"), "unpaid": _l("Unpaid"), "paid_via": {
        "LINK": _l("Paid with the payment link"), "TRANSFER": _l("Paid by transfer (confirmed)"),
        "MANUAL": _l("Marked paid")},
    "send_link": _l("Send a payment link"), "link_sent": _l("Payment link"), "mark_paid": _l("Mark paid"),
    "confirm_transfer": _l("Confirm the transfer"), "reference": _l("Reference (optional)"),
    "receipt_sent": _l("The customer sent a receipt: check it in the conversation against your bank before "
                       "confirming."),
    "license_keys": _l("License keys"), "delivered": _l("Delivered"), "deliver_again": _l("Deliver again"),
    "waiting": {"no_keys": _l("Paid, waiting for keys: add keys to the product and they go out at once."),
                "window_closed": _l("Keys kept for the customer, not sent: more than 24 hours since their last "
                                    "message. Deliver again once they write.")},
    "einvoice": _l("E-invoice"), "make_einvoice": _l("Make the e-invoice"),
    "einvoice_states": {"PENDING": _l("Waiting for the provider"), "ISSUED": _l("Issued"), "REJECTED": _l("Rejected")},
    "einvoice_customer": _l("Customer (leave empty for the final consumer)"),
    "document_type": _l("Document"), "identification": _l("Number"), "customer_name": _l("Name"),
    "customer_email": _l("Email (optional)"),
    "document_types": {"CC": _l("Cédula"), "NIT": _l("NIT"), "CE": _l("Cédula de extranjería"),
                       "PASSPORT": _l("Passport"), "TI": _l("Tarjeta de identidad")},
    "einvoice_pdf": _l("PDF"), "einvoice_setup": _l("Set up e-invoicing to invoice paid orders."),
    "done": {
        "saved": _l("Status saved."), "notified": _l("Status saved and the customer told."),
        "not_notified": _l("Status saved; the customer was not told (more than 24 hours since their last message)."),
        "link_sent": _l("Payment link sent to the customer."), "paid": _l("Marked paid."),
        "transfer_confirmed": _l("Transfer confirmed: the order is paid."), "delivered": _l("Delivery tried again."),
        "einvoice": _l("E-invoice asked for: see its state on the order."),
    },
})
