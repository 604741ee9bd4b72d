from datetime import datetime

from sqlalchemy import JSON
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class OAuthClient(SQLModel, table=True):
    """A third-party application, registered by the service team (`appliance oauth register`)."""

    __tablename__ = "oauth_clients"

    id: str = Field(default_factory=new_id, primary_key=True)
    client_id: str = Field(unique=True, max_length=64)
    name: str = Field(max_length=100)
    secret_hash: str | None = Field(default=None, max_length=64)  # None: a public client (PKCE only)
    redirect_uris: list = Field(default_factory=list, sa_type=JSON)  # exact strings
    scopes: list = Field(default_factory=list, sa_type=JSON)  # what the application may ask for
    logo_url: str | None = Field(default=None, max_length=500)
    site_url: str | None = Field(default=None, max_length=500)
    suspended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)

    @property
    def public(self) -> bool:
        return self.secret_hash is None


class OAuthAuthorization(SQLModel, table=True):
    """A person's consent: this application may act in this organization with these scopes.
    What the integrations page lists and revokes; every token hangs from one."""

    __tablename__ = "oauth_authorizations"

    id: str = Field(default_factory=new_id, primary_key=True)
    client_pk: str = Field(foreign_key="oauth_clients.id", ondelete="CASCADE", index=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    organization_id: str = Field(foreign_key="organizations.id", ondelete="CASCADE", index=True)
    scopes: list = Field(default_factory=list, sa_type=JSON)  # as consented; cut to the role on use
    created_at: datetime = Field(sa_type=UTCDateTime)
    updated_at: datetime = Field(sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_reason: str | None = Field(default=None, max_length=40)


class OAuthCode(SQLModel, table=True):
    """An authorization code. Kept after use (`used_at`) so that a replay can be recognised."""

    __tablename__ = "oauth_codes"

    id: str = Field(default_factory=new_id, primary_key=True)
    code_hash: str = Field(unique=True, max_length=64)
    authorization_id: str = Field(foreign_key="oauth_authorizations.id", ondelete="CASCADE", index=True)
    redirect_uri: str = Field(max_length=500)
    scope: str = Field(max_length=2000)
    code_challenge: str = Field(max_length=128)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)


class OAuthToken(SQLModel, table=True):
    """One access/refresh pair. Pairs issued from one code and its refreshes share `code_id`:
    the chain that a replayed code or a revoked refresh token cuts."""

    __tablename__ = "oauth_tokens"

    id: str = Field(default_factory=new_id, primary_key=True)
    authorization_id: str = Field(foreign_key="oauth_authorizations.id", ondelete="CASCADE", index=True)
    code_id: str = Field(foreign_key="oauth_codes.id", ondelete="CASCADE", index=True)
    access_hash: str = Field(unique=True, max_length=64)
    refresh_hash: str = Field(unique=True, max_length=64)
    scope: str = Field(max_length=2000)
    access_expires_at: datetime = Field(sa_type=UTCDateTime)
    refresh_expires_at: datetime = Field(sa_type=UTCDateTime)
    rotated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # its refresh token was used
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)
