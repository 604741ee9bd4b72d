"""What the console's bot library pages say: the image library and the services catalog."""

from appliance.http.pages import Texts

BOT_LIBRARY_TEXTS = Texts(
    "console_bot_library",
    en={
        "back_to_bot": "Bot", "save": "Save", "delete": "Delete", "add": "Add",
        "images_title": "Images", "images_intro": "Pictures the bot sends: a menu, a price list, a map. A rule "
        "sends one with its reply; the caption is what the customer reads under it (the rule's text wins).",
        "no_images": "No images yet. Add your menu or price list: customers ask for them every day.",
        "new_image": "Add an image", "file": "Image (JPG, PNG or WEBP, up to 5 MB)", "label": "Name (for your team)",
        "caption": "Caption (for the customer)", "uploading": "Uploading…", "size": "Size",
        "force_delete": "Delete even if rules send it (they will reply without it)",
        "services_title": "Services and prices", "services_intro": "What you offer and what it costs. The bot "
        "and its AI agents answer price questions from here; inactive services are kept but never offered.",
        "no_services": "No services yet. Add what customers ask about most.",
        "new_service": "New service", "nombre": "Name", "categoria": "Category", "descripcion": "Description",
        "notas": "Notes (for the bot, not shown as such)", "moneda": "Currency", "url": "Link to buy or book",
        "activo": "Active", "mostrar_precio": "Say the price", "mostrar_sin_stock": "Offer it without stock",
        "orden": "Order (lower first)", "prices": "Prices", "etiqueta": "Label", "monto": "Amount",
        "periodo": "Per", "stock": "Stock (empty: not counted)",
        "periods": {"UNICO": "once", "MENSUAL": "month", "ANUAL": "year", "POR_HORA": "hour"},
        "inactive": "inactive",
        "done": {"image_added": "Image added.", "image_saved": "Image saved.", "image_deleted": "Image deleted.",
                 "service_created": "Service added.", "service_saved": "Service saved.",
                 "service_deleted": "Service deleted."},
        "errors": {},
    },
    es={
        "back_to_bot": "Bot", "save": "Guardar", "delete": "Eliminar", "add": "Añadir",
        "images_title": "Imágenes", "images_intro": "Fotos que envía el bot: un menú, una lista de precios, un mapa. "
        "Una regla envía una con su respuesta; el pie es lo que el cliente lee debajo (gana el texto de la regla).",
        "no_images": "Aún no hay imágenes. Añade tu menú o tu lista de precios: los clientes las piden a diario.",
        "new_image": "Añadir una imagen", "file": "Imagen (JPG, PNG o WEBP, hasta 5 MB)",
        "label": "Nombre (para tu equipo)", "caption": "Pie (para el cliente)", "uploading": "Subiendo…", "size": "Tamaño",
        "force_delete": "Eliminar aunque la envíen reglas (responderán sin ella)",
        "services_title": "Servicios y precios", "services_intro": "Lo que ofreces y lo que cuesta. El bot y sus "
        "agentes de IA responden aquí las preguntas de precios; los servicios inactivos se guardan pero no se ofrecen.",
        "no_services": "Aún no hay servicios. Añade lo que más preguntan los clientes.",
        "new_service": "Nuevo servicio", "nombre": "Nombre", "categoria": "Categoría", "descripcion": "Descripción",
        "notas": "Notas (para el bot, no se muestran tal cual)", "moneda": "Moneda", "url": "Enlace para comprar o reservar",
        "activo": "Activo", "mostrar_precio": "Decir el precio", "mostrar_sin_stock": "Ofrecerlo sin existencias",
        "orden": "Orden (menor primero)", "prices": "Precios", "etiqueta": "Etiqueta", "monto": "Monto",
        "periodo": "Por", "stock": "Existencias (vacío: no se cuentan)",
        "periods": {"UNICO": "única vez", "MENSUAL": "mes", "ANUAL": "año", "POR_HORA": "hora"},
        "inactive": "inactivo",
        "done": {"image_added": "Imagen añadida.", "image_saved": "Imagen guardada.", "image_deleted": "Imagen eliminada.",
                 "service_created": "Servicio añadido.", "service_saved": "Servicio guardado.",
                 "service_deleted": "Servicio eliminado."},
        "errors": {},
    },
)
