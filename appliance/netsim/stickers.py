"""What the network requires of a sticker (../shared/design/cloud-api.md 3.7): a WEBP of 512×512,
at most 100 KB still or 500 KB animated. Read from the file's own header, as the network reads it
(the simulator has no imaging library): the RIFF container's first chunk says the size and, for an
extended file (VP8X), whether it is animated."""

from __future__ import annotations

from dataclasses import dataclass

SIDE = 512
STATIC_MAX_BYTES = 100 * 1024
ANIMATED_MAX_BYTES = 500 * 1024


@dataclass(frozen=True)
class WebpFacts:
    width: int
    height: int
    animated: bool


def webp_facts(content: bytes) -> WebpFacts | None:
    """The canvas and whether it moves, or None when `content` is not a WEBP file."""
    if len(content) < 30 or content[:4] != b"RIFF" or content[8:12] != b"WEBP":
        return None
    chunk, data = content[12:16], content[20:30]
    if chunk == b"VP8X":  # extended: flags, then the canvas's width and height less one (24 bits each)
        return WebpFacts(1 + int.from_bytes(data[4:7], "little"), 1 + int.from_bytes(data[7:10], "little"),
                         animated=bool(data[0] & 0x02))
    if chunk == b"VP8 " and data[3:6] == b"\x9d\x01\x2a":  # lossy: a key frame's start code, then 14-bit sizes
        return WebpFacts(int.from_bytes(data[6:8], "little") & 0x3FFF, int.from_bytes(data[8:10], "little") & 0x3FFF,
                         animated=False)
    if chunk == b"VP8L" and data[0] == 0x2F:  # lossless: a signature byte, then 14-bit sizes less one
        bits = int.from_bytes(data[1:5], "little")
        return WebpFacts(1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF), animated=False)
    return None


def sticker_problem(content: bytes, mime_type: str) -> str | None:
    """Why the network would not send this file as a sticker, or None when it would."""
    facts = webp_facts(content) if mime_type == "image/webp" else None
    if facts is None:
        return f"A sticker must be an image/webp file, not {mime_type}"
    if (facts.width, facts.height) != (SIDE, SIDE):
        return f"A sticker must be {SIDE}x{SIDE} pixels, not {facts.width}x{facts.height}"
    limit = ANIMATED_MAX_BYTES if facts.animated else STATIC_MAX_BYTES
    if len(content) > limit:
        kind = "an animated" if facts.animated else "a static"
        return f"{kind.capitalize()} sticker may be at most {limit // 1024} KB, not {len(content) // 1024} KB"
    return None
