from datetime import datetime

from sqlalchemy import JSON, LargeBinary
from sqlmodel import Field, SQLModel

from appliance.core.db import UTCDateTime
from appliance.core.ids import new_id


class AuthSession(SQLModel, table=True):
    """One signed-in device: a family of rotating refresh tokens. Its id is the JWT `sid`."""

    __tablename__ = "auth_sessions"

    id: str = Field(default_factory=new_id, primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    device: str = Field(max_length=300)
    ip: str = Field(max_length=64)
    impersonated_by: str | None = Field(default=None, max_length=254)
    created_at: datetime = Field(sa_type=UTCDateTime)
    last_used_at: datetime = Field(sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_reason: str | None = Field(default=None, max_length=40)


class RefreshToken(SQLModel, table=True):
    """Every refresh token ever issued in a session; a rotated one presented again is theft."""

    __tablename__ = "refresh_tokens"

    id: str = Field(default_factory=new_id, primary_key=True)
    session_id: str = Field(foreign_key="auth_sessions.id", ondelete="CASCADE", index=True)
    token_hash: str = Field(unique=True, max_length=64)
    created_at: datetime = Field(sa_type=UTCDateTime)
    rotated_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class OneTimeToken(SQLModel, table=True):
    """Single-use tokens sent by mail (verify_email, reset_password) or issued by staff (impersonate)."""

    __tablename__ = "one_time_tokens"

    id: str = Field(default_factory=new_id, primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    purpose: str = Field(max_length=20)
    token_hash: str = Field(unique=True, max_length=64)
    issued_by: str | None = Field(default=None, max_length=254)
    created_at: datetime = Field(sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class RecoveryCode(SQLModel, table=True):
    __tablename__ = "recovery_codes"

    id: str = Field(default_factory=new_id, primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    code_hash: str = Field(max_length=64, index=True)
    created_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Passkey(SQLModel, table=True):
    """A WebAuthn credential a person registered: a discoverable key (usernameless sign-in finds its
    person by `credential_id`; the authenticator's userHandle is the person's id)."""

    __tablename__ = "passkeys"

    id: str = Field(default_factory=new_id, primary_key=True)
    user_id: str = Field(foreign_key="users.id", ondelete="CASCADE", index=True)
    credential_id: str = Field(unique=True, max_length=1400)  # base64url of at most 1023 bytes
    public_key: bytes = Field(sa_type=LargeBinary)  # COSE_Key, as the authenticator gave it
    sign_count: int = 0
    transports: list = Field(default_factory=list, sa_type=JSON)
    aaguid: str | None = Field(default=None, max_length=36)  # the authenticator's model (zeros: not said)
    name: str = Field(max_length=100)
    # Whether the authenticator verified the person (PIN, fingerprint) at registration and at the
    # last sign-in; two-step sign-in is satisfied only by a sign-in that did.
    user_verified: bool = False
    backed_up: bool = False  # synced by a password manager, rather than bound to one device
    created_at: datetime = Field(sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class PasskeyChallenge(SQLModel, table=True):
    """A ceremony's challenge: single use (deleted when spent), expiring, bound to its ceremony
    (`register` or `login`) and, for a registration, to the person registering."""

    __tablename__ = "passkey_challenges"

    id: str = Field(default_factory=new_id, primary_key=True)
    ceremony: str = Field(max_length=10)
    user_id: str | None = Field(default=None, foreign_key="users.id", ondelete="CASCADE", index=True)
    challenge: str = Field(unique=True, max_length=100)  # base64url, as clientDataJSON carries it
    created_at: datetime = Field(sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime, index=True)
