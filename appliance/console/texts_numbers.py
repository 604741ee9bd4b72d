"""What a WhatsApp number's page says (read over console/texts.py's)."""

from appliance.http.pages import Texts

NUMBER_TEXTS = Texts(
    "console_numbers",
    en={
        "back_to_whatsapp": "WhatsApp", "number_state": "On the network", "coexistence": "Shared with the "
        "WhatsApp Business app", "coexistence_sync": "Bring the Business app's contacts",
        "coexistence_sync_note": "They arrive over the next minutes and become contacts.",
        "coexistence_requested": "Requested on {date}.",
        "profile_title": "Business profile", "profile_intro": "What customers see when they open your business "
        "in WhatsApp. It is stored by WhatsApp, not here.", "profile_unreachable": "The WhatsApp network did not "
        "give this number's profile, so it cannot be edited now:", "about": "About",
        "about_hint": "A line under the name, up to 139 characters.", "description": "Description",
        "address": "Address", "profile_email": "Email", "vertical": "Industry", "websites": "Websites",
        "websites_hint": "Up to two, starting with https://.", "website_n": "Website {n}",
        "save_profile": "Save profile", "picture": "Profile picture", "no_picture": "No picture yet.",
        "picture_hint": "JPG or PNG, square, at least 192×192 pixels, at most {megabytes} MB.",
        "choose_picture": "Picture", "upload_picture": "Upload picture", "uploading": "Uploading…",
        "manage": "Profile",
        "verticals": {"AUTOMOTIVE": "Automotive", "BEAUTY": "Beauty, spa and salon", "APPAREL": "Clothing",
                      "EDU": "Education", "ENTERTAIN": "Entertainment", "EVENT_PLAN": "Event planning",
                      "FINANCE": "Finance and banking", "GROCERY": "Food and grocery", "GOVT": "Public service",
                      "HOTEL": "Hotel and lodging", "HEALTH": "Medical and health", "NONPROFIT": "Non-profit",
                      "PROF_SERVICES": "Professional services", "RETAIL": "Shopping and retail",
                      "TRAVEL": "Travel and transportation", "RESTAURANT": "Restaurant", "OTHER": "Other"},
        "done": {"profile_saved": "Profile saved on WhatsApp.", "picture_saved": "Picture saved on WhatsApp.",
                 "coexistence_sync_requested": "Asked WhatsApp for the Business app's contacts."},
        "errors": {"unsupported_picture_type": "The picture must be a JPG or PNG image.",
                   "picture_too_large": "The picture is larger than 5 MB."},
    },
    es={
        "back_to_whatsapp": "WhatsApp", "number_state": "En la red", "coexistence": "Compartido con la app "
        "WhatsApp Business", "coexistence_sync": "Traer los contactos de la app Business",
        "coexistence_sync_note": "Llegan en los próximos minutos y se vuelven contactos.",
        "coexistence_requested": "Pedido el {date}.",
        "profile_title": "Perfil del negocio", "profile_intro": "Lo que ven los clientes al abrir tu negocio en "
        "WhatsApp. Lo guarda WhatsApp, no este equipo.", "profile_unreachable": "La red de WhatsApp no dio el "
        "perfil de este número, así que ahora no se puede editar:", "about": "Info",
        "about_hint": "Una línea bajo el nombre, hasta 139 caracteres.", "description": "Descripción",
        "address": "Dirección", "profile_email": "Correo", "vertical": "Sector", "websites": "Sitios web",
        "websites_hint": "Hasta dos, que empiecen por https://.", "website_n": "Sitio web {n}",
        "save_profile": "Guardar perfil", "picture": "Foto de perfil", "no_picture": "Aún no hay foto.",
        "picture_hint": "JPG o PNG, cuadrada, de al menos 192×192 píxeles, hasta {megabytes} MB.",
        "choose_picture": "Foto", "upload_picture": "Subir foto", "uploading": "Subiendo…",
        "manage": "Perfil",
        "verticals": {"AUTOMOTIVE": "Automotriz", "BEAUTY": "Belleza, spa y salón", "APPAREL": "Ropa",
                      "EDU": "Educación", "ENTERTAIN": "Entretenimiento", "EVENT_PLAN": "Organización de eventos",
                      "FINANCE": "Finanzas y banca", "GROCERY": "Alimentos y supermercado", "GOVT": "Servicio público",
                      "HOTEL": "Hotel y alojamiento", "HEALTH": "Salud", "NONPROFIT": "Sin fines de lucro",
                      "PROF_SERVICES": "Servicios profesionales", "RETAIL": "Compras y comercio",
                      "TRAVEL": "Viajes y transporte", "RESTAURANT": "Restaurante", "OTHER": "Otro"},
        "done": {"profile_saved": "Perfil guardado en WhatsApp.", "picture_saved": "Foto guardada en WhatsApp.",
                 "coexistence_sync_requested": "Se pidieron a WhatsApp los contactos de la app Business."},
        "errors": {"unsupported_picture_type": "La foto debe ser una imagen JPG o PNG.",
                   "picture_too_large": "La foto pesa más de 5 MB."},
    },
)
