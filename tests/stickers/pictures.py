"""Pictures the sticker tests upload, drawn by Pillow: flat drawings (what stickers usually are),
noise (what no encoder can make small), animations, and files that only pretend."""

from __future__ import annotations

import io
import os
import struct
import zlib

from PIL import Image, ImageDraw


def drawing(width: int, height: int, *, fmt: str = "PNG") -> bytes:
    """A yellow disc on a transparent background."""
    picture = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(picture).ellipse((width // 10, height // 10, width * 9 // 10, height * 9 // 10),
                                    fill=(250, 200, 0, 255))
    return _saved(picture, fmt)


def noise(width: int, height: int, *, fmt: str = "PNG") -> bytes:
    """Random pixels: the worst case for every encoder."""
    return _saved(Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)), fmt)


def animation(frames: int, width: int = 600, height: int = 600, *, noisy: bool = False, fmt: str = "WEBP",
              duration: int = 80) -> bytes:
    """A disc moving across a transparent square, changing colour (the encoder would merge frames
    that do not differ), or, `noisy`, frames of random pixels."""
    pictures = []
    for i in range(frames):
        if noisy:
            picture = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)).convert("RGBA")
        else:
            picture = Image.new("RGBA", (width, height), (0, 0, 0, 0))
            step = i * width // (2 * frames)
            ImageDraw.Draw(picture).ellipse((step, step, step + width // 2, step + height // 2), fill=(220, i * 37 % 256, 60, 255))
        pictures.append(picture)
    out = io.BytesIO()
    options = {"quality": 90} if fmt == "WEBP" else {}
    pictures[0].save(out, fmt, save_all=True, append_images=pictures[1:], duration=duration, loop=0, **options)
    return out.getvalue()


def claimed_png(width: int, height: int) -> bytes:
    """A PNG whose header claims `width`×`height` (a decompression bomb's header) over a few bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def opened(content: bytes) -> Image.Image:
    return Image.open(io.BytesIO(content))


def _saved(picture: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    picture = picture.convert("RGB") if fmt == "JPEG" else picture
    picture.save(out, fmt, **({"quality": 95} if fmt in ("WEBP", "JPEG") else {}))
    return out.getvalue()
