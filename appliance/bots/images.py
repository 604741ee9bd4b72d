"""The bot's images: recognized by their content (not their name or claimed type), at most 5 MB,
written to disk whole before the record names them; a deleted image's file stays, because sent
messages show it."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, select

from appliance.bots.models import BotImage, BotRule
from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid, NotFound, TooLarge
from appliance.core.files import Upload, image_type
from appliance.messages.media_store import write_atomically
from appliance.messages.sending import local_media
from appliance.organizations import entitlements

MAX_BYTES = 5 * 1024 * 1024
ACCEPTED = "JPG, PNG or WEBP"
SERVED_AS = ("image/jpeg", "image/png", "image/webp")  # what image_type() finds: the only types stored
SOURCE = "bot_image"  # how a queued message names one of these files (messages/sending/local_media.py)


def path_of(organization_id: str, image_id: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / "bot-images" / image_id


def list_images(session: Session, *, actor: OrgActor) -> list[BotImage]:
    return list(session.exec(select(BotImage).where(BotImage.organization_id == actor.organization_id)
                             .order_by(BotImage.label, BotImage.created_at)).all())


def access_image(session: Session, *, actor: OrgActor, image_id: str) -> BotImage:
    return tenancy.access_in_org(session, BotImage, image_id, actor, what="bot image", code="bot_image_not_found")


def do_upload(session: Session, *, actor: OrgActor, upload: Upload | None, label: str, caption: str = "") -> BotImage:
    """The file is read from where the request spooled it: its first bytes, then its pieces."""
    if upload is None or not upload.size:
        raise Invalid("The file is empty.", code="file_missing", errors={"file": ["Empty."]})
    if upload.size > MAX_BYTES:
        raise TooLarge(f"Images may be at most 5 MB; this one is {upload.size // 1024} KB.", code="image_too_large",
                       limitBytes=MAX_BYTES)
    entitlements.check_storage_room(session, actor.organization_id, adding_bytes=upload.size)
    mime_type = image_type(upload.head(16))
    if mime_type is None:
        raise Invalid(f"Send a {ACCEPTED} image.", code="unsupported_file_type", errors={"file": [f"Not a {ACCEPTED} image."]})
    now = clock.now()
    image = BotImage(organization_id=actor.organization_id, label=label, caption=caption, mime_type=mime_type,
                     size_bytes=upload.size, sha256=upload.sha256(), created_at=now, updated_at=now)
    write_atomically(path_of(image.organization_id, image.id), upload)
    session.add(image)
    session.flush()
    return image


def do_update(session: Session, *, actor: OrgActor, image_id: str, **changes) -> BotImage:
    image = access_image(session, actor=actor, image_id=image_id)
    for name in ("label", "caption"):
        if name in changes:
            setattr(image, name, changes[name])
    image.updated_at = clock.now()
    session.add(image)
    session.flush()
    return image


def do_delete(session: Session, *, actor: OrgActor, image_id: str, forzar: bool = False) -> BotImage:
    """409 image_in_use while a rule sends it, unless `forzar` (the rules then reply without it)."""
    image = access_image(session, actor=actor, image_id=image_id)
    users = session.exec(select(BotRule).where(BotRule.organization_id == actor.organization_id,
                                               BotRule.image_id == image.id)).all()
    if users and not forzar:
        raise Conflict(f"Rules send this image: {', '.join(rule.name for rule in users)}. Change them first, or "
                       "delete with forzar=true.", code="image_in_use", rules=[rule.name for rule in users])
    for rule in users:
        rule.image_id = None
        rule.updated_at = clock.now()
        session.add(rule)
    session.delete(image)
    return image


def file_of(session: Session, *, actor: OrgActor, image_id: str) -> local_media.LocalFile:
    """The file of one of the organization's images, also of one deleted since (404 when none)."""
    found = _local_file(actor.organization_id, image_id, session.get(BotImage, image_id))
    if found is None:
        raise NotFound("No bot image with this id in this organization.", code="bot_image_not_found")
    return found


def _resolve(organization_id: str, image_id: str) -> local_media.LocalFile | None:
    """For the sender, which runs outside any request and transaction."""
    with runtime.get().db.unit_of_work(write=False) as session:
        return _local_file(organization_id, image_id, session.get(BotImage, image_id))


def _local_file(organization_id: str, image_id: str, image: BotImage | None) -> local_media.LocalFile | None:
    """The organization's own image's file; a deleted image's file stays where it was written, so
    a queued message still goes out and a sent one still shows it."""
    if image is not None and image.organization_id != organization_id:
        return None
    path = path_of(organization_id, image_id)
    if image is not None:
        return local_media.LocalFile(path, image.mime_type, f"{image.label}.{image.mime_type.split('/')[1]}")
    if not path.is_file():
        return None
    with open(path, "rb") as handle:
        return local_media.LocalFile(path, image_type(handle.read(16)) or "image/jpeg", image_id)


local_media.register(SOURCE, _resolve)

