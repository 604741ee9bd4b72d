"""The caller a service acts for; services take it as an explicit argument, never a global."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    user_id: str
    session_id: str | None = None
    impersonated_by: str | None = None
    kind: str = "user"
