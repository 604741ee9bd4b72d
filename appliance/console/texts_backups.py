"""What the Backups page (the installation's administrators) and /setup's restore say."""

from appliance.http.pages import Texts

BACKUP_TEXTS = Texts(
    "console_backups",
    en={
        "backups_title": "Backups",
        "backups_intro": "A backup is one file that holds everything this installation needs to start again on "
        "another machine: conversations, contacts, media, settings, API keys and the WhatsApp connection.",
        "make_now": "Make a backup now", "making": "Making a backup…",
        "progress_label": "Backup progress",
        "key_title": "The backup key", "key_yours": "Your backup key",
        "key_new": "Write this key down and keep it apart from the backups (a password manager, or on paper): a "
        "restore needs it, and it is shown only this once.",
        "key_current": "The backups made from now on are sealed with the key whose id is {id}.",
        "key_none": "The first backup shows the key that seals it.",
        "key_replace": "Replace the backup key",
        "key_replace_hint": "Backups already made keep needing the key they were made with.",
        "schedule_title": "When and where",
        "schedule_daily": "Every day at {time} ({zone}): the newest 7 days' and 4 weeks' daily backups are kept.",
        "schedule_off": "No daily backup (APPLIANCE_BACKUP_AT=off): make them here or with `appliance backup`.",
        "folder": "Folder", "free": "free",
        "folder_hint": "A second disk is wiser than the data's own: set APPLIANCE_BACKUP_DIR.",
        "list_title": "Backups made",
        "empty": "No backup yet. Make one now, download it, and keep the file and the key somewhere else.",
        "when": "Made", "kind": "Kind", "state": "State", "size": "Size", "version": "Version",
        "kinds": {"MANUAL": "By hand", "SCHEDULED": "Daily", "PRE_UPGRADE": "Before an upgrade"},
        "states": {"RUNNING": "Being made", "READY": "Ready", "FAILED": "Failed"},
        "download": "Download", "delete": "Delete", "delete_confirm": "Delete this backup for good?",
        "restore_title": "Restoring",
        "restore_steps": [
            "On a new installation: open it in a browser; the first page offers “Restore from a backup”.",
            "On this machine, with the program stopped: appliance restore FILE --key KEY (the Debian package: "
            "sudo -u appliance appliance restore …).",
            "The archive is checked whole before anything changes; one from a newer version is refused.",
        ],
        "done": {"backup_started": "The backup is being made: its progress is below.",
                 "backup_deleted": "The backup was deleted."},
        # /setup
        "restore_offer": "Moving from another machine? Restore from a backup",
        "restore_intro": "Choose the file a backup of the appliance made and type the key shown with it. Everything "
        "is checked before anything changes; then the appliance starts again as that installation, and you sign in "
        "as there. (A file over 1 GB: copy it to this machine and use appliance restore.)",
        "restore_file": "Backup file (.tar.gz)", "restore_key": "Backup key",
        "restore_submit": "Check and restore", "uploading": "Uploading…",
        "restore_checking": "Checking the backup… {percent}% read.",
        "restore_restarting": "The backup is checked and being put in place; the appliance starts again. "
        "This page goes on by itself in a moment.",
        "restore_failed": "Nothing was restored:",
    },
    es={
        "backups_title": "Copias de seguridad",
        "backups_intro": "Una copia es un archivo con todo lo que esta instalación necesita para arrancar de nuevo en "
        "otra máquina: conversaciones, contactos, archivos, ajustes, claves de API y la conexión con WhatsApp.",
        "make_now": "Hacer una copia ahora", "making": "Haciendo una copia…",
        "progress_label": "Avance de la copia",
        "key_title": "La clave de las copias", "key_yours": "Su clave de las copias",
        "key_new": "Anote esta clave y guárdela lejos de las copias (un gestor de contraseñas, o en papel): una "
        "restauración la necesita y solo se muestra esta vez.",
        "key_current": "Las copias que se hagan desde ahora se sellan con la clave de identificador {id}.",
        "key_none": "La primera copia muestra la clave que la sella.",
        "key_replace": "Cambiar la clave de las copias",
        "key_replace_hint": "Las copias ya hechas siguen necesitando la clave con la que se hicieron.",
        "schedule_title": "Cuándo y dónde",
        "schedule_daily": "Cada día a las {time} ({zone}): se guardan las copias diarias de los 7 días y las 4 semanas más recientes.",
        "schedule_off": "Sin copia diaria (APPLIANCE_BACKUP_AT=off): hágalas aquí o con `appliance backup`.",
        "folder": "Carpeta", "free": "libres",
        "folder_hint": "Un segundo disco es más prudente que el de los datos: configure APPLIANCE_BACKUP_DIR.",
        "list_title": "Copias hechas",
        "empty": "Aún no hay copias. Haga una ahora, descárguela y guarde el archivo y la clave en otro lugar.",
        "when": "Hecha", "kind": "Tipo", "state": "Estado", "size": "Tamaño", "version": "Versión",
        "kinds": {"MANUAL": "A mano", "SCHEDULED": "Diaria", "PRE_UPGRADE": "Antes de actualizar"},
        "states": {"RUNNING": "En curso", "READY": "Lista", "FAILED": "Falló"},
        "download": "Descargar", "delete": "Borrar", "delete_confirm": "¿Borrar esta copia para siempre?",
        "restore_title": "Restaurar",
        "restore_steps": [
            "En una instalación nueva: ábrala en el navegador; la primera página ofrece «Restaurar desde una copia».",
            "En esta máquina, con el programa detenido: appliance restore ARCHIVO --key CLAVE (el paquete de Debian: "
            "sudo -u appliance appliance restore …).",
            "El archivo se comprueba entero antes de cambiar nada; uno de una versión más nueva se rechaza.",
        ],
        "done": {"backup_started": "La copia se está haciendo: su avance está abajo.",
                 "backup_deleted": "La copia se borró."},
        "restore_offer": "¿Viene de otra máquina? Restaurar desde una copia",
        "restore_intro": "Elija el archivo que hizo una copia del programa y escriba la clave que se mostró con él. "
        "Todo se comprueba antes de cambiar nada; luego el programa arranca de nuevo como esa instalación y usted "
        "entra como allí. (Un archivo de más de 1 GB: cópielo a esta máquina y use appliance restore.)",
        "restore_file": "Archivo de la copia (.tar.gz)", "restore_key": "Clave de la copia",
        "restore_submit": "Comprobar y restaurar", "uploading": "Subiendo…",
        "restore_checking": "Comprobando la copia… {percent} % leído.",
        "restore_restarting": "La copia está comprobada y se está poniendo en su lugar; el programa arranca de nuevo. "
        "Esta página sigue sola en un momento.",
        "restore_failed": "No se restauró nada:",
    },
)
