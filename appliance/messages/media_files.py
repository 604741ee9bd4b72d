"""Media files of messages: uploads sent to the network to be sent by id (the products that send
by link meet Meta's link fetcher's rate limits and redirects; cloud-api.md lesson 3), and the proxy
that serves a message's media to the inbox from the local copy, else from the network (kept then).

The network is called with no transaction open; files are written whole (temporary file, fsync,
rename) before their record is, and never held whole in memory (uploads are read from where the
request spooled them, downloads are written as they arrive).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, select

from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid, NotFound, TooLarge
from appliance.core.files import Upload, writing
from appliance.graph_api.client import GraphError
from appliance.messages.media_store import inbound_path, upload_path, write_atomically
from appliance.messages.models import UploadedMedia
from appliance.messages.sending import local_media
from appliance.messages.service import access_message
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount
from appliance.wabas.network import as_app_error, graph_client
from appliance.organizations import entitlements

_MB = 1024 * 1024
# The network's types and limits (cloud-api.md 3.7): what a message of each kind may carry.
MEDIA_LIMITS = {
    "image/jpeg": 5 * _MB, "image/png": 5 * _MB, "image/webp": 500 * 1024,
    "video/mp4": 16 * _MB, "video/3gpp": 16 * _MB,
    "audio/aac": 16 * _MB, "audio/amr": 16 * _MB, "audio/mpeg": 16 * _MB, "audio/mp4": 16 * _MB, "audio/ogg": 16 * _MB,
    "application/pdf": 100 * _MB, "text/plain": 100 * _MB, "application/msword": 100 * _MB,
    "application/vnd.ms-excel": 100 * _MB, "application/vnd.ms-powerpoint": 100 * _MB,
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": 100 * _MB,
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": 100 * _MB,
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": 100 * _MB,
}
MAX_UPLOAD_BYTES = max(MEDIA_LIMITS.values())
MAX_PROXY_BYTES = MAX_UPLOAD_BYTES


def _number_and_token(actor: OrgActor, phone_number_pk: str):
    tenancy.check_phone_number_allowed(actor, phone_number_pk)  # a key limited to other numbers: 403, as for sends
    return wabas_service.access_number_with_token(actor, phone_number_pk)


def check_upload(session: Session, *, actor: OrgActor, phone_number_pk: str, upload: Upload) -> UploadedMedia:
    """Check the file against the network's limits, upload it, keep a copy; answers the record. The
    file is read from where the request spooled it, piece by piece (never whole in memory)."""
    mime_type = (upload.content_type or "").split(";")[0].strip().lower()
    limit = MEDIA_LIMITS.get(mime_type)
    if limit is None:
        raise Invalid(f"The network does not take {mime_type or 'files without a type'}; it takes "
                      f"{', '.join(sorted(MEDIA_LIMITS))}.", code="unsupported_media_type")
    if not upload.size:
        raise Invalid("The file is empty.", code="file_missing")
    if upload.size > limit:
        raise TooLarge(f"{mime_type} files may be at most {limit // 1024} KB on WhatsApp; this one is "
                       f"{upload.size // 1024} KB.", code="media_too_large", limitBytes=limit)
    entitlements.check_storage_room(session, actor.organization_id, adding_bytes=upload.size)
    number, token = _number_and_token(actor, phone_number_pk)
    filename = upload.filename
    try:
        media_id = graph_client().upload_media(token, number.phone_number_id, upload.opened(), mime_type,
                                               filename or "file")
    except GraphError as error:
        raise as_app_error(error, what="when uploading the file") from None
    record = UploadedMedia(organization_id=actor.organization_id, phone_number_pk=number.id, media_id=media_id,
                           mime_type=mime_type, size=upload.size, filename=(filename or "")[:255] or None,
                           sha256=upload.sha256(), created_at=clock.now())
    write_atomically(upload_path(actor.organization_id, record.id), upload)
    session.add(record)
    session.flush()
    return record


@dataclass(frozen=True)
class MediaFile:
    path: Path
    mime_type: str
    filename: str | None


def open_media(*, actor: OrgActor, message_id: str) -> MediaFile:
    """A message's media: the inbound copy, the file of the appliance's own it was sent from (a
    sticker of the library, a bot's image), or the upload it was sent with, else fetched from the
    network now and kept."""
    database = runtime.get().db
    with database.unit_of_work(write=False) as reading:
        message = access_message(reading, actor=actor, message_id=message_id)
        if message.direction == "out" and local_media.is_local(message.payload):
            own = local_media.find(message.organization_id, message.payload["local"])
            if own is None:
                raise NotFound("The file this message was sent from is no longer on this machine.",
                               code="media_not_available")
            return MediaFile(own.path, own.mime_type, own.filename)
        media = message.payload.get(message.type) if message.direction == "in" else message.payload
        media = media if isinstance(media, dict) else {}
        media_id = message.media_id or media.get("id")
        if not media_id:
            raise NotFound("This message has no media the network keeps (it is not a media message, or was sent "
                           "by link).", code="media_not_available")
        mime_type = message.media_mime_type or media.get("mime_type") or "application/octet-stream"
        filename = media.get("filename")
        if message.direction == "in":
            local = inbound_path(message.organization_id, message.id)
        else:
            upload = reading.exec(select(UploadedMedia).where(UploadedMedia.phone_number_pk == message.phone_number_pk,
                                                              UploadedMedia.media_id == media_id)).first()
            local = upload_path(message.organization_id, upload.id) if upload else inbound_path(message.organization_id, message.id)
            if upload:
                mime_type, filename = upload.mime_type, filename or upload.filename
        if local.exists():
            return MediaFile(local, mime_type, filename)
        number = reading.get(PhoneNumber, message.phone_number_pk)
        token = wabas_service.credentials(reading.get(BusinessAccount, number.waba_pk))[0]
    try:
        info = graph_client().get_media(token, media_id)
        with writing(local) as out:  # a file of this call's own: an inbound fetch may be writing the same media
            graph_client().download_media_to(token, str(info["url"]), out, max_bytes=MAX_PROXY_BYTES)
    except GraphError as error:
        raise as_app_error(error, what="when fetching the media (the network keeps it 30 days after an upload, "
                                        "7 days after it arrived)") from None
    return MediaFile(local, info.get("mime_type") or mime_type, filename)


def as_message(uploaded: UploadedMedia, *, mime_type: str, filename: str, caption: str | None) -> tuple[str, dict]:
    """The message (type, payload) that sends an uploaded file: images, videos and audio as such,
    anything else as a document with its name; audio takes no caption."""
    kind = {"image": "image", "video": "video", "audio": "audio"}.get(mime_type.split("/")[0], "document")
    payload: dict = {"id": uploaded.media_id}
    if caption and kind != "audio":
        payload["caption"] = caption
    if kind == "document":
        payload["filename"] = filename[:240]
    return kind, payload
