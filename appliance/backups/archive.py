"""The backup archive: one tar.gz that an installation is rebuilt from.

Its members, in this order:
- `appliance.db`, the database, and `queue.db`, the task queue: each copied beforehand with SQLite's
  online backup API in one step, a consistent snapshot while requests go on writing (WAL: the copy
  blocks no writer). The full-text and vector tables are ordinary pages to it.
- `media/...`: every stored file (customers' media, uploads, knowledge documents, bots' images).
- `manifest.json`, last: the format, the program's version, the schema's revision, when and why it was
  made, the secret key sealed under the backup key, and every member's size and sha256. Last because
  hashes are known once written, and because media keep arriving during a backup: a file removed
  after the listing is left out, not named and missing.

gzip at level 1, written and read by ISA-L (python-isal's igzip; the same gzip format): zlib's level 1
compressed a 1 GB database in 7.6 s and 300 MB of photos in 8.9 s, ISA-L's in 1.8 s and 0.9 s (to 17%
of the database's size either way); it also reads 1.4 times as fast.

Reading checks everything before anything is used: each member's name (only the three kinds above,
no absolute path, no `..`, no links), its bytes against the manifest's hash, and that nothing named is
missing; a damaged or cut-short archive is refused in words (`ArchiveRefused`).
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import io
import json
import os
import tarfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Callable, Iterator

import pysqlite3.dbapi2 as sqlite
from isal import igzip, isal_zlib

FORMAT = 1
MANIFEST = "manifest.json"
DATABASE = "appliance.db"
QUEUE = "queue.db"
MEDIA = "media"
CHUNK = 1024 * 1024
MANIFEST_MAX_BYTES = 64 * 1024 * 1024  # 10,000 media files name ~1.5 MB of hashes

Progress = Callable[[int], None]  # bytes archived (or read) so far


class ArchiveRefused(Exception):
    """An archive that cannot be restored, and why, in a sentence for the person restoring."""


def snapshot(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite database `source` at `target`, taken in one step of the
    online backup API (a stepwise copy restarts whenever another connection writes)."""
    source_connection = sqlite.connect(str(source), check_same_thread=False)
    try:
        source_connection.execute("PRAGMA busy_timeout=5000")
        target_connection = sqlite.connect(str(target))
        try:
            source_connection.backup(target_connection)
        finally:
            target_connection.close()
    finally:
        source_connection.close()


@dataclass(frozen=True)
class MediaFile:
    name: str  # the member's name, media/<relative path>
    path: Path
    size: int


def list_media(media_dir: Path) -> list[MediaFile]:
    """The stored files under `media_dir`, sorted (symbolic links are not followed: none is made)."""
    if not media_dir.is_dir():
        return []
    found = []
    for folder, _dirs, names in os.walk(media_dir):
        for name in names:
            path = Path(folder, name)
            if name.startswith(".") and name.endswith(".part"):
                continue  # a file being written (core/files.writing): its final name comes later
            try:
                stat = path.lstat()
            except FileNotFoundError:
                continue
            if path.is_symlink() or not path.is_file():
                continue
            found.append(MediaFile(f"{MEDIA}/{path.relative_to(media_dir).as_posix()}", path, stat.st_size))
    return sorted(found, key=lambda media: media.name)


class _HashingReader(io.RawIOBase):
    """Reads a file for tarfile while hashing it and telling the progress."""

    def __init__(self, handle: BinaryIO, progress: Progress, done: list[int]):
        self._handle, self._progress, self._done = handle, progress, done
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        piece = self._handle.read(size)
        self.digest.update(piece)
        self._done[0] += len(piece)
        self._progress(self._done[0])
        return piece


class _HashingWriter(io.RawIOBase):
    """The archive file as written: its sha256 comes out of the same pass."""

    def __init__(self, handle: BinaryIO):
        self._handle = handle
        self.digest = hashlib.sha256()
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self._handle.write(data)
        self.digest.update(data)
        self.size += len(data)
        return len(data)


def _tar_info(name: str, size: int, mtime: float) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = size, int(mtime), 0o600
    return info


@dataclass(frozen=True)
class Written:
    manifest: dict
    size: int
    sha256: str


def write(target: Path, *, database: Path, queue: Path, media: list[MediaFile], header: dict,
          progress: Progress = lambda _done: None) -> Written:
    """Write the archive to `target` (a new file, synced): the snapshots `database` and `queue`,
    the `media` files still there, and the manifest (`header` plus the members' hashes)."""
    members: dict[str, dict] = {}
    done = [0]
    with open(target, "xb") as raw:
        hashing = _HashingWriter(raw)
        with igzip.IGzipFile(fileobj=hashing, mode="wb", compresslevel=1) as compressed, \
                io.BufferedWriter(compressed, CHUNK) as buffered, \
                tarfile.open(fileobj=buffered, mode="w", format=tarfile.PAX_FORMAT) as tar:
            tar.copybufsize = CHUNK  # tarfile's default 16 KB: a round trip through Python every 16 KB
            sources = [(DATABASE, database), (QUEUE, queue)] + [(item.name, item.path) for item in media]
            for name, path in sources:
                try:
                    handle = open(path, "rb")
                except FileNotFoundError:
                    continue  # a media file deleted since the listing
                with handle:
                    stat = os.fstat(handle.fileno())
                    reader = _HashingReader(handle, progress, done)
                    tar.addfile(_tar_info(name, stat.st_size, stat.st_mtime), reader)
                    members[name] = {"size": stat.st_size, "sha256": reader.digest.hexdigest()}
            manifest = {**header, "format": FORMAT, "members": members}
            body = json.dumps(manifest, indent=1, sort_keys=True).encode()
            tar.addfile(_tar_info(MANIFEST, len(body), _created_at(header)), io.BytesIO(body))
        raw.flush()
        os.fsync(raw.fileno())
    return Written(manifest=manifest, size=hashing.size, sha256=hashing.digest.hexdigest())


def _created_at(header: dict) -> float:
    created = header.get("createdAt")
    return datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp() if created else 0


def _member_path(name: str) -> PurePosixPath:
    """The member's path if it is one an archive of ours may hold; ArchiveRefused otherwise."""
    path = PurePosixPath(name)
    plain = not path.is_absolute() and ".." not in path.parts and "\\" not in name and path.parts
    if plain and (name in (DATABASE, QUEUE, MANIFEST) or (path.parts[0] == MEDIA and len(path.parts) > 1)):
        return path
    raise ArchiveRefused(f"The archive holds {name!r}, which no backup of this program holds: it is not one, "
                         "or it was changed.")


def _pieces(handle: BinaryIO) -> Iterator[bytes]:
    while piece := handle.read(CHUNK):
        yield piece


class _CountingReader(io.RawIOBase):
    """The archive file as tarfile reads it, telling how far in it is (compressed bytes: the share
    of the file read, which a progress bar can show against the file's size)."""

    def __init__(self, handle: BinaryIO, progress: Progress):
        self._handle, self._progress, self._done = handle, progress, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = self._handle.readinto(buffer)
        self._done += count or 0
        self._progress(self._done)
        return count


def extract(archive: Path, staging: Path, *, progress: Progress = lambda _done: None) -> dict:
    """Unpack `archive` into the empty folder `staging` and answer its manifest, once every member
    is proven whole against it; `progress` hears how many of the archive's bytes were read. Raises
    ArchiveRefused (and leaves whatever was unpacked for the caller to remove) for an archive that
    is not ours, damaged, cut short, or bigger than the disk."""
    found: dict[str, dict] = {}
    manifest = None
    try:
        with open(archive, "rb") as raw, \
                igzip.IGzipFile(fileobj=io.BufferedReader(_CountingReader(raw, progress), CHUNK), mode="rb") as unpacked, \
                tarfile.open(fileobj=unpacked, mode="r|") as tar:  # one pass, in the order written
            for member in tar:
                path = _member_path(member.name)
                if not member.isfile():
                    raise ArchiveRefused(f"The archive's {member.name!r} is not a plain file: it is not a backup "
                                         "of this program, or it was changed.")
                source = tar.extractfile(member)
                if member.name == MANIFEST:
                    if member.size > MANIFEST_MAX_BYTES:
                        raise ArchiveRefused("The archive's manifest is too large to be one of ours.")
                    manifest = _parse_manifest(source.read())
                    continue
                target = staging.joinpath(*path.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                digest = hashlib.sha256()
                with open(target, "xb") as out:
                    for piece in _pieces(source):
                        digest.update(piece)
                        out.write(piece)
                found[member.name] = {"size": member.size, "sha256": digest.hexdigest()}
    except (tarfile.TarError, EOFError, isal_zlib.error, gzip.BadGzipFile) as exc:
        raise ArchiveRefused(f"The archive is damaged or cut short ({exc}): download it again, or use another.") from None
    except FileExistsError:
        raise ArchiveRefused("The archive names one file twice: it was changed.") from None
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise ArchiveRefused(f"There is not enough free space to unpack the archive next to the data "
                                 f"({staging.parent}); free some and try again.") from None
        raise
    if manifest is None:
        raise ArchiveRefused("The archive has no manifest: it is not a backup of this program, or it was cut short.")
    _check_members(manifest, found)
    return manifest


def _parse_manifest(body: bytes) -> dict:
    try:
        manifest = json.loads(body)
    except ValueError:
        raise ArchiveRefused("The archive's manifest is not readable: it was changed or damaged.") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("members"), dict):
        raise ArchiveRefused("The archive's manifest is not one of this program's.")
    if manifest.get("format") != FORMAT:
        raise ArchiveRefused(f"The archive is in format {manifest.get('format')!r}, which this version of the "
                             f"program does not read (it reads format {FORMAT}): restore it with a newer version.")
    return manifest


def _check_members(manifest: dict, found: dict[str, dict]) -> None:
    expected = manifest["members"]
    for name in (DATABASE, QUEUE):
        if name not in expected:
            raise ArchiveRefused(f"The archive's manifest does not name {name}: it is not a whole backup.")
    missing = sorted(set(expected) - set(found))
    if missing:
        raise ArchiveRefused(f"The archive lacks {len(missing)} of the files its manifest names (the first: "
                             f"{missing[0]}): it was cut short or changed.")
    for name, seen in found.items():
        if expected.get(name) != seen:
            raise ArchiveRefused(f"The archive's {name} is not the file its manifest names (its hash differs): "
                                 "the archive was damaged or changed.")


def read_manifest(archive: Path) -> dict:
    """The manifest alone (the whole archive is read to reach it, and nothing is written)."""
    try:
        with igzip.open(archive, "rb") as unpacked, tarfile.open(fileobj=unpacked, mode="r|") as tar:
            for member in tar:
                if member.name == MANIFEST and member.isfile() and member.size <= MANIFEST_MAX_BYTES:
                    return _parse_manifest(tar.extractfile(member).read())
    except (tarfile.TarError, EOFError, isal_zlib.error, gzip.BadGzipFile) as exc:
        raise ArchiveRefused(f"The archive is damaged or cut short ({exc}).") from None
    raise ArchiveRefused("The archive has no manifest: it is not a backup of this program.")
