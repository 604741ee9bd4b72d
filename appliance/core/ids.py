"""Record identifiers: UUIDv7 strings, so that ids sort in creation order (good for cursors and B-trees)."""

import os
import time
import uuid


def new_id() -> str:
    millis = time.time_ns() // 1_000_000
    raw = bytearray(millis.to_bytes(6, "big") + os.urandom(10))
    raw[6] = (raw[6] & 0x0F) | 0x70  # version 7
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return str(uuid.UUID(bytes=bytes(raw)))
