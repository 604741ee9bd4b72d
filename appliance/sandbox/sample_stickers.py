"""The stickers the sandbox's simulated customer can send (so a sticker goes both ways with no phone):
drawn by Pillow on first use, kept in memory, each as WhatsApp sends stickers (a 512×512 WEBP on a
transparent background): a still smiling face and an animated beating heart."""

from __future__ import annotations

import io
import math
from functools import cache

SIDE = 512
SAMPLES = ("smile", "heart")  # the heart moves


@cache
def webp(sample: str) -> bytes:
    """The sample's file; KeyError for a name that is none."""
    return {"smile": _smile, "heart": _heart}[sample]()


def _smile() -> bytes:
    from PIL import Image, ImageDraw

    picture = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(picture)
    draw.ellipse((24, 24, 488, 488), fill=(255, 204, 41, 255), outline=(120, 80, 0, 255), width=14)
    draw.ellipse((160, 150, 210, 230), fill=(60, 40, 0, 255))
    draw.ellipse((302, 150, 352, 230), fill=(60, 40, 0, 255))
    draw.arc((130, 180, 382, 400), start=20, end=160, fill=(60, 40, 0, 255), width=22)
    out = io.BytesIO()
    picture.save(out, "WEBP", lossless=True)
    return out.getvalue()


def _heart() -> bytes:
    """The classic heart curve (x = 16 sin³t, y = 13 cos t − 5 cos 2t − 2 cos 3t − cos 4t), beating."""
    from PIL import Image, ImageDraw

    curve = [(16 * math.sin(t) ** 3, 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
             for t in (2 * math.pi * i / 120 for i in range(120))]
    frames = []
    for scale in (0.78, 0.86, 0.95, 1.0, 0.92, 0.84):
        frame = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
        unit = 14 * scale  # the curve is 32 wide: 448 pixels at full size
        ImageDraw.Draw(frame).polygon([(SIDE / 2 + x * unit, SIDE / 2 - 20 - y * unit) for x, y in curve],
                                      fill=(230, 40, 70, 255))
        frames.append(frame)
    out = io.BytesIO()
    frames[0].save(out, "WEBP", save_all=True, append_images=frames[1:], duration=120, loop=0, quality=80)
    return out.getvalue()
