"""The mail's queue tasks: one mail's delivery (retried), and the mails whose task was lost."""

from huey import crontab

from appliance.core import runtime
from appliance.core.queue import huey
from appliance.mail import delivery, servers
from appliance.mail.delivery import MAX_ATTEMPTS


def _transport() -> delivery.MailTransport:
    """Read at each delivery: the administrator may set the server while the process runs."""
    with runtime.get().db.unit_of_work(write=False) as session:
        return servers.transport(session)


@huey.task(retries=MAX_ATTEMPTS - 1, retry_delay=30)
def deliver_mail(mail_id: str) -> None:
    delivery.deliver(runtime.get().db, _transport(), mail_id)


@huey.periodic_task(crontab(minute="*/5"))
def deliver_stuck_mail() -> None:
    """Mail whose delivery task was lost (a crash right after commit) is picked up here."""
    database = runtime.get().db
    with database.unit_of_work(write=False) as session:
        stuck = delivery.list_stuck_ids(session, older_than_seconds=600)
    for mail_id in stuck:
        deliver_mail(mail_id)
