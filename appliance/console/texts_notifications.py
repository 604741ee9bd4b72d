"""What the console's notification page says."""

from appliance.http.pages import Texts

NOTIFICATION_TEXTS = Texts(
    "console_notifications",
    en={
        "notifications_title": "Notifications",
        "notifications_intro": "Get a notification on this computer or your phone when a customer needs you, even "
        "with the inbox closed. Turn it on with the bell (🔕) at the top of the inbox, in each browser you use.",
        "secure_note": "Browsers only allow notifications on pages opened over HTTPS or on localhost. On the office "
        "network, open the appliance at its HTTPS address (see the installer's notes) to turn them on.",
        "what": "Tell me when", "save": "Save",
        "triggers": {"assigned": "A conversation is assigned to me",
                     "customer_message": "A customer writes in a conversation assigned to me",
                     "handoff": "A customer asks for a person on a number I work on",
                     "unanswered": "A customer has waited too long (the inbox's wait notice)"},
        "where": "Where", "none_yet": "No browser or phone has notifications on yet.",
        "browser": "Browser", "device": "Phone app", "since": "since", "last_ok": "last delivered",
        "never": "never", "failing": "failing", "remove": "Remove", "send_test": "Send me a test",
        "done": {"saved": "Saved.", "removed": "Removed.", "test_sent": "Test sent to {n} browsers and phones."},
    },
    es={
        "notifications_title": "Notificaciones",
        "notifications_intro": "Recibe un aviso en este ordenador o en tu móvil cuando un cliente te necesite, aunque "
        "la bandeja esté cerrada. Actívalo con la campana (🔕) de arriba en la bandeja, en cada navegador que uses.",
        "secure_note": "Los navegadores solo permiten notificaciones en páginas abiertas por HTTPS o en localhost. En la "
        "red de la oficina, abre el equipo por su dirección HTTPS (mira las notas del instalador) para activarlas.",
        "what": "Avísame cuando", "save": "Guardar",
        "triggers": {"assigned": "Me asignan una conversación",
                     "customer_message": "Un cliente escribe en una conversación asignada a mí",
                     "handoff": "Un cliente pide una persona en un número en el que trabajo",
                     "unanswered": "Un cliente lleva demasiado esperando (el aviso de espera de la bandeja)"},
        "where": "Dónde", "none_yet": "Aún ningún navegador ni móvil tiene las notificaciones activadas.",
        "browser": "Navegador", "device": "App del móvil", "since": "desde", "last_ok": "última entrega",
        "never": "nunca", "failing": "falla", "remove": "Quitar", "send_test": "Enviarme una prueba",
        "done": {"saved": "Guardado.", "removed": "Quitado.", "test_sent": "Prueba enviada a {n} navegadores y móviles."},
    },
)
