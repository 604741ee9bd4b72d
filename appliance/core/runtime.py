"""The process-wide services built once from settings: database, keyring, mailer settings.

`appliance.app.create_app` (and the CLI) build a Runtime and install it; Huey tasks and
services that need configuration read it here instead of from Flask, so they run the same
inside a request, in the queue consumer and in the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from appliance.core.crypto import Keyring
    from appliance.core.db import Database
    from appliance.settings import Settings


@dataclass
class Runtime:
    settings: "Settings"
    db: "Database"
    keyring: "Keyring"


_current: Runtime | None = None


def install(runtime: Runtime) -> None:
    global _current
    _current = runtime


def get() -> Runtime:
    if _current is None:
        raise RuntimeError("no runtime installed: call appliance.bootstrap.build_runtime first")
    return _current
