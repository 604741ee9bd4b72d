"""JSON from outside, read within limits: nesting at most MAX_DEPTH deep (Python's parser recurses,
and '[' * 1000 ended in a RecursionError and a 500), and text that can be stored (a lone UTF-16
surrogate, legal in JSON's `\\uD800` escapes, cannot be written as UTF-8: it becomes U+FFFD).

`check_depth` runs on every JSON request body before any route reads it (http/limits.py);
`loads` is for bodies the appliance reads itself (the network's webhooks)."""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from appliance.core.errors import Invalid

MAX_DEPTH = 64
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")  # every byte that is not a bracket
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


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
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [_mend(item) for item in value]
    if isinstance(value, dict):
        return {_mend(key): _mend(item) for key, item in value.items()}
    return value


def loads(raw: bytes) -> Any:
    """A JSON document within the limits; Invalid (invalid_json, json_too_deep) otherwise."""
    check_depth(raw)
    try:
        value = json.loads(raw)
    except RecursionError:
        raise _too_deep() from None
    except (ValueError, UnicodeDecodeError):
        raise Invalid("The body is not valid JSON.", code="invalid_json") from None
    return _mend(value) if _SURROGATE_ESCAPE.search(raw) else value
