"""Messages' side of conversation events: a conversation read by a person sends the read mark."""

from sqlmodel import Session

from appliance.core import dispatcher, events
from appliance.core.dispatcher import Event
from appliance.messages import tasks


def _read_by_a_person(data: dict) -> bool:
    return bool(data.get("read")) and "unread" in data.get("changes", ())


@dispatcher.subscribe(events.CONVERSATION_UPDATED, when=_read_by_a_person)
def send_read_receipt(session: Session, event: Event) -> None:
    tasks.send_read_mark(event.data["conversationId"], False)
