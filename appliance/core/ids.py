"""Record identifiers: UUIDv7 strings, so that ids sort in creation order (good for cursors and B-trees).

Within the process they are strictly increasing, also within one millisecond (RFC 9562's
"fixed-length dedicated counter" in the 12 bits after the time): the bot answers customers'
messages up to an id, and a later message must never sort before an earlier one."""

import os
import threading
import time

_lock = threading.Lock()
_last = (0, 0)  # (milliseconds, counter) of the previous id


def new_id() -> str:
    global _last
    random = os.urandom(10)  # one system call for the counter's start and the 62 random bits
    with _lock:
        millis = time.time_ns() // 1_000_000
        last_millis, counter = _last
        if millis <= last_millis:
            millis, counter = last_millis, counter + 1
            if counter > 0xFFF:  # 4,096 ids in one millisecond: borrow the next one
                millis, counter = millis + 1, 0
        else:
            counter = int.from_bytes(random[:2], "big") & 0x3FF  # a random start leaves room to count
        _last = (millis, counter)
    # Written as text directly (version 7, the RFC 4122 variant): a uuid.UUID object and its str()
    # were a third of the cost, and every message, event and delivery takes ids.
    variant = 0x8000 | (int.from_bytes(random[2:4], "big") & 0x3FFF)
    digits = f"{millis:012x}{0x7000 | counter:04x}{variant:04x}{random[4:].hex()}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"
