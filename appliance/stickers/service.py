"""The organization's sticker library: upload (normalized to WhatsApp's rules, normalize.py), list,
read, delete, and the files. Each file is written whole under the data directory before its record
names it; a deleted sticker's file stays, because messages already sent (and queued) show it.

Sending a sticker is the messages' business (messages/sending/sticker_media.py): a queued message
names the sticker, and its file is uploaded to the number just before the send."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid, NotFound
from appliance.core.files import Upload, write_atomically
from appliance.organizations import entitlements
from appliance.stickers import normalize
from appliance.stickers.models import Sticker
from appliance.stickers.sentences import refusal

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # what is taken to be normalized (the result is ≤ 500 KB)
MIME_TYPE = "image/webp"
NAME_MAX = 60
_ID = re.compile(r"[0-9a-f-]{36}")

def path_of(organization_id: str, sticker_id: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / "stickers" / f"{sticker_id}.webp"


def list_stickers(session: Session, *, actor: OrgActor) -> list[Sticker]:
    """The library, newest first (the composer's picker and the console's grid)."""
    return list(session.exec(select(Sticker).where(Sticker.organization_id == actor.organization_id)
                             .order_by(Sticker.created_at.desc(), Sticker.id)).all())


def access_sticker(session: Session, *, actor: OrgActor, sticker_id: str) -> Sticker:
    return tenancy.access_in_org(session, Sticker, sticker_id, actor, what="sticker", code="sticker_not_found")


def do_upload(session: Session, *, actor: OrgActor, upload: Upload | None, name: str | None = None) -> Sticker:
    """Normalize the upload, refuse a picture the library already has, keep the file, then the
    record. The upload's bytes are read whole: at most MAX_UPLOAD_BYTES (the route's bound)."""
    if upload is None or not upload.size:
        raise Invalid(refusal("file_missing"), code="file_missing", errors={"file": ["Empty."]})
    made = normalize.normalize(upload.read())
    sha256 = _sha256(made.content)
    same = session.exec(select(Sticker).where(Sticker.organization_id == actor.organization_id,
                                              Sticker.sha256 == sha256)).first()
    if same is not None:
        raise _duplicate(same)
    entitlements.check_storage_room(session, actor.organization_id, adding_bytes=len(made.content))
    sticker = Sticker(organization_id=actor.organization_id, name=_name(name, upload.filename), sha256=sha256,
                      size_bytes=len(made.content), animated=made.animated, frames=made.frames,
                      source_format=made.source_format, source_width=made.source_width,
                      source_height=made.source_height, source_bytes=upload.size, encoding=made.encoding,
                      quality=made.quality, created_by_user_id=actor.user_id, created_at=clock.now())
    write_atomically(path_of(sticker.organization_id, sticker.id), made.content)
    session.add(sticker)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:  # the same picture uploaded twice at once
        path_of(sticker.organization_id, sticker.id).unlink(missing_ok=True)
        raise _duplicate(None) from None
    return sticker


def do_delete(session: Session, *, actor: OrgActor, sticker_id: str) -> None:
    """The record goes; its file stays for the messages that show it."""
    session.delete(access_sticker(session, actor=actor, sticker_id=sticker_id))


def file_of(session: Session, *, actor: OrgActor, sticker_id: str) -> Path:
    """The WEBP of one of the library's stickers (404 when there is none, or its file is gone)."""
    sticker = access_sticker(session, actor=actor, sticker_id=sticker_id)
    path = path_of(sticker.organization_id, sticker.id)
    if not path.is_file():
        raise NotFound("This sticker's file is no longer on this machine.", code="sticker_file_missing")
    return path


def file_for_sending(organization_id: str, sticker_id: str) -> Path | None:
    """For the sender and the thread, outside any request: the file of the organization's sticker,
    also of one deleted since it was sent (its file stays). The path is the organization's own
    folder, so another's id finds nothing."""
    if not _ID.fullmatch(sticker_id or ""):  # a reference read from a stored payload: never a path
        return None
    path = path_of(organization_id, sticker_id)
    return path if path.is_file() else None


def _name(given: str | None, filename: str | None) -> str:
    """The name given, else the file's without its extension, else "Sticker"."""
    name = (given or "").strip() or Path(filename or "").stem
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")  # a file's name may carry anything
    return " ".join(name.split())[:NAME_MAX].strip() or "Sticker"


def _sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _duplicate(same: Sticker | None) -> Conflict:
    name = same.name if same is not None else "?"
    return Conflict(refusal("sticker_duplicate", name=name), code="sticker_duplicate",
                    stickerId=same.id if same is not None else None, errors={"file": ["Already in the library."]})
