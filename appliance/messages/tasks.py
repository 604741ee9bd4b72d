from datetime import timedelta

from huey import crontab

from appliance.core import runtime
from appliance.core.queue import huey
from appliance.messages import media, receipts


@huey.task()
def fetch_inbound_media(message_id: str) -> None:
    outcome = media.fetch(runtime.get().db, message_id)
    if outcome is not None and outcome[0] == "pending":  # a retryable failure: try again later
        fetch_inbound_media.schedule((message_id,), delay=media.retry_delay(outcome[1]))


@huey.periodic_task(crontab(minute="*/10"))
def fetch_stuck_media() -> None:
    for message_id in media.list_stuck(runtime.get().db, older_than=timedelta(minutes=30)):
        fetch_inbound_media(message_id)


@huey.task()
def send_read_mark(conversation_id: str, typing: bool) -> None:
    """Blue ticks (or "typing…") for the customer, as the messaging settings allow."""
    receipts.send_read_mark(runtime.get().db, conversation_id, typing=typing)
