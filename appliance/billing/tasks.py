"""The billing round, every minute (collection.run decides what is due); nothing when billing is off."""

from huey import crontab

from appliance.billing import collection
from appliance.core import runtime
from appliance.core.queue import huey
from appliance.organizations import entitlements


@huey.periodic_task(crontab(minute="*"))
def billing_minute_check() -> None:
    if entitlements.billing_on():
        collection.run(runtime.get().db)


@huey.task()
def send_nequi_push(payment_id: str) -> None:
    """After the push was written down: ask the processor (its outcome lands on the payment)."""
    collection.send_nequi(runtime.get().db, payment_id)
