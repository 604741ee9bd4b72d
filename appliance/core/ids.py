"""Record identifiers: UUIDv7 strings, so that ids sort in creation order (good for cursors and B-trees).

Within the process they are strictly increasing, also within one millisecond (RFC 9562's
"fixed-length dedicated counter" in the 12 bits after the time): the bot answers customers'
messages up to an id, and a later message must never sort before an earlier one."""

import os
import threading
import time
import uuid

_lock = threading.Lock()
_last = (0, 0)  # (milliseconds, counter) of the previous id


def new_id() -> str:
    global _last
    with _lock:
        millis = time.time_ns() // 1_000_000
        last_millis, counter = _last
        if millis <= last_millis:
            millis, counter = last_millis, counter + 1
            if counter > 0xFFF:  # 4,096 ids in one millisecond: borrow the next one
                millis, counter = millis + 1, 0
        else:
            counter = int.from_bytes(os.urandom(2), "big") & 0x3FF  # a random start leaves room to count
        _last = (millis, counter)
    raw = bytearray(millis.to_bytes(6, "big") + counter.to_bytes(2, "big") + os.urandom(8))
    raw[6] = (raw[6] & 0x0F) | 0x70  # version 7 (the counter's top 4 bits are always 0)
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return str(uuid.UUID(bytes=bytes(raw)))
