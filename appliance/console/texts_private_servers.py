"""What the installation's page of allowed private servers says."""

from appliance.http.pages import Texts

PRIVATE_SERVER_TEXTS = Texts(
    "console_private_servers",
    en={
        "servers_title": "Private servers",
        "servers_intro": "Organizations' AI providers, webhooks, knowledge pages and push services may reach only "
        "public addresses. A server on this machine or on your office network (an Ollama, an intranet, a CRM) "
        "works once it is listed here, for every organization of the installation: only its administrator "
        "lists them.",
        "servers_from_environment": "Set by APPLIANCE_ALLOWED_PRIVATE_URLS when the server started. Change it there.",
        "servers_none": "None: only public servers are reached.",
        "servers_field": "Allowed private servers",
        "servers_hint": "One a line, as scheme://host or scheme://host:port: http://127.0.0.1:11434 for an Ollama "
        "on this machine, http://192.168.1.50 for every port of that host (name the port when you can).",
        "servers_save": "Save",
        "done": {"private_servers_saved": "The private servers are saved; they count from the next call."},
        "errors": {"invalid_origin": "Write one server a line as scheme://host or scheme://host:port.",
                   "set_by_environment": "APPLIANCE_ALLOWED_PRIVATE_URLS decides the private servers: change it there."},
    },
    es={
        "servers_title": "Servidores privados",
        "servers_intro": "Los proveedores de IA, webhooks, páginas de conocimiento y servicios push de las "
        "organizaciones solo alcanzan direcciones públicas. Un servidor en este equipo o en la red de tu oficina "
        "(un Ollama, una intranet, un CRM) funciona cuando está en esta lista, para todas las organizaciones de la "
        "instalación: solo su administrador la cambia.",
        "servers_from_environment": "Definidos con APPLIANCE_ALLOWED_PRIVATE_URLS al iniciar el servidor. Cámbialos allí.",
        "servers_none": "Ninguno: solo se alcanzan servidores públicos.",
        "servers_field": "Servidores privados permitidos",
        "servers_hint": "Uno por línea, como esquema://host o esquema://host:puerto: http://127.0.0.1:11434 para un "
        "Ollama en este equipo, http://192.168.1.50 para todos los puertos de ese host (indica el puerto cuando puedas).",
        "servers_save": "Guardar",
        "done": {"private_servers_saved": "Los servidores privados están guardados; cuentan desde la próxima llamada."},
        "errors": {"invalid_origin": "Escribe un servidor por línea como esquema://host o esquema://host:puerto.",
                   "set_by_environment": "APPLIANCE_ALLOWED_PRIVATE_URLS decide los servidores privados: cámbialo allí."},
    },
)
