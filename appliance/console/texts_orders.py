"""What the console's orders page says."""

from appliance.http.pages import Texts

ORDER_TEXTS = Texts(
    "console_orders",
    en={"orders_title": "Orders", "orders_intro": "Carts customers send from your WhatsApp catalog. Move each one "
        "along; tick “tell the customer” to send them a message (only within 24 hours of their last message).",
        "all": "All", "codes": {"PENDING": "Pending", "IN_PROCESS": "In process", "COMPLETED": "Completed", "CANCELLED": "Cancelled"},
        "no_orders": "No orders yet. They appear here when a customer sends a cart from your catalog.",
        "customer": "Customer", "items": "Items", "total": "Total", "received": "Received", "status": "Status",
        "note": "Note for the customer (optional)", "notify": "Tell the customer", "save": "Save",
        "conversation": "Conversation", "their_note": "Their note", "more": "Older orders",
        "reasons": {"window_closed": "not told: more than 24 hours since their last message"},
        "done": {"saved": "Status saved.", "notified": "Status saved and the customer told.",
                 "not_notified": "Status saved; the customer was not told (more than 24 hours since their last message)."}},
    es={"orders_title": "Pedidos", "orders_intro": "Carritos que los clientes envían desde tu catálogo de WhatsApp. Avanza "
        "cada uno; marca «avisar al cliente» para enviarle un mensaje (solo dentro de las 24 horas desde su último mensaje).",
        "all": "Todos", "codes": {"PENDING": "Pendiente", "IN_PROCESS": "En proceso", "COMPLETED": "Completado", "CANCELLED": "Cancelado"},
        "no_orders": "Aún no hay pedidos. Aparecen aquí cuando un cliente envía un carrito desde tu catálogo.",
        "customer": "Cliente", "items": "Productos", "total": "Total", "received": "Recibido", "status": "Estado",
        "note": "Nota para el cliente (opcional)", "notify": "Avisar al cliente", "save": "Guardar",
        "conversation": "Conversación", "their_note": "Su nota", "more": "Pedidos anteriores",
        "reasons": {"window_closed": "sin aviso: más de 24 horas desde su último mensaje"},
        "done": {"saved": "Estado guardado.", "notified": "Estado guardado y cliente avisado.",
                 "not_notified": "Estado guardado; no se avisó al cliente (más de 24 horas desde su último mensaje)."}},
)
