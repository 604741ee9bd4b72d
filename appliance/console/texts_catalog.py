"""What the console's templates and contacts pages say (read over console/texts.py's)."""

from appliance.http.pages import Texts

CATALOG = Texts(
    "console_catalog",
    en={
        # templates
        "templates_title": "Templates", "templates_intro": "Messages approved by WhatsApp, for writing first "
        "or after 24 hours without an answer. New ones are reviewed by the network, usually within minutes.",
        "all": "All", "status_names": {"APPROVED": "Approved", "PENDING": "In review", "REJECTED": "Rejected",
                                       "PAUSED": "Paused"},
        "sync": "Sync with WhatsApp", "new_template": "New template", "template_name": "Name",
        "template_language": "Language", "category": "Category", "template_status": "Status",
        "no_templates": "No templates here yet. Create one, or sync to bring those made in Meta's manager.",
        "no_templates_filtered": "No templates with this status.", "more": "More",
        "new_template_title": "New template", "business_account": "Business account",
        "name_hint": "Lower-case letters, digits and _, for example order_ready.",
        "language_hint": "For example es, en_US, pt_BR.", "header": "Header (optional)",
        "header_example": "Example for the header's placeholder", "body": "Message",
        "body_hint": "Up to 1,024 characters. Write {{1}}, {{2}}… (or {{name}}) where each message fills a value.",
        "body_examples": "Example values", "body_examples_hint": "One per line, in the order of the placeholders. "
        "WhatsApp's reviewers read them.", "footer": "Footer (optional)", "buttons": "Buttons (optional)",
        "quick_replies": "Quick replies", "url_button": "Link button", "url_button_text": "Button text",
        "url_button_url": "Address (https://)", "preview": "Preview", "send_for_review": "Send for review",
        "no_accounts_for_templates": "Connect a WhatsApp business account first: templates belong to one.",
        "connect_whatsapp": "Connect WhatsApp", "rejected_reason": "Why it was rejected",
        "synced_at": "Synced", "components": "As the network stores it", "back_to_templates": "All templates",
        "categories": {"MARKETING": "Marketing", "UTILITY": "Utility", "AUTHENTICATION": "Authentication"},
        "synced": "Synced {templates} templates: {added} new, {changed} changed, {removed} removed.",
        # contacts
        "contacts_title": "Contacts", "lists_title": "Lists", "search": "Search", "search_hint": "Name or number",
        "all_lists": "Every contact", "contact_name": "Name", "wa_id": "WhatsApp number",
        "wa_id_hint": "With country code, for example +57 300 123 4567.", "profile_name": "WhatsApp profile",
        "added_on": "Added", "opted_out": "opted out", "bot_excluded": "no automation",
        "no_contacts": "No contacts yet. They appear when customers write to you; you can also import a CSV "
        "into a list or add one below.", "no_contacts_found": "No contact matches.", "add_contact": "Add a contact",
        "add": "Add", "contact_title": "Contact", "automation": "Automation",
        "bot_excluded_label": "Never answered by automation (rules, AI agents)", "attributes": "Attributes",
        "attributes_hint": "Your own fields: a customer number, a city… Templates and broadcasts can use them.",
        "attribute_name": "Field", "attribute_value": "Value", "marketing": "Marketing messages",
        "opted_out_since": "Opted out of marketing on {date}. Broadcasts skip this contact.",
        "opted_in": "Receives marketing messages (has not opted out).", "member_of": "Lists",
        "not_in_lists": "Not in any list.", "add_to_list": "Add to list", "leave": "Remove",
        "delete_contact": "Delete contact", "confirm_delete_contact": "Delete this contact with all its "
        "conversations and messages? This cannot be undone.", "back_to_contacts": "All contacts",
        "no_lists": "No lists yet. A list is an audience for broadcasts; create one and import a CSV into it.",
        "new_list": "New list", "list_name": "Name", "list_description": "Description (optional)",
        "members": "Contacts", "import_csv": "Import CSV", "see_contacts": "See contacts", "delete": "Delete",
        "confirm_delete_list": "Delete this list? Its contacts stay.",
        "import_title": "Import contacts into “{name}”", "import_intro": "A CSV from a spreadsheet: a column with "
        "the phone number (phone, telefono, whatsapp…), optionally a name column; other columns become "
        "attributes. At most {rows} rows and {megabytes} MB.", "file": "CSV file", "update_existing":
        "Known numbers take the file's name and columns", "read_file": "Read the file",
        "uploading": "Uploading…", "importing": "Importing…",
        "preview_title": "What the file holds", "preview_counts": "{rows} rows: {new} new contacts, {known} "
        "already known, {rejected} rejected.", "columns": "Columns that become attributes", "first_rows": "First rows",
        "line": "Line", "rejected_rows": "Rejected rows", "reason": "Reason",
        "rejections_more": "Only the first 100 are listed.", "confirm_import": "Import {count} contacts",
        "choose_other": "Choose another file", "nothing_to_import": "No row can be imported.",
        "import_done_title": "Import finished", "import_done": "{rows} rows read: {created} new contacts, {updated} "
        "updated, {added} joined the list ({already} were already in it), {rejected} rejected.",
        "done": {"synced": "Templates synced.", "synced_with_errors": "Templates synced, but the network refused "
                 "some business accounts; check their tokens on the WhatsApp page.",
                 "template_created": "Sent for review. WhatsApp answers within minutes to hours; the status "
                 "changes here by itself.", "contact_created": "Contact added.", "contact_deleted": "Contact deleted.",
                 "list_joined": "Added to the list.", "list_left": "Removed from the list.",
                 "list_created": "List created. Now import a CSV into it.", "list_deleted": "List deleted."},
        "errors": {"template_exists": "This account already has a template with this name and language.",
                   "contact_exists": "A contact with this number already exists.",
                   "contact_list_name_taken": "A list with this name already exists.",
                   "import_preview_expired": "This preview has expired; upload the file again."},
    },
    es={
        "templates_title": "Plantillas", "templates_intro": "Mensajes aprobados por WhatsApp, para escribir primero "
        "o tras 24 horas sin respuesta. Las nuevas las revisa la red, normalmente en minutos.",
        "all": "Todas", "status_names": {"APPROVED": "Aprobada", "PENDING": "En revisión", "REJECTED": "Rechazada",
                                         "PAUSED": "En pausa"},
        "sync": "Sincronizar con WhatsApp", "new_template": "Plantilla nueva", "template_name": "Nombre",
        "template_language": "Idioma", "category": "Categoría", "template_status": "Estado",
        "no_templates": "Aún no hay plantillas. Crea una, o sincroniza para traer las creadas en el administrador "
        "de Meta.", "no_templates_filtered": "No hay plantillas con este estado.", "more": "Más",
        "new_template_title": "Plantilla nueva", "business_account": "Cuenta de negocio",
        "name_hint": "Minúsculas, dígitos y _, por ejemplo pedido_listo.",
        "language_hint": "Por ejemplo es, en_US, pt_BR.", "header": "Encabezado (opcional)",
        "header_example": "Ejemplo para la variable del encabezado", "body": "Mensaje",
        "body_hint": "Hasta 1.024 caracteres. Escribe {{1}}, {{2}}… (o {{nombre}}) donde cada mensaje pone un valor.",
        "body_examples": "Valores de ejemplo", "body_examples_hint": "Uno por línea, en el orden de las variables. "
        "Los revisores de WhatsApp los leen.", "footer": "Pie (opcional)", "buttons": "Botones (opcional)",
        "quick_replies": "Respuestas rápidas", "url_button": "Botón con enlace", "url_button_text": "Texto del botón",
        "url_button_url": "Dirección (https://)", "preview": "Vista previa", "send_for_review": "Enviar a revisión",
        "no_accounts_for_templates": "Conecta primero una cuenta de WhatsApp Business: las plantillas pertenecen a "
        "una.", "connect_whatsapp": "Conectar WhatsApp", "rejected_reason": "Por qué se rechazó",
        "synced_at": "Sincronizada", "components": "Como la guarda la red", "back_to_templates": "Todas las plantillas",
        "categories": {"MARKETING": "Marketing", "UTILITY": "Servicio", "AUTHENTICATION": "Autenticación"},
        "synced": "Sincronizadas {templates} plantillas: {added} nuevas, {changed} cambiadas, {removed} eliminadas.",
        "contacts_title": "Contactos", "lists_title": "Listas", "search": "Buscar", "search_hint": "Nombre o número",
        "all_lists": "Todos los contactos", "contact_name": "Nombre", "wa_id": "Número de WhatsApp",
        "wa_id_hint": "Con código de país, por ejemplo +57 300 123 4567.", "profile_name": "Perfil de WhatsApp",
        "added_on": "Añadido", "opted_out": "dado de baja", "bot_excluded": "sin automatización",
        "no_contacts": "Aún no hay contactos. Aparecen cuando los clientes te escriben; también puedes importar un "
        "CSV en una lista o añadir uno abajo.", "no_contacts_found": "Ningún contacto coincide.",
        "add_contact": "Añadir un contacto", "add": "Añadir", "contact_title": "Contacto", "automation": "Automatización",
        "bot_excluded_label": "Nunca lo responde la automatización (reglas, agentes de IA)", "attributes": "Atributos",
        "attributes_hint": "Tus propios campos: un número de cliente, una ciudad… Las plantillas y difusiones "
        "pueden usarlos.", "attribute_name": "Campo", "attribute_value": "Valor", "marketing": "Mensajes de marketing",
        "opted_out_since": "Se dio de baja del marketing el {date}. Las difusiones omiten este contacto.",
        "opted_in": "Recibe mensajes de marketing (no se ha dado de baja).", "member_of": "Listas",
        "not_in_lists": "No está en ninguna lista.", "add_to_list": "Añadir a la lista", "leave": "Quitar",
        "delete_contact": "Eliminar contacto", "confirm_delete_contact": "¿Eliminar este contacto con todas sus "
        "conversaciones y mensajes? No se puede deshacer.", "back_to_contacts": "Todos los contactos",
        "no_lists": "Aún no hay listas. Una lista es una audiencia para difusiones; crea una e importa un CSV.",
        "new_list": "Lista nueva", "list_name": "Nombre", "list_description": "Descripción (opcional)",
        "members": "Contactos", "import_csv": "Importar CSV", "see_contacts": "Ver contactos", "delete": "Eliminar",
        "confirm_delete_list": "¿Eliminar esta lista? Sus contactos se quedan.",
        "import_title": "Importar contactos en «{name}»", "import_intro": "Un CSV de una hoja de cálculo: una columna "
        "con el teléfono (telefono, celular, whatsapp…), opcionalmente una de nombre; las demás columnas son "
        "atributos. Máximo {rows} filas y {megabytes} MB.", "file": "Archivo CSV",
        "update_existing": "Los números conocidos toman el nombre y las columnas del archivo",
        "read_file": "Leer el archivo", "uploading": "Subiendo…", "importing": "Importando…",
        "preview_title": "Lo que contiene el archivo", "preview_counts": "{rows} filas: {new} contactos nuevos, "
        "{known} ya conocidos, {rejected} rechazadas.", "columns": "Columnas que serán atributos",
        "first_rows": "Primeras filas", "line": "Línea", "rejected_rows": "Filas rechazadas", "reason": "Motivo",
        "rejections_more": "Solo se listan las 100 primeras.", "confirm_import": "Importar {count} contactos",
        "choose_other": "Elegir otro archivo", "nothing_to_import": "Ninguna fila se puede importar.",
        "import_done_title": "Importación terminada", "import_done": "{rows} filas leídas: {created} contactos "
        "nuevos, {updated} actualizados, {added} entraron en la lista ({already} ya estaban), {rejected} rechazadas.",
        "done": {"synced": "Plantillas sincronizadas.", "synced_with_errors": "Plantillas sincronizadas, pero la red "
                 "rechazó algunas cuentas de negocio; revisa sus tokens en la página de WhatsApp.",
                 "template_created": "Enviada a revisión. WhatsApp responde en minutos u horas; el estado cambia "
                 "aquí solo.", "contact_created": "Contacto añadido.", "contact_deleted": "Contacto eliminado.",
                 "list_joined": "Añadido a la lista.", "list_left": "Quitado de la lista.",
                 "list_created": "Lista creada. Ahora importa un CSV en ella.", "list_deleted": "Lista eliminada."},
        "errors": {"template_exists": "Esta cuenta ya tiene una plantilla con este nombre e idioma.",
                   "contact_exists": "Ya existe un contacto con este número.",
                   "contact_list_name_taken": "Ya existe una lista con este nombre.",
                   "import_preview_expired": "Esta vista previa caducó; sube el archivo otra vez."},
    },
)
