"""The caller a service acts for; services take it as an explicit argument, never a global."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Actor:
    """Who is calling: a signed-in person (later also an API key or an OAuth grant)."""

    user_id: str
    session_id: str | None = None
    impersonated_by: str | None = None
    kind: str = "user"


@dataclass(frozen=True, kw_only=True)
class OrgActor(Actor):
    """An actor inside one organization, with what its membership allows there."""

    organization_id: str
    membership_id: str
    role_key: str
    permissions: frozenset[str]
    waba_ids: tuple[str, ...] = ()  # empty: every business account

    def can(self, permission: str) -> bool:
        return permission in self.permissions
