"""What the console's chat-link pages say."""

from appliance.http.pages import Texts

LINK_TEXTS = Texts(
    "console_links",
    en={
        "links_title": "Chat links", "links_intro": "Short addresses and QR codes that open a WhatsApp chat with your "
        "number, with a message already written. Put them on posters, ads, your website or Instagram, and see who clicks.",
        "no_links": "No links yet. Make one below: pick a number, give it a name and the message customers will send.",
        "no_archived": "No archived links.", "show_archived": "Archived links", "show_active": "Active links",
        "new_link": "New link", "number": "Number", "name": "Name", "name_hint": "For you (\u201cPoster, downtown store\u201d).",
        "campaign_tag": "Campaign tag", "prefilled_message": "Message the customer sends",
        "prefilled_hint": "Already written in their WhatsApp; they only press send.", "create": "Make link",
        "clicks": "Clicks", "unique_clicks": "People", "conversations": "Conversations started",
        "conversations_hint": "New conversations in the last 7 days whose first message is this link's message.",
        "copy_link": "Copy", "copied_link": "Copied", "download_png": "Download QR (PNG, for print)", "qr_alt": "QR code of {url}",
        "per_day": "Clicks per day (last 30 days)", "referrers": "Where clicks came from", "direct": "(direct or an app)",
        "no_clicks": "No clicks yet. Share the address or print the QR code.", "settings": "Settings", "save": "Save",
        "archive": "Archive (the address stops working)", "restore": "Bring back", "archived": "Archived",
        "previews_note": "Link previews (WhatsApp, Facebook, Telegram...) and search engines are not counted as clicks.",
        "back": "All links",
        "done": {"created": "Link made. Share its address or QR code.", "saved": "Saved.",
                 "archived": "Archived: its address now answers \u201cnot found\u201d.", "restored": "The link works again."},
    },
    es={
        "links_title": "Enlaces de chat", "links_intro": "Direcciones cortas y códigos QR que abren un chat de WhatsApp con tu "
        "número, con un mensaje ya escrito. Ponlos en afiches, anuncios, tu web o Instagram, y mira quién hace clic.",
        "no_links": "Aún no hay enlaces. Crea uno abajo: elige un número, ponle un nombre y el mensaje que enviarán los clientes.",
        "no_archived": "No hay enlaces archivados.", "show_archived": "Enlaces archivados", "show_active": "Enlaces activos",
        "new_link": "Nuevo enlace", "number": "Número", "name": "Nombre", "name_hint": "Para ti («Afiche, tienda del centro»).",
        "campaign_tag": "Etiqueta de campaña", "prefilled_message": "Mensaje que envía el cliente",
        "prefilled_hint": "Ya escrito en su WhatsApp; solo pulsa enviar.", "create": "Crear enlace",
        "clicks": "Clics", "unique_clicks": "Personas", "conversations": "Conversaciones iniciadas",
        "conversations_hint": "Conversaciones nuevas de los últimos 7 días cuyo primer mensaje es el de este enlace.",
        "copy_link": "Copiar", "copied_link": "Copiado", "download_png": "Descargar QR (PNG, para imprimir)", "qr_alt": "Código QR de {url}",
        "per_day": "Clics por día (últimos 30 días)", "referrers": "De dónde vinieron los clics", "direct": "(directo o una app)",
        "no_clicks": "Aún no hay clics. Comparte la dirección o imprime el código QR.", "settings": "Ajustes", "save": "Guardar",
        "archive": "Archivar (la dirección deja de funcionar)", "restore": "Reactivar", "archived": "Archivado",
        "previews_note": "Las vistas previas (WhatsApp, Facebook, Telegram...) y los buscadores no cuentan como clics.",
        "back": "Todos los enlaces",
        "done": {"created": "Enlace creado. Comparte su dirección o su código QR.", "saved": "Guardado.",
                 "archived": "Archivado: su dirección ahora responde «no existe».", "restored": "El enlace vuelve a funcionar."},
    },
)
