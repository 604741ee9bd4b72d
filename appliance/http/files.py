"""The one way a stored file of someone else's reaches a browser: customers' media (inbound and
sent) through the API and the inbox.

A customer chooses the bytes and the network reports whatever type they claimed, so nothing is
trusted: only raster images (and audio and video, which play in their elements and never run) keep
their type; anything else, an SVG or an HTML page included, is sent as `application/octet-stream`.
Only raster images are shown inline; everything else is an attachment (a media element still plays
an attachment: the disposition only matters when the file is opened as a page). The answer carries
`nosniff` and a CSP that runs nothing even if a browser were to render it, and is cached privately:
a customer's file is nobody else's."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from flask import Response, send_file

from appliance.core.csv_export import csv_text

INLINE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
PLAYABLE_TYPES = frozenset({"audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg", "audio/opus",
                            "video/mp4", "video/3gpp"})
HARMLESS_TYPES = frozenset({"application/pdf", "text/plain", "text/csv", "application/msword",
                            "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
                            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                            "application/vnd.openxmlformats-officedocument.presentationml.presentation"})
# Every type serve_stored_file answers with (safe_type's outcomes), for the document.
SERVED_TYPES = INLINE_TYPES | PLAYABLE_TYPES | HARMLESS_TYPES | {"application/octet-stream"}
MAX_NAME = 120
FILE_POLICY = "default-src 'none'; sandbox"


def safe_type(claimed: str | None) -> str:
    mime_type = (claimed or "").split(";")[0].strip().lower()
    return mime_type if mime_type in INLINE_TYPES | PLAYABLE_TYPES | HARMLESS_TYPES else "application/octet-stream"


def safe_name(name: str | None, fallback: str = "file") -> str:
    """A file name fit for a header: no control or format characters (CR/LF, bidi overrides), no
    path, bounded."""
    cleaned = "".join(ch for ch in (name or "") if unicodedata.category(ch)[0] != "C")
    cleaned = cleaned.replace("/", "_").replace("\\", "_").strip(" .")
    return cleaned[:MAX_NAME] or fallback


def file_answer(description: str, types=SERVED_TYPES) -> dict:
    """The document's 200 answer of a route that serves a stored file: the types it may carry."""
    return {"200": {"description": description,
                    "content": {mime_type: {"schema": {"type": "string", "format": "binary"}} for mime_type in sorted(types)}}}


def serve_stored_file(path: Path, *, claimed_type: str | None, filename: str | None,
                      max_age: int = 3600) -> Response:
    mime_type = safe_type(claimed_type)
    response = send_file(path, mimetype=mime_type, as_attachment=mime_type not in INLINE_TYPES,
                         download_name=safe_name(filename), conditional=True, max_age=max_age)
    response.cache_control.public = False
    response.cache_control.private = True
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = FILE_POLICY
    return response


def csv_attachment(filename: str, header, rows) -> Response:
    """An export as a CSV download, written by the one CSV writer (core/csv_export.py: cells a
    spreadsheet would run as formulas are made text)."""
    return Response(csv_text(header, rows), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{safe_name(filename, "export.csv")}"',
        "X-Content-Type-Options": "nosniff"})
