"""What the network's error codes mean to a person: a short title, guidance in every language the
appliance speaks (English, Spanish) and whether retrying helps, read once from network_errors.json
beside this module (shipped in the package: the catalog is protocol knowledge, like the client)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path


@dataclass(frozen=True)
class NetworkErrorInfo:
    code: int
    title: str
    retryable: bool
    guidance: dict[str, str]  # language -> text


@cache
def catalog() -> dict[int, NetworkErrorInfo]:
    document = json.loads(Path(__file__).with_name("network_errors.json").read_text(encoding="utf-8"))
    return {item["code"]: NetworkErrorInfo(item["code"], item["title"], item["retryable"], item["guidance"])
            for item in document["errors"]}


def explain(code: int | None) -> NetworkErrorInfo:
    """The entry for `code`; codes 200-299 share 200's; an unknown code gets a generic entry."""
    known = catalog()
    if code in known:
        return known[code]
    if code is not None and 200 <= code <= 299:
        return known[200]
    generic = known[135000]
    return NetworkErrorInfo(code if code is not None else 0, f"Network error {code}", False, generic.guidance)
