"""What the Go live page (the installation's public address, and what Meta last did) and the
warnings beside links nobody outside can open say."""

from appliance.http.pages import Texts

GO_LIVE_TEXTS = Texts(
    "console_go_live",
    en={
        "go_live_title": "Go live",
        "go_live_intro": "Customers, Meta and your team's phones reach the appliance at its public address: every "
        "link it writes (QR codes, chat links, invitations, calendar feeds, the WhatsApp callback URL) starts with it.",
        "address_title": "Public address", "address_now": "Links start with", "address_field": "Public address",
        "address_hint": "The https address people and Meta reach this appliance at, such as https://chat.yourshop.com "
        "(no path). On an office network only: http://192.168.1.20:8080.",
        "address_save": "Save the address",
        "address_sources": {"setting": "Set by APPLIANCE_BASE_URL when the server started: change it there.",
                            "console": "Kept here.", "default": "Nobody set it: it is where this server is served."},
        "address_fine": "Nothing keeps customers, Meta or browsers from using it.",
        "ways_title": "Three ways to a public https address",
        "ways": [
            ("A proxy already in place", "Your hosting, router or a reverse proxy (Caddy, nginx) already serves "
             "https for a domain and passes it to this server: write that https address above."),
            ("Your own domain, https served here", "Point a domain at this machine's public IP, open ports 80 and 443, "
             "and start the appliance with APPLIANCE_TLS=acme: it gets and renews a certificate itself."),
            ("A tunnel, no ports opened", "With a Cloudflare account, create a tunnel for a domain you hold there and "
             "start the appliance with APPLIANCE_TUNNEL=cloudflare and the tunnel's token."),
        ],
        "https_title": "HTTPS and tunnel", "tls_off": "This server speaks plain HTTP (APPLIANCE_TLS=off): a proxy or "
        "the tunnel in front gives the https address.", "tls_modes": {"acme": "Certificates from Let's Encrypt (ACME)",
        "files": "Certificate files"}, "tls_port": "HTTPS port",
        "tls_serving": "Serving a certificate for {domains}, valid until {date}.",
        "tls_waiting": "No certificate yet: it is being asked for (the HTTP port must be reachable at that name).",
        "tls_old_serves": "The previous certificate keeps serving.",
        "tunnel_title": "Tunnel", "tunnel_off": "No tunnel (APPLIANCE_TUNNEL=off).",
        "tunnel_states": {"starting": "Starting", "running": "Connected", "restarting": "Reconnecting",
                          "missing": "Cannot run", "stopped": "Stopped", "off": "Off"},
        "tunnel_restarts": "restarted {n} times",
        "status_title": "Status", "status_intro": "The installation at a glance; this page reads itself again every 15 seconds.",
        "status_program": "The program", "status_version": "Version", "status_started": "Started",
        "status_uptime": "Running for", "status_queue": "Background work",
        "status_queue_counts": "{waiting} waiting, {failed} failed since the start",
        "status_storage": "Storage", "status_database": "Database", "status_disk": "Disk",
        "status_disk_free": "{free} free of {total}",
        "status_disk_low": "The disk is over 90% full: free space before backups and the database run out of it.",
        "status_backups": "Last backup", "status_backup_failed": "last failed", "status_reach": "How it is reached",
        "meta_title": "What Meta last did", "meta_intro": "Across the organizations of this installation.",
        "meta_verified": "Verified a callback", "meta_delivery": "Last delivery accepted",
        "meta_rejected": "Last delivery refused (bad signature)", "meta_never": "Never",
        "meta_refused": "Verifications refused since the server started (wrong verify token)",
        "done": {"public_address_saved": "The public address is saved: links written from now on start with it."},
        "errors": {"invalid_base_url": "Write an address like https://chat.yourshop.com: a scheme, a host and "
                   "perhaps a port, nothing after it.",
                   "set_by_environment": "APPLIANCE_BASE_URL decides the public address: change it there."},
    },
    es={
        "go_live_title": "Salir en vivo",
        "go_live_intro": "Los clientes, Meta y los teléfonos de tu equipo llegan al equipo por su dirección pública: "
        "todo enlace que escribe (códigos QR, enlaces de chat, invitaciones, calendarios, la URL de devolución de "
        "WhatsApp) empieza con ella.",
        "address_title": "Dirección pública", "address_now": "Los enlaces empiezan con", "address_field": "Dirección pública",
        "address_hint": "La dirección https donde las personas y Meta llegan a este equipo, como "
        "https://chat.tutienda.com (sin ruta). Solo en la red de la oficina: http://192.168.1.20:8080.",
        "address_save": "Guardar la dirección",
        "address_sources": {"setting": "Definida con APPLIANCE_BASE_URL al iniciar el servidor: cámbiala allí.",
                            "console": "Guardada aquí.", "default": "Nadie la definió: es donde se sirve este servidor."},
        "address_fine": "Nada impide que clientes, Meta o navegadores la usen.",
        "ways_title": "Tres caminos a una dirección https pública",
        "ways": [
            ("Un proxy que ya tienes", "Tu hosting, tu router o un proxy inverso (Caddy, nginx) ya sirve https para un "
             "dominio y lo pasa a este servidor: escribe arriba esa dirección https."),
            ("Tu propio dominio, https servido aquí", "Apunta un dominio a la IP pública de este equipo, abre los puertos "
             "80 y 443 e inicia el equipo con APPLIANCE_TLS=acme: obtiene y renueva el certificado solo."),
            ("Un túnel, sin abrir puertos", "Con una cuenta de Cloudflare, crea un túnel para un dominio que tengas allí "
             "e inicia el equipo con APPLIANCE_TUNNEL=cloudflare y el token del túnel."),
        ],
        "https_title": "HTTPS y túnel", "tls_off": "Este servidor habla HTTP simple (APPLIANCE_TLS=off): un proxy o "
        "el túnel delante da la dirección https.", "tls_modes": {"acme": "Certificados de Let's Encrypt (ACME)",
        "files": "Archivos de certificado"}, "tls_port": "Puerto HTTPS",
        "tls_serving": "Sirve un certificado para {domains}, válido hasta el {date}.",
        "tls_waiting": "Aún sin certificado: se está pidiendo (el puerto HTTP debe alcanzarse con ese nombre).",
        "tls_old_serves": "El certificado anterior sigue sirviendo.",
        "tunnel_title": "Túnel", "tunnel_off": "Sin túnel (APPLIANCE_TUNNEL=off).",
        "tunnel_states": {"starting": "Iniciando", "running": "Conectado", "restarting": "Reconectando",
                          "missing": "No puede ejecutarse", "stopped": "Detenido", "off": "Apagado"},
        "tunnel_restarts": "reiniciado {n} veces",
        "status_title": "Estado", "status_intro": "La instalación de un vistazo; esta página se vuelve a leer cada 15 segundos.",
        "status_program": "El programa", "status_version": "Versión", "status_started": "Iniciado",
        "status_uptime": "En marcha desde hace", "status_queue": "Trabajo en segundo plano",
        "status_queue_counts": "{waiting} en espera, {failed} fallidos desde el inicio",
        "status_storage": "Almacenamiento", "status_database": "Base de datos", "status_disk": "Disco",
        "status_disk_free": "{free} libres de {total}",
        "status_disk_low": "El disco está lleno en más del 90%: libera espacio antes de que falte para las copias y la base de datos.",
        "status_backups": "Última copia", "status_backup_failed": "la última falló", "status_reach": "Cómo se llega",
        "meta_title": "Lo último que hizo Meta", "meta_intro": "En todas las organizaciones de esta instalación.",
        "meta_verified": "Verificó una URL de devolución", "meta_delivery": "Última entrega aceptada",
        "meta_rejected": "Última entrega rechazada (firma incorrecta)", "meta_never": "Nunca",
        "meta_refused": "Verificaciones rechazadas desde que inició el servidor (token de verificación incorrecto)",
        "done": {"public_address_saved": "La dirección pública está guardada: los enlaces que se escriban desde ahora "
                 "empiezan con ella."},
        "errors": {"invalid_base_url": "Escribe una dirección como https://chat.tutienda.com: un esquema, un host y "
                   "quizá un puerto, nada después.",
                   "set_by_environment": "APPLIANCE_BASE_URL decide la dirección pública: cámbiala allí."},
    },
)
