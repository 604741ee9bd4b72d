"""Where media files of messages live on disk (the data directory, per organization), written whole
(core/files.write_atomically: a temporary file of the writer's own, fsync, rename) before any record
names them."""

from __future__ import annotations

from pathlib import Path

from appliance.core import runtime
from appliance.core.files import write_atomically

__all__ = ["inbound_path", "upload_path", "write_atomically"]


def upload_path(organization_id: str, upload_pk: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / "uploads" / upload_pk


def inbound_path(organization_id: str, message_id: str) -> Path:
    return runtime.get().settings.data_dir / "media" / organization_id / message_id
