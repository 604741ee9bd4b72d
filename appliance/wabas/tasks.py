"""The business accounts' queue task: their numbers' quality ratings read again after the network
said something changed (the inbound adapter queues it; quality.py does it)."""

from appliance.core.queue import huey
from appliance.wabas import quality


@huey.task(retries=3, retry_delay=30)
def refresh_quality(waba_pk: str, event: str | None = None) -> int:
    return quality.refresh(waba_pk, event)
