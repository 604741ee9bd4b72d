"""Stickers of the organization's library (appliance/stickers), sent as WhatsApp sticker messages,
never as images: the queued message names the sticker (`type: sticker`, payload
`{"local": {"source": "sticker", "id"}}`), and just before its send local_media.py uploads its
WEBP to the sending number (once: remembered by content hash) and the network gets
`{"type": "sticker", "sticker": {"id": mediaId}}`. The thread shows the same file (media_files.py).

Messages use the library, the library knows nothing of messages: this is where the two meet."""

from __future__ import annotations

from sqlmodel import Session

from appliance.core.actor import OrgActor
from appliance.messages.sending import local_media
from appliance.stickers import service as stickers

SOURCE = "sticker"


def reference(session: Session, *, actor: OrgActor, sticker_id: str) -> dict:
    """What a queued message carries to send one of the library's stickers (404 sticker_not_found
    for another organization's or a deleted one)."""
    sticker = stickers.access_sticker(session, actor=actor, sticker_id=sticker_id)
    return {"source": SOURCE, "id": sticker.id}


def _resolve(organization_id: str, sticker_id: str) -> local_media.LocalFile | None:
    """For the sender and the thread, outside any request: also a sticker deleted since (its file
    stays)."""
    path = stickers.file_for_sending(organization_id, sticker_id)
    return local_media.LocalFile(path, stickers.MIME_TYPE, path.name) if path is not None else None


local_media.register(SOURCE, _resolve)
