"""Uploaded files of the knowledge base, kept as uploaded (DATA_DIR/media/<org>/knowledge/<id>) so a
document can be read again (reprocess, a better extractor, another embedder)."""

from __future__ import annotations

from pathlib import Path

from appliance.core import runtime
from appliance.core.files import Upload
from appliance.messages.media_store import write_atomically


def path_of(organization_id: str, document_id: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / "knowledge" / document_id


def write(organization_id: str, document_id: str, upload: Upload) -> None:
    """Copied from where the request spooled it, piece by piece."""
    write_atomically(path_of(organization_id, document_id), upload)


def stored(organization_id: str, document_id: str) -> Path:
    """The stored file's path, for the extractors to read from disk."""
    from appliance.knowledge.extraction import Unreadable
    path = path_of(organization_id, document_id)
    if not path.is_file():
        raise Unreadable("The uploaded file is no longer on disk; upload it again.", code="file_missing")
    return path


def remove(organization_id: str, document_id: str) -> None:
    path_of(organization_id, document_id).unlink(missing_ok=True)
