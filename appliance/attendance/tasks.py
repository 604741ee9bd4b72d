"""The attendance minute check: requests noted, sessions nobody ended closed."""

from huey import crontab

from appliance.attendance import closing, sessions
from appliance.core import runtime
from appliance.core.queue import huey


@huey.periodic_task(crontab(minute="*"))
def attendance_minute_check() -> None:
    with runtime.get().db.unit_of_work(write=True) as session:
        closing.write_activity(session)
        closing.close_due(session, sessions.now_ms())
