"""Messages' side of conversation events: a conversation read by a person sends the read mark."""

from sqlmodel import Session

from appliance.core import events
from appliance.core.events import OutboxEvent
from appliance.messages import tasks


@events.subscribe(events.CONVERSATION_UPDATED)
def send_read_receipt(session: Session, event: OutboxEvent) -> None:
    if event.data.get("read") and "unread" in event.data.get("changes", ()):
        tasks.send_read_mark(event.data["conversationId"], False)
