"""Uploaded files of the knowledge base, kept as uploaded (DATA_DIR/media/<org>/knowledge/<id>) so a
document can be read again (reprocess, a better extractor, another embedder)."""

from __future__ import annotations

from pathlib import Path

from appliance.core import runtime
from appliance.messages.media_store import write_atomically


def path_of(organization_id: str, document_id: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / "knowledge" / document_id


def write(organization_id: str, document_id: str, content: bytes) -> None:
    write_atomically(path_of(organization_id, document_id), content)


def read(organization_id: str, document_id: str) -> bytes:
    from appliance.knowledge.extraction import Unreadable
    try:
        return path_of(organization_id, document_id).read_bytes()
    except FileNotFoundError:
        raise Unreadable("The uploaded file is no longer on disk; upload it again.", code="file_missing") from None


def remove(organization_id: str, document_id: str) -> None:
    path_of(organization_id, document_id).unlink(missing_ok=True)
