"""Media the appliance holds and the network does not have yet (the bot's images). Such a message
is stored with `payload = {"local": {"source", "id"}, "caption"?}`; just before its send the
source's resolver finds the file, it is uploaded to the sending number once (remembered as
`UploadedMedia` by content hash for 25 days: the network keeps media 30), and the network gets
`{"id": mediaId, "caption"?}`.

Sources register a resolver (`register`): the domain that owns the files knows where they are,
the sender knows nothing of it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Callable

from sqlmodel import select

from appliance.core import clock, runtime
from appliance.graph_api.client import GraphError
from appliance.messages.models import UploadedMedia
from appliance.wabas.network import graph_client

REUSE_FOR = timedelta(days=25)


@dataclass(frozen=True)
class LocalFile:
    path: Path
    mime_type: str
    filename: str


Resolver = Callable[[str, str], "LocalFile | None"]  # (organization id, the source's id)
_resolvers: dict[str, Resolver] = {}


def register(source: str, resolver: Resolver) -> None:
    _resolvers[source] = resolver


def is_local(payload) -> bool:
    return isinstance(payload, dict) and isinstance(payload.get("local"), dict)


def find(organization_id: str, local: dict) -> LocalFile | None:
    """The file a local reference names, if it is still on this machine (the thread shows it too)."""
    resolver = _resolvers.get(local.get("source"))
    found = resolver(organization_id, str(local.get("id"))) if resolver else None
    return found if found is not None and found.path.is_file() else None


def network_payload(line, payload: dict) -> dict:
    """The payload with the network's media id in place of the local reference (uploading the file
    if this number has not got it). GraphError when the network refuses the upload; a file gone
    from disk is a GraphError too (131053, "media upload error"), so the message fails with a reason."""
    found = find(line.organization_id, payload["local"])
    if found is None:
        raise GraphError(0, 131053, "The file to send is no longer on this machine.")
    content = found.path.read_bytes()
    digest = hashlib.sha256(content).hexdigest()
    media_id = _known(line, digest) or _upload(line, found, content, digest)
    return {"id": media_id, **{k: v for k, v in payload.items() if k != "local"}}


def _known(line, digest: str) -> str | None:
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.exec(select(UploadedMedia.media_id).where(
            UploadedMedia.phone_number_pk == line.phone_number_pk, UploadedMedia.sha256 == digest,
            UploadedMedia.created_at > clock.now() - REUSE_FOR).order_by(UploadedMedia.created_at.desc())).first()


def _upload(line, found: LocalFile, content: bytes, digest: str) -> str:
    media_id = graph_client().upload_media(line.token, line.phone_number_id, content, found.mime_type, found.filename)
    with runtime.get().db.unit_of_work(write=True) as session:
        session.add(UploadedMedia(organization_id=line.organization_id, phone_number_pk=line.phone_number_pk,
                                  media_id=media_id, mime_type=found.mime_type, size=len(content),
                                  filename=found.filename[:255], sha256=digest, created_at=clock.now()))
    return media_id
