"""The inbox's background work: snoozes that came due."""

from huey import crontab

from appliance.conversations import state
from appliance.core import runtime
from appliance.core.queue import huey


@huey.periodic_task(crontab(minute="*"))
def wake_snoozed() -> None:
    """Each minute: conversations whose snooze ended are open again."""
    with runtime.get().db.unit_of_work(write=True) as session:
        state.do_wake_snoozed(session)
