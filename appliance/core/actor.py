"""The caller a service acts for; services take it as an explicit argument, never a global."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Actor:
    """Who is calling: a signed-in person, an API key, or an application with a person's OAuth grant."""

    user_id: str | None  # None for an API key
    session_id: str | None = None
    impersonated_by: str | None = None
    kind: str = "user"  # user | api_key | oauth | bot
    api_key_id: str | None = None
    oauth_authorization_id: str | None = None

    @property
    def caller_key(self) -> str:
        """Who calls, as one string: `key:<id>`, `oauth:<id>` or `user:<id>` (what idempotency
        records and stream slots are counted by)."""
        if self.api_key_id:
            return f"key:{self.api_key_id}"
        if self.oauth_authorization_id:
            return f"oauth:{self.oauth_authorization_id}"
        return f"user:{self.user_id}"


@dataclass(frozen=True, kw_only=True)
class OrgActor(Actor):
    """An actor inside one organization, with what its membership allows there."""

    organization_id: str
    membership_id: str | None  # None for an API key
    role_key: str | None
    permissions: frozenset[str]
    waba_pks: tuple[str, ...] = ()  # empty: every business account
    phone_number_pks: tuple[str, ...] = ()  # empty: every phone number (API keys may restrict)

    def can(self, permission: str) -> bool:
        return permission in self.permissions


@dataclass(frozen=True)
class TokenGrant:
    """What an OAuth access token was granted: one organization, some scopes, by one application."""

    organization_id: str
    scopes: frozenset[str]
    client_id: str
