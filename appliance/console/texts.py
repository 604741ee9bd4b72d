"""What the console says, in every language (appliance/http/pages.py: Texts)."""

from appliance.http.pages import Texts

_WEEKDAYS_EN = {"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday",
                "sat": "Saturday", "sun": "Sunday"}
_WEEKDAYS_ES = {"mon": "Lunes", "tue": "Martes", "wed": "Miércoles", "thu": "Jueves", "fri": "Viernes",
                "sat": "Sábado", "sun": "Domingo"}

TEXTS = Texts(
    "console",
    en={
        # navigation
        "nav_inbox": "Inbox", "nav_organization": "Organization", "nav_team": "Team", "nav_api_keys": "API keys",
        "nav_whatsapp": "WhatsApp", "nav_templates": "Templates",
        "nav_contacts": "Contacts", "nav_broadcasts": "Campaigns", "nav_webhooks": "Webhooks", "nav_notifications": "Notifications", "notifications_hint": "Choose what you are told on your browsers and phones.", "nav_bot": "Bot", "nav_links": "Links", "nav_orders": "Orders", "nav_surveys": "Surveys", "nav_agenda": "Agenda", "nav_attendance": "Attendance", "nav_tasks": "Tasks", "nav_quick_replies": "Quick replies", "nav_account": "My account", "console": "Console", "menu": "Menu",
        # first run, sign-up, password reset, new organization
        "setup_title": "Set up your appliance", "setup_intro": "Two minutes: you, your business, then WhatsApp. "
        "You become the owner; you can invite your team afterwards.",
        "you": "You, the owner", "name": "Your name", "email": "Email", "password": "Password",
        "password_hint": "At least 8 characters.", "business": "Your business", "org_name": "Business name",
        "country": "Country", "country_hint": "Its main time zone is used unless you choose another below.",
        "currency": "Currency", "currency_hint": "What your prices and orders are in.",
        "country_none": "Choose a country…", "currency_none": "Choose a currency…",
        "code_unknown": "{code} (not a code in use: choose one)",
        "timezone": "Time zone", "timezone_hint": "Business hours, reports and reminders use it.",
        "hours": "Business hours", "hours_hint": "When people answer. Outside these hours the automation can "
        "say so.", "open": "Open", "from": "From", "to": "To", "setup_button": "Create my business",
        "signup_title": "Create your account", "signup_button": "Create account",
        "have_account": "Already have an account?", "sign_in": "Sign in",
        "forgot_title": "Reset your password", "forgot_intro": "We will mail a link to choose a new password.",
        "forgot_button": "Send me a link", "forgot_sent": "If an account uses this address, a link is on its "
        "way. It works for one hour.", "back_to_sign_in": "Back to sign in",
        "new_org_title": "Create an organization", "new_org_first": "You are not in any organization yet. "
        "Create your business, or ask a colleague for an invitation.",
        "quota": "You can create {remaining} more.", "create": "Create",
        # account
        "account_title": "My account", "profile": "Profile", "language": "Language", "save": "Save",
        "change_password": "Password", "current_password": "Current password", "new_password": "New password",
        "password_note": "Your other sessions are closed when the password changes.",
        "two_factor": "Two-step sign-in", "two_factor_off": "Off. A code from an authenticator app protects "
        "the account even if the password leaks.", "two_factor_on": "On. You sign in with a code from your app.",
        "set_up": "Set up", "scan": "Scan this code with an authenticator app (or type the key), then enter "
        "the 6-digit code it shows.", "key": "Key", "code": "Code", "turn_on": "Turn on", "turn_off": "Turn off",
        "code_or_recovery": "Code or recovery code", "new_recovery_codes": "New recovery codes",
        "recovery_title": "Your recovery codes", "recovery_note": "Each works once if you lose your phone. "
        "Keep them somewhere safe: they are not shown again.", "copy": "Copy", "copied": "Copied",
        "sessions": "Sessions", "sessions_intro": "Browsers and apps signed in to your account.",
        "device": "Device", "ip": "Address", "last_used": "Last used", "this_one": "this one", "close": "Close",
        "close_others": "Close all others", "mails_title": "Mail waiting for you",
        "mails_intro": "No mail server is set yet, so the appliance keeps its mails here instead of sending them.",
        "done": {"profile": "Profile saved.", "password": "Password changed; your other sessions were closed.",
                 "session_closed": "Session closed.", "sessions_closed": "Every other session was closed.",
                 "2fa_off": "Two-step sign-in is off.", "saved": "Saved.", "invited": "Invitation sent.",
                 "resent": "Invitation sent again with a new link.",
                 "invited_kept": "Invitation created. Mail is not set up, so it was not sent: copy its link and "
                 "give it to them.",
                 "resent_kept": "A new link was made (the old one no longer works). Mail is not set up, so it was "
                 "not sent: copy it and give it to them.", "revoked": "Revoked.",
                 "member_role": "Role changed.", "member_scope": "Business accounts changed.",
                 "member_suspend": "Member suspended.", "member_unsuspend": "Member can work again.",
                 "member_remove": "Member removed.", "role_created": "Role created.", "role_deleted": "Role deleted.",
                 "connected": "Business account connected.", "disconnected": "Business account disconnected.",
                 "resubscribed": "Webhooks subscribed again.", "token_rotated": "New verify token made: paste it into Meta.",
                 "test_sent": "Test message sent: it should reach your phone within seconds.",
                 "mail_server_saved": "The test mail was delivered; the mail server is saved.",
                 "sandbox_connected": "Your sandbox number is ready: open the inbox and play a customer."},
        "mail_title": "Mail server", "nav_mail": "Mail", "nav_private_servers": "Private servers", "nav_go_live": "Go live", "nav_status": "Status", "nav_backups": "Backups",
        # beside a link nobody outside can open (console/_address.html)
        "address_warning_title": "Customers cannot open {what} yet",
        "address_problems": {
            "loopback": "Links start with {address}, an address only this computer opens: customers, Meta and your "
            "team's phones cannot.",
            "private_address": "Links start with {address}, which only devices on this network reach: customers and "
            "Meta cannot.",
            "not_https": "{address} is not https: Meta sends WhatsApp messages only to https addresses, and browsers "
            "keep notifications and passkeys to secure ones."},
        "address_fix_admin": "Set the public address on the Go live page.",
        "address_fix_other": "Ask the installation's administrator to set its public address (the Go live page).",
        "mail_intro": "The appliance mails invitations, password resets and notices through this server (SMTP). "
        "It belongs to the whole installation: only its administrator sets it.",
        "mail_not_set": "Not set yet: mail is kept here instead of sent, and each person finds their links on My "
        "account; inviters find invitation links on the team page.",
        "mail_set": "Mail goes through {host} (test mail delivered {date}).",
        "mail_from_environment": "Mail goes through {host}, set by APPLIANCE_SMTP_URL when the server started. "
        "Change it there.", "mail_server": "Server", "mail_host": "Host", "mail_port": "Port",
        "mail_security": "Connection", "mail_security_names": {"starttls": "STARTTLS (usually port 587)",
                                                               "ssl": "TLS from the start (usually port 465)",
                                                               "none": "Unencrypted (only on a trusted network)"},
        "mail_username": "User name (optional)", "mail_password": "Password (optional)",
        "mail_password_kept": "unchanged if left empty", "mail_sender": "Sender address",
        "mail_sender_hint": "What people see in From; the server must allow it.",
        "mail_test_note": "Saving sends a test mail to you first; nothing is saved unless it is delivered.",
        "mail_save": "Send a test mail and save", "mail_testing": "Sending a test mail…",
        "invitation_link": "Mail is not set up: give this link to them",
        # organization
        "organization_title": "Organization", "billing_email": "Billing email", "plan": "Plan",
        "billing_group": "Billing group", "billing_parent": "Billed with its parent organization.",
        "billing_own": "Billed on its own.", "opt_out": "Opt-out", "opt_out_enabled": "Customers can stop "
        "marketing messages by writing a keyword", "keywords": "Keywords", "keywords_hint": "Separated by commas.",
        "suspended_title": "This organization is suspended", "suspended_note": "Its data is kept; most actions are "
        "refused until it is lifted.", "read_only": "You can see these settings; changing them needs the "
        "organization:write permission.",
        # team
        "team_title": "Team", "members": "Members", "member": "Member", "role": "Role", "scope": "Business accounts",
        "all_accounts": "All", "status": "Status", "active": "Active", "suspended": "Suspended", "you_tag": "you",
        "change": "Change", "suspend": "Suspend", "unsuspend": "Let work", "remove": "Remove",
        "confirm_remove": "Remove this member from the organization?", "invitations": "Invitations",
        "invite": "Invite someone", "send_invitation": "Send invitation", "expires": "Expires", "resend": "Send again",
        "revoke": "Revoke", "confirm_revoke": "Revoke this invitation? The link stops working.",
        "no_invitations": "No invitation waiting. Invite a colleague with their email and a role.",
        "roles": "Roles", "system_role": "built-in", "permissions": "Permissions", "new_role": "New role",
        "role_names": {"owner": "Owner", "admin": "Admin", "supervisor": "Supervisor", "agent": "Agent"},
        "role_descriptions": {"owner": "Everything, including billing and ownership.",
                              "admin": "Everything except billing changes.",
                              "supervisor": "Runs the team: sees everything, works conversations, manages attendance.",
                              "agent": "Works conversations and contacts."},
        "role_name": "Name", "role_description": "Description", "create_role": "Create role", "delete": "Delete",
        "confirm_delete_role": "Delete this role?",
        # API keys
        "api_keys_title": "API keys", "api_keys_intro": "Keys let your local systems (a shop, an ERP) use the "
        "REST API. Give each system its own key with only what it needs.", "key_name": "Name",
        "scopes": "Scopes", "scopes_hint": "None checked: full access to the organization's permissions.",
        "numbers": "Phone numbers", "numbers_hint": "None checked: every number.", "create_key": "Create key",
        "created_title": "Your new key", "created_note": "Copy it now: it is shown only this once.",
        "prefix": "Prefix", "used": "Last used", "never": "never", "no_keys": "No keys yet. Create one for each "
        "system that talks to the appliance.", "confirm_revoke_key": "Revoke this key? Systems using it stop "
        "working at once.", "full_access": "full access", "all_numbers": "all numbers",
        "docs_link": "API documentation",
        # WhatsApp
        "whatsapp_title": "WhatsApp", "welcome_title": "Your business is ready. Now, WhatsApp",
        "welcome_connect": "Connect WhatsApp", "welcome_connect_note": "Use your Meta business account and a "
        "system-user token. Customers write to your real number.", "welcome_sandbox": "Try the sandbox",
        "welcome_sandbox_note": "A simulated network with a test number: play the customer and answer in the "
        "inbox. No real messages are sent.", "sandbox_ready": "Your sandbox number is ready.",
        "sandbox_preparing": "Preparing your sandbox number…",
        "sandbox_open": "Open the inbox and simulate a customer",
        "accounts": "Business accounts", "no_accounts": "No business account connected yet. Connect one below: "
        "its numbers appear here with their quality and throughput.", "number": "Number",
        "verified_name": "Display name", "quality": "Quality", "throughput": "Messages per second",
        "quality_names": {"GREEN": "High", "YELLOW": "Medium", "RED": "Low"},
        "connected_on": "Connected", "needs_reauth": "Needs a new token", "disconnect": "Disconnect",
        "confirm_disconnect": "Disconnect this business account? Its numbers stop sending and receiving.",
        "resubscribe": "Subscribe webhooks again", "connect_title": "Connect a business account",
        "step_webhook": "1. In Meta's app dashboard, WhatsApp → Configuration, set the callback URL and verify token:",
        "webhook_url": "Callback URL", "verify_token": "Verify token",
        "step_verified": "Meta verified it", "step_waiting_verification": "Waiting for Meta to verify it: press "
        "“Verify and save” in Meta's dashboard. This page notices by itself.",
        "rotate_token": "New verify token", "confirm_rotate": "Make a new verify token? Meta must be given the new "
        "one before it verifies again; deliveries go on.",
        "step_delivery": "3. Meta's deliveries", "delivery_last": "Last message delivered", "delivery_none":
        "None yet: once connected, write to your number from your own phone.", "delivery_rejected":
        "A delivery was refused (its signature did not match the app secret)",
        "the_callback_url": "the callback URL",
        "step_test": "4. Send yourself a test message (Meta's hello_world template): it proves the number sends.",
        "test_from": "From", "test_to": "Your phone, with its country code", "test_send": "Send the test message",
        "step_credentials": "2. Paste the account's id, a system-user token and the app secret. We check that the "
        "account answers before saving.", "waba_id": "WhatsApp Business Account id", "access_token": "Access token",
        "app_secret": "App secret", "display_name": "Name in the appliance (optional)",
        "pin": "Two-step verification PIN (only for a number not registered yet)", "pin_hint": "Six digits. A number "
        "never registered for the Cloud API is registered with it; if it never had a PIN, this one becomes it.", "connect": "Connect",
        "sandbox_tag": "sandbox", "unknown": "unknown",
        "weekdays": _WEEKDAYS_EN,
        "errors": {"email_taken": "An account already uses this email. Sign in, or reset the password.",
                   "invalid_credentials": "The current password is not right.",
                   "invalid_two_factor_code": "That code is not valid (or was already used). Try the next one.",
                   "permission_escalation": "You cannot grant permissions you do not hold yourself.",
                   "url_not_allowed": "That address is not public (private, loopback, link-local, reserved or this "
                   "appliance's own): only public servers are reached, unless the installation's administrator "
                   "allows that private server."},
    },
    es={
        "nav_inbox": "Bandeja", "nav_organization": "Organización", "nav_team": "Equipo", "nav_api_keys": "Claves API",
        "nav_whatsapp": "WhatsApp", "nav_templates": "Plantillas",
        "nav_contacts": "Contactos", "nav_broadcasts": "Campañas", "nav_webhooks": "Webhooks", "nav_notifications": "Notificaciones", "notifications_hint": "Elige de qué te avisamos en tus navegadores y móviles.", "nav_bot": "Bot", "nav_links": "Enlaces", "nav_orders": "Pedidos", "nav_surveys": "Encuestas", "nav_agenda": "Agenda", "nav_attendance": "Asistencia", "nav_tasks": "Tareas", "nav_quick_replies": "Respuestas rápidas", "nav_account": "Mi cuenta", "console": "Consola", "menu": "Menú",
        "setup_title": "Configura tu equipo", "setup_intro": "Dos minutos: tú, tu negocio y luego WhatsApp. "
        "Serás el propietario; después puedes invitar a tu equipo.",
        "you": "Tú, el propietario", "name": "Tu nombre", "email": "Correo", "password": "Contraseña",
        "password_hint": "Mínimo 8 caracteres.", "business": "Tu negocio", "org_name": "Nombre del negocio",
        "country": "País", "country_hint": "Se usa su zona horaria principal si no eliges otra abajo.",
        "currency": "Moneda", "currency_hint": "En la que están tus precios y pedidos.",
        "country_none": "Elige un país…", "currency_none": "Elige una moneda…",
        "code_unknown": "{code} (no es un código en uso: elige uno)",
        "timezone": "Zona horaria", "timezone_hint": "La usan el horario, los informes y los recordatorios.",
        "hours": "Horario de atención", "hours_hint": "Cuándo responden las personas. Fuera de este horario la "
        "automatización puede decirlo.", "open": "Abierto", "from": "Desde", "to": "Hasta",
        "setup_button": "Crear mi negocio",
        "signup_title": "Crea tu cuenta", "signup_button": "Crear cuenta",
        "have_account": "¿Ya tienes cuenta?", "sign_in": "Inicia sesión",
        "forgot_title": "Restablece tu contraseña", "forgot_intro": "Te enviaremos un enlace para elegir una nueva.",
        "forgot_button": "Enviarme un enlace", "forgot_sent": "Si una cuenta usa esta dirección, el enlace va en "
        "camino. Sirve durante una hora.", "back_to_sign_in": "Volver a iniciar sesión",
        "new_org_title": "Crea una organización", "new_org_first": "Aún no estás en ninguna organización. Crea tu "
        "negocio o pide una invitación a un colega.",
        "quota": "Puedes crear {remaining} más.", "create": "Crear",
        "account_title": "Mi cuenta", "profile": "Perfil", "language": "Idioma", "save": "Guardar",
        "change_password": "Contraseña", "current_password": "Contraseña actual", "new_password": "Contraseña nueva",
        "password_note": "Al cambiarla se cierran tus otras sesiones.",
        "two_factor": "Inicio de sesión en dos pasos", "two_factor_off": "Desactivado. Un código de una app "
        "autenticadora protege la cuenta aunque se filtre la contraseña.",
        "two_factor_on": "Activado. Entras con un código de tu app.",
        "set_up": "Configurar", "scan": "Escanea este código con una app autenticadora (o escribe la clave) y "
        "escribe el código de 6 dígitos que muestra.", "key": "Clave", "code": "Código", "turn_on": "Activar",
        "turn_off": "Desactivar", "code_or_recovery": "Código o código de recuperación",
        "new_recovery_codes": "Nuevos códigos de recuperación", "recovery_title": "Tus códigos de recuperación",
        "recovery_note": "Cada uno sirve una vez si pierdes el teléfono. Guárdalos en un lugar seguro: no se "
        "vuelven a mostrar.", "copy": "Copiar", "copied": "Copiado",
        "sessions": "Sesiones", "sessions_intro": "Navegadores y apps con tu cuenta abierta.",
        "device": "Dispositivo", "ip": "Dirección", "last_used": "Último uso", "this_one": "esta", "close": "Cerrar",
        "close_others": "Cerrar todas las demás", "mails_title": "Correo que espera por ti",
        "mails_intro": "Aún no hay un servidor de correo, así que el equipo guarda aquí los correos en vez de "
        "enviarlos.",
        "done": {"profile": "Perfil guardado.", "password": "Contraseña cambiada; tus otras sesiones se cerraron.",
                 "session_closed": "Sesión cerrada.", "sessions_closed": "Se cerraron todas las demás sesiones.",
                 "2fa_off": "El inicio en dos pasos está desactivado.", "saved": "Guardado.",
                 "invited": "Invitación enviada.", "resent": "Invitación enviada otra vez con un enlace nuevo.",
                 "invited_kept": "Invitación creada. El correo no está configurado, así que no se envió: copia su "
                 "enlace y dáselo.",
                 "resent_kept": "Se creó un enlace nuevo (el anterior ya no sirve). El correo no está configurado, "
                 "así que no se envió: cópialo y dáselo.",
                 "revoked": "Revocada.", "member_role": "Rol cambiado.", "member_scope": "Cuentas de negocio cambiadas.",
                 "member_suspend": "Miembro suspendido.", "member_unsuspend": "El miembro puede trabajar de nuevo.",
                 "member_remove": "Miembro retirado.", "role_created": "Rol creado.", "role_deleted": "Rol eliminado.",
                 "connected": "Cuenta de negocio conectada.", "disconnected": "Cuenta de negocio desconectada.",
                 "resubscribed": "Webhooks suscritos de nuevo.", "token_rotated": "Nuevo token de verificación creado: pégalo en Meta.",
                 "test_sent": "Mensaje de prueba enviado: debería llegar a tu teléfono en segundos.",
                 "mail_server_saved": "El correo de prueba se entregó; el servidor de correo está guardado.",
                 "sandbox_connected": "Tu número de sandbox está listo: abre la bandeja y haz de cliente."},
        "mail_title": "Servidor de correo", "nav_mail": "Correo", "nav_private_servers": "Servidores privados",
        "nav_go_live": "Salir en vivo", "nav_status": "Estado", "nav_backups": "Copias",
        "address_warning_title": "Los clientes aún no pueden abrir {what}",
        "address_problems": {
            "loopback": "Los enlaces empiezan con {address}, una dirección que solo abre este computador: ni los "
            "clientes, ni Meta, ni los teléfonos de tu equipo pueden.",
            "private_address": "Los enlaces empiezan con {address}, que solo alcanzan los equipos de esta red: ni los "
            "clientes ni Meta pueden.",
            "not_https": "{address} no es https: Meta envía los mensajes de WhatsApp solo a direcciones https, y los "
            "navegadores reservan las notificaciones y las llaves de acceso a las seguras."},
        "address_fix_admin": "Define la dirección pública en la página Salir en vivo.",
        "address_fix_other": "Pide al administrador de la instalación que defina su dirección pública (página Salir en vivo).",
        "mail_intro": "El equipo envía invitaciones, restablecimientos de contraseña y avisos por este servidor "
        "(SMTP). Es de toda la instalación: solo su administrador lo configura.",
        "mail_not_set": "Aún sin configurar: el correo se guarda aquí en vez de enviarse, y cada persona ve sus "
        "enlaces en Mi cuenta; quien invita ve los enlaces de invitación en la página del equipo.",
        "mail_set": "El correo sale por {host} (correo de prueba entregado el {date}).",
        "mail_from_environment": "El correo sale por {host}, configurado con APPLIANCE_SMTP_URL al iniciar el "
        "servidor. Cámbialo allí.", "mail_server": "Servidor", "mail_host": "Servidor (host)", "mail_port": "Puerto",
        "mail_security": "Conexión", "mail_security_names": {"starttls": "STARTTLS (normalmente puerto 587)",
                                                             "ssl": "TLS desde el inicio (normalmente puerto 465)",
                                                             "none": "Sin cifrar (solo en una red de confianza)"},
        "mail_username": "Usuario (opcional)", "mail_password": "Contraseña (opcional)",
        "mail_password_kept": "sin cambios si la dejas vacía", "mail_sender": "Dirección del remitente",
        "mail_sender_hint": "Lo que la gente ve en De; el servidor debe permitirla.",
        "mail_test_note": "Al guardar primero se te envía un correo de prueba; no se guarda nada si no se entrega.",
        "mail_save": "Enviar un correo de prueba y guardar", "mail_testing": "Enviando un correo de prueba…",
        "invitation_link": "El correo no está configurado: dale este enlace",
        "organization_title": "Organización", "billing_email": "Correo de facturación", "plan": "Plan",
        "billing_group": "Grupo de facturación", "billing_parent": "Se factura con su organización principal.",
        "billing_own": "Se factura por separado.", "opt_out": "Baja de mensajes", "opt_out_enabled": "Los clientes "
        "pueden dejar de recibir mensajes de marketing escribiendo una palabra", "keywords": "Palabras clave",
        "keywords_hint": "Separadas por comas.",
        "suspended_title": "Esta organización está suspendida", "suspended_note": "Sus datos se conservan; casi "
        "todas las acciones se rechazan hasta que se levante.", "read_only": "Puedes ver estos ajustes; para "
        "cambiarlos hace falta el permiso organizations:write.",
        "team_title": "Equipo", "members": "Miembros", "member": "Miembro", "role": "Rol", "scope": "Cuentas de negocio",
        "all_accounts": "Todas", "status": "Estado", "active": "Activo", "suspended": "Suspendido", "you_tag": "tú",
        "change": "Cambiar", "suspend": "Suspender", "unsuspend": "Dejar trabajar", "remove": "Retirar",
        "confirm_remove": "¿Retirar a este miembro de la organización?", "invitations": "Invitaciones",
        "invite": "Invitar a alguien", "send_invitation": "Enviar invitación", "expires": "Caduca",
        "resend": "Enviar de nuevo", "revoke": "Revocar",
        "confirm_revoke": "¿Revocar esta invitación? El enlace deja de funcionar.",
        "no_invitations": "No hay invitaciones pendientes. Invita a un colega con su correo y un rol.",
        "roles": "Roles", "system_role": "incluido", "permissions": "Permisos", "new_role": "Rol nuevo",
        "role_names": {"owner": "Propietario", "admin": "Administrador", "supervisor": "Supervisor",
                       "agent": "Agente"},
        "role_descriptions": {"owner": "Todo, incluidos la facturación y la propiedad.",
                              "admin": "Todo salvo cambios de facturación.",
                              "supervisor": "Dirige el equipo: ve todo, atiende conversaciones, gestiona la asistencia.",
                              "agent": "Atiende conversaciones y contactos."},
        "role_name": "Nombre", "role_description": "Descripción", "create_role": "Crear rol", "delete": "Eliminar",
        "confirm_delete_role": "¿Eliminar este rol?",
        "api_keys_title": "Claves API", "api_keys_intro": "Las claves permiten a tus sistemas locales (una tienda, "
        "un ERP) usar la API REST. Da a cada sistema su propia clave con solo lo que necesita.",
        "key_name": "Nombre", "scopes": "Permisos", "scopes_hint": "Ninguno marcado: acceso total a los permisos "
        "de la organización.", "numbers": "Números", "numbers_hint": "Ninguno marcado: todos los números.",
        "create_key": "Crear clave", "created_title": "Tu clave nueva",
        "created_note": "Cópiala ahora: solo se muestra esta vez.", "prefix": "Prefijo", "used": "Último uso",
        "never": "nunca", "no_keys": "Aún no hay claves. Crea una para cada sistema que hable con el equipo.",
        "confirm_revoke_key": "¿Revocar esta clave? Los sistemas que la usan dejan de funcionar al instante.",
        "full_access": "acceso total", "all_numbers": "todos los números", "docs_link": "Documentación de la API",
        "whatsapp_title": "WhatsApp", "welcome_title": "Tu negocio está listo. Ahora, WhatsApp",
        "welcome_connect": "Conectar WhatsApp", "welcome_connect_note": "Usa tu cuenta de negocio de Meta y un token "
        "de usuario del sistema. Los clientes escriben a tu número real.", "welcome_sandbox": "Probar el sandbox",
        "welcome_sandbox_note": "Una red simulada con un número de prueba: haz de cliente y responde en la bandeja. "
        "No se envían mensajes reales.", "sandbox_ready": "Tu número de sandbox está listo.",
        "sandbox_preparing": "Preparando tu número de sandbox…",
        "sandbox_open": "Abre la bandeja y simula un cliente",
        "accounts": "Cuentas de negocio", "no_accounts": "Aún no hay cuentas de negocio conectadas. Conecta una abajo: "
        "sus números aparecen aquí con su calidad y capacidad.", "number": "Número",
        "verified_name": "Nombre visible", "quality": "Calidad", "throughput": "Mensajes por segundo",
        "quality_names": {"GREEN": "Alta", "YELLOW": "Media", "RED": "Baja"},
        "connected_on": "Conectada", "needs_reauth": "Necesita un token nuevo", "disconnect": "Desconectar",
        "confirm_disconnect": "¿Desconectar esta cuenta de negocio? Sus números dejan de enviar y recibir.",
        "resubscribe": "Suscribir webhooks de nuevo", "connect_title": "Conectar una cuenta de negocio",
        "step_webhook": "1. En el panel de la app de Meta, WhatsApp → Configuración, pon la URL de devolución y el "
        "token de verificación:", "webhook_url": "URL de devolución", "verify_token": "Token de verificación",
        "step_verified": "Meta la verificó", "step_waiting_verification": "Esperando que Meta la verifique: pulsa "
        "“Verificar y guardar” en el panel de Meta. Esta página lo nota sola.",
        "rotate_token": "Nuevo token de verificación", "confirm_rotate": "¿Crear un nuevo token de verificación? Hay "
        "que darlo a Meta antes de que verifique de nuevo; las entregas siguen.",
        "step_delivery": "3. Las entregas de Meta", "delivery_last": "Último mensaje entregado", "delivery_none":
        "Ninguno aún: una vez conectada, escribe a tu número desde tu propio teléfono.", "delivery_rejected":
        "Se rechazó una entrega (su firma no coincidía con el secreto de la app)",
        "the_callback_url": "la URL de devolución",
        "step_test": "4. Envíate un mensaje de prueba (la plantilla hello_world de Meta): prueba que el número envía.",
        "test_from": "Desde", "test_to": "Tu teléfono, con su código de país", "test_send": "Enviar el mensaje de prueba",
        "step_credentials": "2. Pega el id de la cuenta, un token de usuario del sistema y el secreto de la app. "
        "Comprobamos que la cuenta responde antes de guardar.", "waba_id": "Id de la cuenta de WhatsApp Business",
        "access_token": "Token de acceso", "app_secret": "Secreto de la app",
        "pin": "PIN de verificación en dos pasos (solo para un número aún no registrado)", "pin_hint": "Seis dígitos. "
        "Un número nunca registrado en la Cloud API se registra con él; si nunca tuvo PIN, este pasa a serlo.",
        "display_name": "Nombre en el equipo (opcional)", "connect": "Conectar", "sandbox_tag": "sandbox",
        "unknown": "desconocida",
        "weekdays": _WEEKDAYS_ES,
        "errors": {"email_taken": "Ya hay una cuenta con este correo. Inicia sesión o restablece la contraseña.",
                   "invalid_credentials": "La contraseña actual no es correcta.",
                   "invalid_two_factor_code": "Ese código no es válido (o ya se usó). Prueba con el siguiente.",
                   "permission_escalation": "No puedes conceder permisos que tú no tienes.",
                   "url_not_allowed": "Esa dirección no es pública (privada, local, de enlace local, reservada o de "
                   "este equipo): solo se alcanzan servidores públicos, salvo que el administrador de la instalación "
                   "permita ese servidor privado."},
    },
)
