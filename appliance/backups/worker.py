"""The archive is written by a process of its own (`appliance backup-worker`), not by a thread of the
server: compressing and hashing a gigabyte in a thread took the server's interpreter lock from its
requests (inbound webhooks kept 61% of their rate, and the backup took 63 s; bench_backup.py), and a
lower priority for the thread only starved the backup (240 s). A process takes another core.

The parent (`write_in_child`) hands the job as JSON on the child's standard input: the database and
queue to copy, the media folder, where to write, and the manifest's header (the secret key already
sealed: the child never reads it). The child copies the database and the queue (SQLite's online
backup API), lists the media, writes the archive to the `.partial` path, and says on its standard
output `progress <percent>` as it goes, then `done <json>` (size, sha256), or `error <json: errno,
filename, message>` when the system refused (a full disk), `failed <what>` for anything else. It stops as soon as its parent is gone,
removing what it wrote (a server killed during a backup leaves no archive finished by an orphan)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

from appliance.backups import archive
from appliance.core import lifecycle


# Below the server's requests when both want a core; alone on an idle core it runs at full speed.
# bench_backup.py (2 cores, its webhook senders taking one): nice 0 made the backup in 25 s with 55-83%
# of the inbound rate kept, nice 10 in 124 s with 91%, nice 5 in 54 s with 78%.
NICENESS = 5


class ParentGone(Exception):
    pass


def write_in_child(*, database: Path, queue: Path, media_dir: Path, staging: Path, partial: Path, header: dict,
                   on_progress: Callable[[int], None]) -> archive.Written:
    """Run the child to its end: the archive written to `partial` (the caller renames it), or the
    child's OSError raised here, or RuntimeError with what it printed."""
    job = {"database": str(database), "queue": str(queue), "mediaDir": str(media_dir), "staging": str(staging),
           "partial": str(partial), "header": header}
    child = subprocess.Popen([*lifecycle.program_command(), "backup-worker"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, encoding="utf-8")
    child.stdin.write(json.dumps(job))
    child.stdin.close()
    result, failure = None, None
    for line in child.stdout:
        word, _, rest = line.rstrip("\n").partition(" ")
        if word == "progress":
            on_progress(int(rest))
        elif word == "done":
            result = json.loads(rest)
        elif word == "error":
            failure = json.loads(rest)
        elif word == "failed":
            failure = {"what": json.loads(rest)}
    code = child.wait()
    if failure is not None and "what" in failure:
        raise RuntimeError(failure["what"])
    if failure is not None:
        raise OSError(failure["errno"], failure["message"], failure["filename"])
    if code != 0 or result is None:
        raise RuntimeError(f"the backup's process ended with code {code}")
    return archive.Written(manifest=result["manifest"], size=result["size"], sha256=result["sha256"])


def _say(word: str, value) -> None:
    try:
        sys.stdout.write(f"{word} {value if isinstance(value, int) else json.dumps(value)}\n")
        sys.stdout.flush()
    except BrokenPipeError:  # nobody reads: the parent is gone (killed between two looks)
        raise ParentGone() from None


def main() -> int:
    """The child's side (the CLI's hidden `backup-worker` command)."""
    job = json.loads(sys.stdin.read())
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    parent = os.getppid()
    staging, partial = Path(job["staging"]), Path(job["partial"])
    told = [-1]

    def progress(percent: int) -> None:
        if os.getppid() != parent:
            raise ParentGone()
        if percent != told[0]:
            told[0] = percent
            _say("progress", percent)

    try:
        archive.snapshot(Path(job["database"]), staging / archive.DATABASE)
        archive.snapshot(Path(job["queue"]), staging / archive.QUEUE)
        media = archive.list_media(Path(job["mediaDir"]))
        total = max(1, sum((staging / name).stat().st_size for name in (archive.DATABASE, archive.QUEUE))
                    + sum(item.size for item in media))
        written = archive.write(partial, database=staging / archive.DATABASE, queue=staging / archive.QUEUE,
                                media=media, header=job["header"],
                                progress=lambda done: progress(min(99, done * 100 // total)))
    except ParentGone:
        return _abandon(partial, staging)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        return _tell_failure("error", {"errno": exc.errno, "message": exc.strerror or str(exc),
                                       "filename": exc.filename}, partial, staging)
    except Exception as exc:  # noqa: BLE001 -- the parent records it as the backup's reason
        partial.unlink(missing_ok=True)
        return _tell_failure("failed", f"{type(exc).__name__}: {exc}", partial, staging)
    try:
        _say("done", {"manifest": written.manifest, "size": written.size, "sha256": written.sha256})
    except ParentGone:
        return _abandon(partial, staging)
    return 0


def _abandon(partial: Path, staging: Path) -> int:
    """The server was killed: what would finish an archive nobody records goes."""
    partial.unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)
    return 1


def _tell_failure(word: str, what, partial: Path, staging: Path) -> int:
    try:
        _say(word, what)
    except ParentGone:
        return _abandon(partial, staging)
    return 1
