"""What the Backups page (the installation's administrators) and /setup's restore say."""

from appliance.core.i18n import Words, _l, _lp

# backups/service.py's BY_POSTGRESQL, as the pages say it (the page and the refused form's answer).
_BY_POSTGRESQL = _l("The database is on PostgreSQL: back it up with pg_dump or your provider's snapshots, and copy "
                    "the data directory (media, secret.key) with it (docs/postgresql.md, “Backups”). The appliance's "
                    "own backups and restores hold a SQLite database, not this one.")

BACKUP_TEXTS = Words("console_backups", {
    "backups_title": _l("Backups"),
    "backups_intro": _l("A backup is one file that holds everything this installation needs to start again on "
                        "another machine: conversations, contacts, media, settings, API keys and the WhatsApp "
                        "connection."),
    "make_now": _l("Make a backup now"), "making": _l("Making a backup…"), "progress_label": _l("Backup progress"),
    "key_title": _l("The backup key"), "key_yours": _l("Your backup key"),
    "key_new": _l("Write this key down and keep it apart from the backups (a password manager, or on paper): a "
                  "restore needs it, and it is shown only this once."),
    "key_current": _l("The backups made from now on are sealed with the key whose id is {id}."),
    "key_none": _l("The first backup shows the key that seals it."), "key_replace": _l("Replace the backup key"),
    "key_replace_hint": _l("Backups already made keep needing the key they were made with."),
    "by_postgresql": _BY_POSTGRESQL,
    "schedule_title": _l("When and where"),
    "schedule_daily": _l("Every day at {time} ({zone}): the newest 7 days' and 4 weeks' daily backups are kept."),
    "schedule_off": _l("No daily backup (APPLIANCE_BACKUP_AT=off): make them here or with `appliance backup`."),
    "folder": _l("Folder"), "free": _l("free"),
    "folder_hint": _l("A second disk is wiser than the data's own: set APPLIANCE_BACKUP_DIR."),
    "list_title": _l("Backups made"),
    "empty": _l("No backup yet. Make one now, download it, and keep the file and the key somewhere else."),
    "when": _l("Made"), "kind": _l("Kind"), "state": _l("State"), "size": _l("Size"), "version": _l("Version"),
    "kinds": {"MANUAL": _l("By hand"), "SCHEDULED": _l("Daily"), "PRE_UPGRADE": _l("Before an upgrade")},
    "states": {"RUNNING": _l("Being made"), "READY": _l("Ready"), "FAILED": _l("Failed")}, "download": _l("Download"),
    "delete": _lp("console_backups.delete", "Delete"), "delete_confirm": _l("Delete this backup for good?"),
    "restore_title": _l("Restoring"),
    "restore_steps": [
        _l("On a new installation: open it in a browser; the first page offers “Restore from a backup”."),
        _l("On this machine, with the program stopped: appliance restore FILE --key KEY (the Debian package: sudo -u "
           "appliance appliance restore …)."),
        _l("The archive is checked whole before anything changes; one from a newer version is refused."),
    ],
    "errors": {"backups_by_postgresql": _BY_POSTGRESQL},
    "done": {
        "backup_started": _l("The backup is being made: its progress is below."),
        "backup_deleted": _l("The backup was deleted."),
    },
    # /setup
    "restore_offer": _l("Moving from another machine? Restore from a backup"),
    "restore_intro": _l("Choose the file a backup of the appliance made and type the key shown with it. Everything "
                        "is checked before anything changes; then the appliance starts again as that installation, "
                        "and you sign in as there. (A file over 1 GB: copy it to this machine and use appliance "
                        "restore.)"),
    "restore_file": _l("Backup file (.tar.gz)"), "restore_key": _l("Backup key"),
    "restore_submit": _l("Check and restore"), "uploading": _l("Uploading…"),
    "restore_checking": _l("Checking the backup… {percent} read."),
    "restore_restarting": _l("The backup is checked and being put in place; the appliance starts again. This page "
                             "goes on by itself in a moment."),
    "restore_failed": _l("Nothing was restored:"),
})
