"""Sessions and tokens: open a session, rotate refresh tokens with reuse detection, revoke,
and authenticate access tokens. Used by every sign-in flow of appliance.auth."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, delete, select, update

from appliance.auth import access_tokens
from appliance.auth.models import AuthSession, OneTimeToken, PasskeyChallenge, RefreshToken
from appliance.core import clock, crypto, runtime, throttle
from appliance.core.actor import Actor
from appliance.core.db import run_after
from appliance.core.rows import read_row
from appliance.core.errors import NotFound, Unauthorized
from appliance.users.models import User


@dataclass(frozen=True)
class TokenPair:
    access_token: str
    refresh_token: str
    expires_in: int = access_tokens.ACCESS_TOKEN_SECONDS


@dataclass(frozen=True)
class SignIn:
    user: User
    tokens: TokenPair


@dataclass(frozen=True)
class Device:
    ip: str
    user_agent: str


def _open(session: Session, user: User, device: Device, impersonated_by: str | None = None) -> AuthSession:
    now = clock.now()
    auth_session = AuthSession(user_id=user.id, device=device.user_agent[:300], ip=device.ip[:64],
                               impersonated_by=impersonated_by, created_at=now, last_used_at=now,
                               expires_at=now + _refresh_lifetime())
    session.add(auth_session)
    session.flush()
    return auth_session


def do_open_session(session: Session, user: User, device: Device, *,
                    impersonated_by: str | None = None) -> TokenPair:
    return _issue(session, _open(session, user, device, impersonated_by))


def do_open_browser_session(session: Session, user: User, device: Device) -> AuthSession:
    """A browser's sign-in: a session like any device's (listed, closed by sign-out everywhere
    or a password change), held by a cookie instead of refresh tokens."""
    return _open(session, user, device)


def authenticate_browser_session(session: Session, session_id: str) -> Actor | None:
    """The person of a browser's session id, or None once it was closed or expired."""
    auth_session = read_row(session, AuthSession.__table__, id=session_id)
    if auth_session is None or not _is_live(auth_session) or auth_session.impersonated_by is not None:
        return None
    return Actor(user_id=auth_session.user_id, session_id=auth_session.id)


def do_close_browser_session(session: Session, session_id: str) -> None:
    _revoke(session, session_id, "logout")


def _refresh_lifetime() -> timedelta:
    return timedelta(days=runtime.get().settings.refresh_token_days)


def _issue(session: Session, auth_session: AuthSession) -> TokenPair:
    rt = runtime.get()
    refresh = crypto.random_token()
    session.add(RefreshToken(session_id=auth_session.id, token_hash=rt.keyring.token_hash(refresh),
                             created_at=clock.now()))
    session.flush()
    access = access_tokens.encode(rt.keyring.jwt_key, user_id=auth_session.user_id,
                                  session_id=auth_session.id,
                                  impersonated_by=auth_session.impersonated_by)
    return TokenPair(access, refresh)


def _find_refresh(session: Session, refresh_token: str) -> tuple[RefreshToken, AuthSession] | None:
    token_hash = runtime.get().keyring.token_hash(refresh_token)
    token = session.exec(select(RefreshToken).where(RefreshToken.token_hash == token_hash)).first()
    if token is None:
        return None
    return token, session.get(AuthSession, token.session_id)


def _is_live(auth_session: AuthSession) -> bool:
    return auth_session.revoked_at is None and auth_session.expires_at > clock.now()


def check_refresh(session: Session, *, refresh_token: str, device: Device) -> TokenPair:
    """Rotate: the presented token is spent and a new pair issued. A spent token presented
    again means it was copied, so the whole session is closed."""
    found = _find_refresh(session, refresh_token)
    if found is None or not _is_live(found[1]):
        raise Unauthorized("The refresh token is not valid; sign in again.", code="invalid_refresh_token")
    token, auth_session = found
    if token.rotated_at is not None:
        session_id = auth_session.id
        # Kept although the request fails: the revocation must survive the rollback.
        run_after(session, lambda s: _revoke(s, session_id, "refresh_token_reuse"))
        raise Unauthorized("This refresh token was already used; the session has been closed.",
                           code="refresh_token_reused")
    now = clock.now()
    token.rotated_at = now
    auth_session.last_used_at = now
    auth_session.ip = device.ip[:64]
    auth_session.expires_at = now + _refresh_lifetime()
    session.add_all([token, auth_session])
    return _issue(session, auth_session)


def _revoke(session: Session, session_id: str, reason: str) -> None:
    auth_session = session.get(AuthSession, session_id)
    if auth_session is not None and auth_session.revoked_at is None:
        auth_session.revoked_at, auth_session.revoked_reason = clock.now(), reason
        session.add(auth_session)


def do_logout(session: Session, *, refresh_token: str) -> None:
    """Close the session of this refresh token; an unknown token changes nothing (still 204)."""
    found = _find_refresh(session, refresh_token)
    if found is not None:
        _revoke(session, found[1].id, "logout")


def authenticate_access_token(session: Session, token: str) -> Actor:
    claims = access_tokens.decode(runtime.get().keyring.jwt_key, token)
    auth_session = read_row(session, AuthSession.__table__, id=claims.session_id)  # every request
    if auth_session is None or auth_session.user_id != claims.user_id or not _is_live(auth_session):
        raise Unauthorized("This session has been closed; sign in again.", code="session_revoked")
    return Actor(user_id=claims.user_id, session_id=claims.session_id,
                 impersonated_by=claims.impersonated_by)


def list_sessions(session: Session, *, actor: Actor) -> list[AuthSession]:
    return list(session.exec(
        select(AuthSession)
        .where(AuthSession.user_id == actor.user_id, AuthSession.revoked_at.is_(None),
               AuthSession.expires_at > clock.now())
        .order_by(AuthSession.last_used_at.desc())
    ).all())


def do_close_session(session: Session, *, actor: Actor, session_id: str) -> None:
    auth_session = session.get(AuthSession, session_id)
    if auth_session is None or auth_session.user_id != actor.user_id or not _is_live(auth_session):
        raise NotFound("No open session with this id.", code="session_not_found")
    _revoke(session, session_id, "closed_by_user")


def do_close_other_sessions(session: Session, *, actor: Actor, reason: str = "closed_by_user") -> int:
    return revoke_all(session, actor.user_id, reason, keep=actor.session_id)


def revoke_all(session: Session, user_id: str, reason: str, *, keep: str | None = None) -> int:
    query = (update(AuthSession)
             .where(AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None))
             .values(revoked_at=clock.now(), revoked_reason=reason))
    if keep:
        query = query.where(AuthSession.id != keep)
    return session.exec(query).rowcount or 0


def do_reset_sessions(session: Session, user: User) -> None:
    """After a password reset by mail: every session of the account is closed."""
    revoke_all(session, user.id, "password_reset")


def purge_expired(session: Session) -> None:
    """Drop sessions and tokens nobody can use any more (kept a week for the record)."""
    cutoff = clock.now() - timedelta(days=7)
    session.exec(delete(AuthSession).where(AuthSession.expires_at < cutoff))
    session.exec(delete(AuthSession).where(AuthSession.revoked_at < cutoff))
    session.exec(delete(OneTimeToken).where(OneTimeToken.expires_at < cutoff))
    session.exec(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at < clock.now()))  # minutes, not kept
    throttle.purge_expired(session, older_than_seconds=86400)
