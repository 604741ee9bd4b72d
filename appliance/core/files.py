"""Files the appliance receives and keeps: uploads spooled to disk as they arrive, and stored files
written whole.

An upload is never held whole in memory: the request's body goes, piece by piece, into a temporary
file under DATA_DIR/tmp (`spool`; not the system's /tmp, which is memory on many Linux systems), and
services read it through an `Upload`: its first bytes to recognize it, its pieces to hash, store or
send it. A stored file is written under a temporary name of its own in its folder, synced, then
renamed over its place (`write_atomically`), so a reader finds the old file or the new one whole,
and two writers of one file (two fetches of one inbound media) never share a temporary file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from appliance.core import runtime

CHUNK = 64 * 1024
# Below this an upload stays in memory (werkzeug's own threshold); above, it is on disk.
SPOOL_IN_MEMORY_BYTES = 500 * 1024


def spool_dir() -> Path:
    folder = runtime.get().settings.data_dir / "tmp"
    folder.mkdir(exist_ok=True)
    return folder


def spool() -> BinaryIO:
    """An anonymous temporary file for an incoming body: gone when closed, or when the process ends."""
    return tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY_BYTES, mode="w+b", dir=spool_dir())


@dataclass
class Upload:
    """A received file: a readable, seekable file (in memory when small, on disk otherwise), its
    size and what the sender said it is."""

    file: BinaryIO
    size: int
    content_type: str | None = None
    filename: str | None = None

    def head(self, size: int) -> bytes:
        self.file.seek(0)
        return self.file.read(size)

    def chunks(self) -> Iterator[bytes]:
        self.file.seek(0)
        while piece := self.file.read(CHUNK):
            yield piece

    def read(self) -> bytes:
        """The whole file, for the small ones a parser needs whole (a CSV, a picture of ≤ 5 MB)."""
        self.file.seek(0)
        return self.file.read()

    def sha256(self) -> str:
        digest = hashlib.sha256()
        for piece in self.chunks():
            digest.update(piece)
        return digest.hexdigest()

    def opened(self) -> BinaryIO:
        """The file at its start, for a reader that takes a file (a PDF or zip library, an HTTP body)."""
        self.file.seek(0)
        return self.file


@contextmanager
def writing(path: Path) -> Iterator[BinaryIO]:
    """A file to write `path` through: a temporary file of this call's own in the same folder,
    synced and renamed over `path` when the block ends, removed if it raises."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_atomically(path: Path, content: bytes | Upload | BinaryIO) -> None:
    """Write `content` (bytes, an upload, or a file read from where it stands) to `path` whole."""
    with writing(path) as out:
        if isinstance(content, (bytes, bytearray, memoryview)):
            out.write(content)
        else:
            pieces = content.chunks() if isinstance(content, Upload) else iter(lambda: content.read(CHUNK), b"")
            for piece in pieces:
                out.write(piece)


def image_type(head: bytes) -> str | None:
    """The picture type (JPEG, PNG or WEBP) the first bytes of a file are, whatever it claims."""
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def picture_or_pdf_type(head: bytes) -> str | None:
    """image_type, or application/pdf (a voucher, a scan): what a person attaches as proof."""
    return "application/pdf" if head.startswith(b"%PDF-") else image_type(head)
