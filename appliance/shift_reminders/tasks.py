"""The reminders' minute check (reminders.py decides which are due)."""

from huey import crontab

from appliance.attendance import sessions
from appliance.core import runtime
from appliance.core.queue import huey
from appliance.shift_reminders import reminders


@huey.periodic_task(crontab(minute="*"))
def shift_reminders_minute_check() -> None:
    with runtime.get().db.unit_of_work(write=True) as session:
        reminders.check(session, sessions.now_ms())
