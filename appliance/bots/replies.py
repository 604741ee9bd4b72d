"""The bot's messages on their way out: protected values masked, long replies split into paced
parts, and each part sent as the bot (`sentBy: "bot"`) through the same sending service as a
person's message, so the window rule, the send queue and crash safety are the same."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from appliance.bots import activity, images
from appliance.contacts import service as contacts_service
from appliance.core.actor import OrgActor
from appliance.core.errors import AppError
from appliance.messages.sending import service as sending

PACE_FACTORS = {"NATURAL": 1.0, "PAUSADO": 1.5}


def bot_actor(organization_id: str) -> OrgActor:
    """Who the bot is to the services it calls: no person, no key, no permission of a member."""
    return OrgActor(user_id=None, kind="bot", organization_id=organization_id, membership_id=None, role_key=None,
                    permissions=frozenset())


def typing_seconds(text: str, pace: str, cps: int) -> float:
    """How long a person would take to type it: len/cps (NATURAL), 1.5 times that (PAUSADO)."""
    return len(text) / max(1, cps) * PACE_FACTORS.get(pace, 0.0)


@dataclass(frozen=True)
class Outgoing:
    """One message the bot decided to send: a text, an interactive object (a flow's buttons), or
    an image of the bot's library (`image_id`, `text` its caption)."""
    text: str
    interactive: dict | None = None
    image_id: str | None = None

    @property
    def whole(self) -> bool:
        """Sent as one message, never split into typed parts."""
        return bool(self.interactive or self.image_id)

    def as_part(self) -> dict:
        return {"text": self.text, **({"interactive": self.interactive} if self.interactive else {}),
                **({"imageId": self.image_id} if self.image_id else {})}

    @classmethod
    def from_part(cls, part: dict) -> "Outgoing":
        return cls(part["text"], part.get("interactive"), part.get("imageId"))


def send(session: Session, *, organization_id: str, phone_number_pk: str, to: str, message: Outgoing):
    """Store and queue one bot message (answers its row); the send service's checks apply."""
    local = None
    if message.image_id:
        kind, payload, local = "image", {"caption": message.text}, {"source": images.SOURCE, "id": message.image_id}
    elif message.interactive:
        kind, payload = "interactive", message.interactive
    else:
        kind, payload = "text", {"body": message.text}
    row, _ = sending.do_send(session, actor=bot_actor(organization_id), outgoing=sending.Outgoing(
        phone_number_pk=phone_number_pk, to=to, type=kind, payload=payload, local_media=local))
    return row


def deliver(session: Session, conversation, contact, message: Outgoing) -> bool:
    """Queue one bot message in the conversation; a refusal (the window closed, the number was
    disconnected) is logged as FAILED with its reason, not raised."""
    try:
        to = contacts_service.address(contact)
        if not to:
            raise AppError("The contact has no WhatsApp id to write to.", code="contact_unreachable")
        with session.begin_nested():
            send(session, organization_id=conversation.organization_id,
                 phone_number_pk=conversation.phone_number_pk, to=to, message=message)
        return True
    except AppError as error:
        activity.record_in(session, conversation, "FAILED", reason=error.code, error=str(error)[:500])
        return False
