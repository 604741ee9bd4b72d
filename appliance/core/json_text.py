"""JSON from outside, read within limits: nesting at most MAX_DEPTH deep (Python's parser recurses,
and '[' * 1000 ended in a RecursionError and a 500), numbers JSON can hold (Python also reads NaN,
Infinity and 1e400, as inf: PostgreSQL's json column and every JSON reader refuse them), and text
that can be stored on either engine: a lone UTF-16 surrogate (legal in JSON's `\\uD800` escapes)
cannot be written as UTF-8, and PostgreSQL's text cannot hold U+0000 (`\\u0000`; SQLite's can):
both become U+FFFD.

`check_depth` runs on every JSON request body before any route reads it (http/limits.py);
`loads` is for bodies the appliance reads itself (the network's webhooks)."""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from appliance.core.errors import Invalid

MAX_DEPTH = 64
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")  # every byte that is not a bracket
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# The escapes of what cannot be stored (a lone surrogate may hide among these, a NUL is this); an
# escaped backslash before `u0000` matches too, and only costs a walk that changes nothing.
_UNSTORABLE_ESCAPE = re.compile(rb"\\u(?:[dD][89a-fA-F]|0000)")


def _too_deep() -> Invalid:
    return Invalid(f"The JSON body is nested more than {MAX_DEPTH} levels deep.", code="json_too_deep")


def check_depth(raw: bytes) -> None:
    """Invalid (json_too_deep) when the document nests deeper than MAX_DEPTH; linear, at C speed
    (brackets inside strings are not counted)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return  # cannot be deeper than the brackets it has
    brackets = _STRINGS.sub(b"", raw).translate(None, _BRACKETS)
    if brackets and max(accumulate(map(_STEP.__getitem__, brackets))) > MAX_DEPTH:
        raise _too_deep()


def _mend(value: Any) -> Any:
    """Texts with what cannot be stored replaced, not refused: a webhook of the network is
    acknowledged once stored, and a refusal would lose the message its other texts carry (the
    network gives up after its retries). U+FFFD shows a reader that something was there; the same
    on both engines, so a database moved from SQLite to PostgreSQL holds nothing the latter refuses."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace").replace("\x00", "\ufffd")
    if isinstance(value, list):
        return [_mend(item) for item in value]
    if isinstance(value, dict):
        return {_mend(key): _mend(item) for key, item in value.items()}
    return value


class _NotFinite(ValueError):
    pass


def _not_a_json_number(constant: str) -> float:
    raise _NotFinite(constant)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e400
        raise _NotFinite(text)
    return number


def loads(raw: bytes) -> Any:
    """A JSON document within the limits; Invalid (invalid_json, json_too_deep) otherwise."""
    check_depth(raw)
    try:
        value = json.loads(raw, parse_constant=_not_a_json_number, parse_float=_finite)
    except RecursionError:
        raise _too_deep() from None
    except _NotFinite as error:
        raise Invalid(f"The body is not valid JSON: {str(error)[:40]} is not a finite number.",
                      code="invalid_json") from None
    except (ValueError, UnicodeDecodeError):
        raise Invalid("The body is not valid JSON.", code="invalid_json") from None
    return _mend(value) if _UNSTORABLE_ESCAPE.search(raw) else value
