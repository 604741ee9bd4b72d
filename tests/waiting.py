"""The one way tests wait for work the server does in the background: ask again until it is done."""

import time


def eventually(fetch, check=bool, seconds: float = 20.0, every: float = 0.05):
    """`fetch()` again until `check(value)` holds; the value. Fails with the last value after
    `seconds`. Waiting is for outcomes, never for time to pass."""
    deadline = time.monotonic() + seconds
    while True:
        value = fetch()
        if check(value):
            return value
        assert time.monotonic() < deadline, f"not reached in {seconds} s: {value!r}"
        time.sleep(every)
