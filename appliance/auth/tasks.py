from huey import crontab

from appliance.auth import sessions
from appliance.core import runtime
from appliance.core.queue import huey


@huey.periodic_task(crontab(minute="17", hour="3"))
def purge_expired_sessions() -> None:
    with runtime.get().db.unit_of_work(write=True) as session:
        sessions.purge_expired(session)
