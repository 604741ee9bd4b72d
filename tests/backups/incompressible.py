"""Media that gzip cannot shrink: random bytes, so an archive is as big as they are and takes as
long to write as real photos and videos (which are compressed already)."""

import os
from pathlib import Path

FILE_BYTES = 4 * 1024 * 1024


def add_media(folder: Path, total_bytes: int, *, name: str = "arrived") -> list[Path]:
    """Files of random bytes under `folder` adding up to `total_bytes`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(-(-total_bytes // FILE_BYTES)):
        path = folder / f"{name}-{index:03d}"
        path.write_bytes(os.urandom(min(FILE_BYTES, total_bytes - index * FILE_BYTES)))
        written.append(path)
    return written
