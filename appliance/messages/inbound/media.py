"""Media of inbound messages: fetched from the network in the background and kept under
DATA_DIR/media. The message is stored first and stays whatever happens to its media; a failed
fetch is retried with back-off while the network keeps the file (7 days), then marked failed.

No transaction is open while the network is called."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import select

from appliance.core import clock, events
from appliance.core.files import writing
from appliance.graph_api.client import GraphError
from appliance.messages.media_store import inbound_path
from appliance.messages.models import Message
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount
from appliance.wabas.network import graph_client

MAX_ATTEMPTS = 6
RETRY_DELAYS = (30, 120, 600, 3600, 6 * 3600)  # seconds before attempts 2..6
MAX_MEDIA_BYTES = 100 << 20  # the network's largest (documents)


def fetch(database, message_id: str) -> tuple[str, int] | None:
    """One attempt; answers (media status, attempts so far) afterwards, or None if there was nothing
    to do. A retryable failure leaves it `pending` with the attempt counted (the caller reschedules)."""
    with database.unit_of_work(write=False) as session:
        message = session.get(Message, message_id)
        if message is None or message.media_status != "pending" or not message.media_id:
            return None
        number = session.get(PhoneNumber, message.phone_number_pk)
        token, _ = wabas_service.credentials(session.get(BusinessAccount, number.waba_pk))
        media_id, organization_id, expected_sha = message.media_id, message.organization_id, _sha256_of(message)
    try:
        graph = graph_client()
        info = graph.get_media(token, media_id)
        # Streamed into a file of this fetch's own, renamed into place whole: another fetch of the
        # same media at the same time (the sweep, the inbox's proxy) writes its own.
        with writing(inbound_path(organization_id, message_id)) as out:
            sha256 = graph.download_media_to(token, str(info["url"]), out, max_bytes=MAX_MEDIA_BYTES)
            if expected_sha and sha256 != expected_sha:
                raise GraphError(200, 131052, "The downloaded media does not match its sha256")
            size = out.tell()
        outcome, error = "stored", None
        mime_type = info.get("mime_type")
    except GraphError as exc:
        outcome, error, mime_type, size = "retry" if exc.retryable else "failed", exc, None, None
    with database.unit_of_work(write=True) as session:
        message = session.get(Message, message_id)
        message.media_attempts += 1
        if outcome == "retry" and message.media_attempts >= MAX_ATTEMPTS:
            outcome = "failed"
        if outcome == "stored":
            message.media_status, message.media_size = "stored", size
            message.media_mime_type = mime_type or message.media_mime_type
        elif outcome == "failed":
            message.media_status = "failed"
            message.error_code, message.error_title = error.code, f"Media could not be fetched: {error.message}"[:200]
        message.updated_at = clock.now()
        session.add(message)
        if outcome != "retry":
            events.emit(session, events.MESSAGE_UPDATED, organization_id=message.organization_id, messageId=message.id,
                        conversationId=message.conversation_id, mediaStatus=message.media_status)
        return message.media_status, message.media_attempts


def retry_delay(attempts: int) -> int:
    return RETRY_DELAYS[min(attempts, len(RETRY_DELAYS)) - 1]


def list_stuck(database, *, older_than: timedelta) -> list[str]:
    """Pending fetches nobody is working on (the task was lost in a crash)."""
    with database.unit_of_work(write=False) as session:
        return list(session.exec(select(Message.id).where(Message.media_status == "pending",
                                                          Message.updated_at < clock.now() - older_than)).all())


def _sha256_of(message: Message) -> str | None:
    media = message.payload.get(message.type) if isinstance(message.payload, dict) else None
    value = media.get("sha256") if isinstance(media, dict) else None
    return value if isinstance(value, str) and len(value) == 64 else None
