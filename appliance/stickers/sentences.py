"""What the library says, in the language being spoken: what normalization did to an upload (the
console shows it under each sticker, the API answers it as `normalization`), and why an upload was
refused (the problem's `detail`; its numbers are also the problem's own members)."""

from __future__ import annotations

from appliance.core.i18n import _l

# What was done, by (change of size, encoding). "kept": the upload already was a sticker.
DONE = {
    "kept": _l("Kept as uploaded: already a 512×512 WEBP of {size} KB."),
    ("resized", "lossless"): _l("Resized from {width}×{height} to fit 512×512 and re-encoded as WEBP without loss: "
                                "{size} KB."),
    ("resized", "lossy"): _l("Resized from {width}×{height} to fit 512×512 and re-encoded as WEBP at quality "
                             "{quality}: {size} KB."),
    ("enlarged", "lossless"): _l("Enlarged from {width}×{height} to fit 512×512 and re-encoded as WEBP without loss: "
                                 "{size} KB."),
    ("enlarged", "lossy"): _l("Enlarged from {width}×{height} to fit 512×512 and re-encoded as WEBP at quality "
                              "{quality}: {size} KB."),
    ("centred", "lossless"): _l("Centred from {width}×{height} on a transparent 512×512 square and re-encoded as "
                                "WEBP without loss: {size} KB."),
    ("centred", "lossy"): _l("Centred from {width}×{height} on a transparent 512×512 square and re-encoded as WEBP "
                             "at quality {quality}: {size} KB."),
    ("same", "lossless"): _l("Re-encoded from {format} as WEBP without loss: {size} KB."),
    ("same", "lossy"): _l("Re-encoded from {format} as WEBP at quality {quality}: {size} KB."),
}
ANIMATED = _l("Animated, {frames} frames.")

REFUSED = {
    "file_missing": _l("The file is empty."),
    "unsupported_sticker_type": _l("A sticker is a WEBP or PNG picture; this file is not one (it was recognized by "
                                   "its content, not its name)."),
    "sticker_unreadable": _l("This {format} file is damaged or cut short: it cannot be read."),
    "sticker_too_many_pixels": _l("The picture is too big to read safely: at most {limit} million pixels a frame "
                                  "(4096×4096). Make it smaller first."),
    "sticker_too_many_frames": _l("The animation has {frames} frames; a sticker may have at most {limit}."),
    "sticker_too_large": _l("Even at the lowest quality this sticker is {size} KB, and WhatsApp takes at most "
                            "{limit} KB for a still sticker. Use fewer colours or a simpler picture."),
    "sticker_too_large_animated": _l("Even at the lowest quality this animated sticker is {size} KB, and WhatsApp "
                                     "takes at most {limit} KB for an animated sticker. Use fewer frames, fewer "
                                     "colours or a shorter animation."),
    "sticker_duplicate": _l("This sticker is already in the library as “{name}”."),
}


def kilobytes(size: int) -> int:
    return -(-size // 1024)


def what_was_done(sticker) -> str:
    """One sentence (two for an animation) saying what became of the upload."""
    size = kilobytes(sticker.size_bytes)
    if sticker.encoding == "kept":
        said = DONE["kept"].format(size=size)
    else:
        change = _change(sticker.source_width, sticker.source_height)
        said = DONE[(change, sticker.encoding)].format(width=sticker.source_width, height=sticker.source_height,
                                                       format=sticker.source_format, quality=sticker.quality,
                                                       size=size)
    return f"{ANIMATED.format(frames=sticker.frames)} {said}" if sticker.animated else said


def _change(width: int, height: int) -> str:
    longest = max(width, height)
    if longest == 512:
        return "same" if width == height else "centred"
    return "resized" if longest > 512 else "enlarged"


def refusal(code: str, **facts) -> str:
    return REFUSED[code].format(**facts)
