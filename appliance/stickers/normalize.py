"""Pillow's part of the library: a WEBP or PNG upload (still or animated: animated WEBP, APNG) made
into what WhatsApp takes as a sticker (../shared/design/cloud-api.md 3.7): a 512×512 WEBP, the
picture fitted inside preserving its proportions on a transparent square, at most 100 KB still or
500 KB animated.

- The type is the bytes', not the name's nor the claimed type's (core/files.image_type).
- A decompression bomb is refused before anything is decoded: the header's size is checked against
  a frame's pixel limit (Pillow's own bomb error, for the biggest, is the same refusal), and an
  animation against a frame count; frames are then decoded one at a time, each shrunk at once.
- An upload that already is a sticker (a 512×512 WEBP within its limit) is kept byte for byte.
- Otherwise it is re-encoded: a still picture without loss when that fits (flat drawings, the usual
  sticker, stay crisp), else at decreasing quality; an animation at decreasing quality, all frames
  kept with their timing. What cannot get under the limit even at the lowest quality is refused with
  a sentence saying its size and the limit.

Pillow is imported here, on the first upload, never at start (tests/core/test_architecture.py).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from appliance.core.errors import Invalid, Unprocessable
from appliance.core.files import image_type
from appliance.stickers.sentences import kilobytes, refusal

SIDE = 512
STATIC_MAX_BYTES = 100 * 1024
ANIMATED_MAX_BYTES = 500 * 1024
MAX_FRAME_PIXELS = 4096 * 4096  # a frame's canvas; more is refused unread (a decompression bomb)
MAX_FRAMES = 100  # ~10 s at 10 frames a second; each kept frame is 1 MB in memory while encoding
# A still picture is tried without loss first, then from the best quality down. An animation costs
# ~30 ms a frame per try, so it tries the first, then the lowest (if even that is too big: refused),
# then those between, from the best down.
STILL_QUALITIES = (90, 80, 70, 60, 50, 40, 30, 20)
ANIMATED_QUALITIES = (75, 50, 35, 20)
_FORMATS = {"image/png": "PNG", "image/webp": "WEBP"}


@dataclass(frozen=True)
class Normalized:
    content: bytes
    animated: bool
    frames: int
    source_format: str  # PNG | WEBP
    source_width: int
    source_height: int
    encoding: str  # kept | lossless | lossy
    quality: int | None = None


def limit_for(animated: bool) -> int:
    return ANIMATED_MAX_BYTES if animated else STATIC_MAX_BYTES


def normalize(data: bytes) -> Normalized:
    """`data` as a sticker, or Invalid (not a picture of ours: 400) / Unprocessable (one that cannot
    be made a sticker: 422), each with its sentence."""
    if not data:
        raise Invalid(refusal("file_missing"), code="file_missing", errors={"file": ["Empty."]})
    source_format = _FORMATS.get(image_type(data[:16]) or "")
    if source_format is None:
        raise Invalid(refusal("unsupported_sticker_type"), code="unsupported_sticker_type",
                      errors={"file": ["Not a WEBP or PNG picture."]})
    image = _opened(data, source_format)
    width, height = image.size
    frames = getattr(image, "n_frames", 1)
    if frames > MAX_FRAMES:
        raise Unprocessable(refusal("sticker_too_many_frames", frames=frames, limit=MAX_FRAMES),
                            code="sticker_too_many_frames", frames=frames, limit=MAX_FRAMES)
    animated = frames > 1
    source = dict(animated=animated, frames=frames, source_format=source_format, source_width=width,
                  source_height=height)
    pictures, durations = _fitted_frames(image, source_format)
    if source_format == "WEBP" and (width, height) == (SIDE, SIDE) and len(data) <= limit_for(animated):
        return Normalized(content=data, encoding="kept", **source)
    content, encoding, quality = _encoded(pictures, durations, image.info.get("loop", 0), limit_for(animated))
    return Normalized(content=content, encoding=encoding, quality=quality, **source)


def _opened(data: bytes, source_format: str):
    from PIL import Image

    try:
        # Opening reads the header only. Pillow refuses twice its own limit itself (a bigger bomb
        # than ours: no size to say); between once and twice it only warns, and ours refuses below.
        image = Image.open(io.BytesIO(data), formats=(source_format,))
    except Image.DecompressionBombError:
        raise _too_many_pixels(None, None) from None
    except Exception:  # Pillow says "cannot identify", SyntaxError, OSError...: all one answer
        raise Invalid(refusal("sticker_unreadable", format=source_format), code="sticker_unreadable",
                      errors={"file": ["Damaged or cut short."]}) from None
    width, height = image.size
    if width * height > MAX_FRAME_PIXELS or not width or not height:
        raise _too_many_pixels(width, height)
    return image


def _too_many_pixels(width, height) -> Unprocessable:
    limit = MAX_FRAME_PIXELS // 1_000_000
    return Unprocessable(refusal("sticker_too_many_pixels", limit=limit), code="sticker_too_many_pixels",
                         width=width, height=height, limitPixels=MAX_FRAME_PIXELS)


def _fitted_frames(image, source_format: str) -> tuple[list, list[int]]:
    """Every frame, decoded one at a time and at once fitted on its transparent square; with each
    frame's duration in milliseconds (Pillow gives animated WEBP and APNG frames composed whole)."""
    from PIL import Image, ImageSequence

    pictures, durations = [], []
    try:
        for frame in ImageSequence.Iterator(image):
            pictures.append(_fitted(frame, Image))
            durations.append(max(int(frame.info.get("duration") or 100), 10))
    except Exception:  # a frame cut short or damaged
        raise Invalid(refusal("sticker_unreadable", format=source_format), code="sticker_unreadable",
                      errors={"file": ["Damaged or cut short."]}) from None
    return pictures, durations


def _fitted(frame, Image):
    """The frame scaled (up or down) so its longer side is 512, centred on a transparent 512×512
    square. Scaled premultiplied ("RGBa"), so transparent edges do not darken."""
    rgba = frame.convert("RGBA")
    width, height = rgba.size
    if (width, height) != (SIDE, SIDE):
        scale = SIDE / max(width, height)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        scaled = rgba.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")
        rgba = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
        rgba.paste(scaled, ((SIDE - size[0]) // 2, (SIDE - size[1]) // 2))
    return rgba


def _encoded(pictures: list, durations: list[int], loop: int, limit: int) -> tuple[bytes, str, int | None]:
    """(content, encoding, quality) of the best encoding under `limit`, or the refusal."""
    def fits(content: bytes) -> bool:
        return len(content) <= limit

    if len(pictures) == 1:
        content = _webp(pictures, durations, loop, lossless=True)
        if fits(content):
            return content, "lossless", None
        for quality in STILL_QUALITIES:  # the first that fits, from the best quality down
            content = _webp(pictures, durations, loop, quality=quality)
            if fits(content):
                return content, "lossy", quality
        raise _too_large(len(content), limit, animated=False)
    best, lowest = ANIMATED_QUALITIES[0], min(ANIMATED_QUALITIES)
    content = _webp(pictures, durations, loop, quality=best)
    if fits(content):
        return content, "lossy", best
    smallest = _webp(pictures, durations, loop, quality=lowest)
    if not fits(smallest):  # not even the lowest: nothing between will
        raise _too_large(len(smallest), limit, animated=True)
    for quality in sorted(set(ANIMATED_QUALITIES) - {best, lowest}, reverse=True):
        content = _webp(pictures, durations, loop, quality=quality)
        if fits(content):
            return content, "lossy", quality
    return smallest, "lossy", lowest


def _too_large(size: int, limit: int, *, animated: bool) -> Unprocessable:
    sentence = refusal("sticker_too_large_animated" if animated else "sticker_too_large", size=kilobytes(size),
                       limit=limit // 1024)
    return Unprocessable(sentence,
                         code="sticker_too_large", sizeBytes=size, limitBytes=limit, animated=animated)


def _webp(pictures: list, durations: list[int], loop: int, *, quality: int = 100, lossless: bool = False) -> bytes:
    out = io.BytesIO()
    if len(pictures) == 1:
        pictures[0].save(out, "WEBP", quality=quality, lossless=lossless, method=6 if not lossless else 4, exact=False)
    else:
        pictures[0].save(out, "WEBP", save_all=True, append_images=pictures[1:], duration=durations, loop=loop,
                         quality=quality, method=4, allow_mixed=False)
    return out.getvalue()
