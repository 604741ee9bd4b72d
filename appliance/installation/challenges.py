"""The HTTP-01 answers being given now (token -> key authorization): written by installation/acme.py
while an order is answered, read by the challenge route (installation/pages.py). Apart from acme.py
so that serving the route never imports the ACME library (loaded only with APPLIANCE_TLS=acme)."""

from __future__ import annotations

import threading

_answers: dict[str, str] = {}
_lock = threading.Lock()


def answer_for(token: str) -> str | None:
    with _lock:
        return _answers.get(token)


def give(token: str, key_authorization: str) -> None:
    with _lock:
        _answers[token] = key_authorization


def take_back(tokens: list[str]) -> None:
    with _lock:
        for token in tokens:
            _answers.pop(token, None)
