"""The inbox's background work: snoozes that came due, customers left waiting."""

from huey import crontab

from appliance.conversations import notifications, service
from appliance.core import runtime
from appliance.core.queue import huey
from appliance.installation import public_address


@huey.periodic_task(crontab(minute="*"))
def wake_snoozed() -> None:
    """Each minute: conversations whose snooze ended are open again."""
    with runtime.get().db.unit_of_work(write=True) as session:
        service.do_wake_snoozed(session)


@huey.periodic_task(crontab(minute="*"))
def notify_waiting() -> None:
    """Each minute: e-mail the team about customers waiting past the organization's threshold."""
    with runtime.get().db.unit_of_work(write=True) as session:
        notifications.do_notify_waiting(session, base_url=public_address.base_url())
