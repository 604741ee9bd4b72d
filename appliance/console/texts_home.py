"""What the console's home says (console/home.py): what needs someone now and the set-up checklist."""

from appliance.core.i18n import Words, _l, _ln, _lp

HOME_TEXTS = Words("console_home", {
    "home_title": _l("Home"), "attention_title": _l("Needs attention"),
    "attention_empty": _l("Nothing needs you now. New conversations come into the inbox; this page lists what waits "
                          "for someone."),
    "lines": {
        "waiting": _ln("{n} conversation waits for an answer", "{n} conversations wait for an answer"),
        "failed_sends": _ln("{n} message could not be sent in the last 24 hours",
                            "{n} messages could not be sent in the last 24 hours"),
        "paused_campaigns": _ln("{n} campaign is paused", "{n} campaigns are paused"),
        "webhooks_failing": _ln("{n} webhook has failed for a day", "{n} webhooks have failed for a day"),
        "backup_failed": _l("The last backup failed"),
        "backup_old": _l("No backup for two days"),
    },
    "since": {
        "waiting": _l("The oldest since {time}."), "backup_failed": _l("At {time}."),
        "backup_old": _l("The last one: {time}."),
    },
    "actions": {
        "waiting": _l("Open the inbox"), "failed_sends": _l("Open the inbox"),
        "paused_campaigns": _l("See the campaigns"), "webhooks_failing": _l("See the webhooks"),
        "backup_failed": _l("See the backups"), "backup_old": _l("See the backups"),
    },
    "setup_title": _l("Getting started"), "setup_progress": _l("{done} of {total} done"),
    "setup_done": _l("Everything is set up."), "step_open": _l("Open"),
    "steps": {
        "step_business": _l("Say where your business is: country, currency, time zone and hours"),
        "step_whatsapp": _l("Connect your WhatsApp number"),
        "step_bot": _l("Turn the bot on, so customers get an answer when nobody can"),
        "step_team": _l("Bring in your team"), "step_backup": _l("Make the first backup and keep its key"),
        "step_go_live": _l("Give the installation its public address with HTTPS"),
    },
    "done_mark": _lp("console_home.done_mark", "Done"), "todo_mark": _lp("console_home.todo_mark", "To do"),
    "installation_tag": _l("Installation"),
})
