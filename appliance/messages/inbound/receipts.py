"""What the customer sees of the team's attention, as the messaging settings allow: blue ticks when
a person opens (reads) the conversation, and "typing…" while an agent writes. Both go to the
network as a read mark on the customer's latest message, outside any transaction; they are
courtesies, so a failure is logged, not retried."""

from __future__ import annotations

import logging

from sqlmodel import select

from appliance.conversations import inbox_settings
from appliance.conversations.models import Conversation
from appliance.graph_api.client import GraphError
from appliance.messages.models import Message
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount
from appliance.wabas.network import graph_client

log = logging.getLogger(__name__)


def send_read_mark(database, conversation_id: str, *, typing: bool) -> bool:
    """Mark the customer's latest message read (with `typing`, also show "typing…"), if the
    organization's settings say so; answers whether the network was told."""
    with database.unit_of_work(write=False) as session:
        conversation = session.get(Conversation, conversation_id)
        if conversation is None:
            return False
        settings = inbox_settings.read_settings(session, conversation.organization_id, "messaging")
        if not settings["typing_indicator" if typing else "read_receipts"]:
            return False
        last = session.exec(select(Message).where(Message.conversation_id == conversation_id, Message.direction == "in",
                                                  Message.wamid.is_not(None))
                            .order_by(Message.created_at.desc(), Message.id.desc()).limit(1)).first()
        number = session.get(PhoneNumber, conversation.phone_number_pk)
        if last is None or number is None or number.disconnected_at is not None:
            return False
        token, _ = wabas_service.credentials(session.get(BusinessAccount, number.waba_pk))
        phone_number_id, wamid = number.phone_number_id, last.wamid
    try:
        graph_client().mark_read(token, phone_number_id, wamid, typing=typing)
    except GraphError as error:
        log.info("read mark for %s not sent: %s", conversation_id, error)
        return False
    return True
