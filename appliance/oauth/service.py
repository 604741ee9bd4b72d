"""OAuth grants as data: clients, consents (authorizations), codes and token pairs.

The protocol itself (parsing requests, client authentication, error bodies) is authlib's, wired in
`appliance.oauth.server`; what is decided here is the policy the reference adds on top:
- tokens are opaque and stored as HMACs: access `mo_at_...` (1 hour), refresh `mo_rt_...` (30 days);
- a refresh token rotates on use; presented again within 60 seconds it yields another valid pair
  (two tabs refreshing at once), later it revokes the whole authorization;
- a code replayed with the right verifier revokes every pair issued from it; a wrong verifier
  revokes nothing;
- granted scopes are cut to the person's role on every request.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from sqlalchemy import update
from sqlmodel import Session, select

from appliance.core import clock, runtime
from appliance.core.actor import Actor, OrgActor, TokenGrant
from appliance.core.db import run_after
from appliance.core.rows import read_row
from appliance.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from appliance.memberships import service as memberships_service
from appliance.oauth.models import OAuthAuthorization, OAuthClient, OAuthCode, OAuthToken
from appliance.organizations.models import Organization
from appliance.permissions import service as permissions_service
from appliance.users.models import User

ACCESS_PREFIX, REFRESH_PREFIX = "mo_at_", "mo_rt_"
ACCESS_TTL = timedelta(hours=1)
REFRESH_TTL = timedelta(days=30)
CODE_TTL = timedelta(minutes=5)
ROTATION_GRACE = timedelta(seconds=60)
_LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}


def _hash(value: str) -> str:
    return runtime.get().keyring.token_hash(value)


def split_scope(scope: str | None) -> list[str]:
    return [s for s in (scope or "").split(" ") if s]


def join_scope(scopes) -> str:
    return " ".join(permissions_service.in_catalog_order(scopes))


# --- clients (the service team's CLI) ---

@dataclass(frozen=True)
class RegisteredClient:
    client: OAuthClient
    secret: str | None  # shown once, for confidential clients


def redirect_uri_problem(uri: str) -> str | None:
    """Why `uri` cannot be registered: exact absolute URIs only; http only for loopback hosts."""
    if "*" in uri:
        return "wildcards are not allowed"
    parts = urlsplit(uri)
    if parts.fragment or "#" in uri:
        return "a redirect URI has no fragment"
    if parts.scheme == "https" and parts.hostname:
        return None
    if parts.scheme == "http" and parts.hostname in _LOOPBACK_HOSTS:
        return None
    if parts.scheme == "http":
        return "http is allowed for localhost only; use https"
    return "use an absolute https URI (or http://localhost)"


def do_register_client(session: Session, *, name: str, redirect_uris: list[str], scopes: list[str],
                       public: bool, logo_url: str | None = None, site_url: str | None = None) -> RegisteredClient:
    name = name.strip()
    if not name or len(name) > 100:
        raise Invalid("The name needs 1 to 100 characters.", code="validation_failed")
    if not redirect_uris:
        raise Invalid("Give at least one --redirect-uri.", code="validation_failed")
    for uri in redirect_uris:
        problem = redirect_uri_problem(uri)
        if problem:
            raise Invalid(f"Redirect URI {uri!r}: {problem}.", code="invalid_redirect_uri")
    unknown = permissions_service.unknown_permissions(scopes)
    if unknown or not scopes:
        raise Invalid("Unknown scopes: " + ", ".join(unknown) if unknown else "Give at least one --scope.",
                      code="invalid_scope")
    for url in (logo_url, site_url):
        if url and urlsplit(url).scheme != "https":
            raise Invalid(f"{url!r} must be an https URL.", code="validation_failed")
    secret = None if public else secrets.token_urlsafe(32)
    client = OAuthClient(client_id="mc_" + secrets.token_urlsafe(16), name=name,
                         secret_hash=_hash(secret) if secret else None,
                         redirect_uris=list(dict.fromkeys(redirect_uris)),
                         scopes=permissions_service.in_catalog_order(scopes),
                         logo_url=logo_url, site_url=site_url, created_at=clock.now())
    session.add(client)
    session.flush()
    return RegisteredClient(client, secret)


def do_set_client_suspended(session: Session, *, client_id: str, suspended: bool) -> OAuthClient:
    client = get_client(session, client_id)
    if client is None:
        raise NotFound(f"No application has the client id {client_id}.", code="oauth_client_not_found")
    client.suspended_at = clock.now() if suspended else None
    session.add(client)
    session.flush()
    return client


def list_clients(session: Session) -> list[OAuthClient]:
    return list(session.exec(select(OAuthClient).order_by(OAuthClient.created_at)).all())


def get_client(session: Session, client_id: str | None) -> OAuthClient | None:
    if not client_id or len(client_id) > 64:
        return None
    return session.exec(select(OAuthClient).where(OAuthClient.client_id == client_id)).first()


def client_secret_matches(client: OAuthClient, secret: str | None) -> bool:
    return bool(client.secret_hash and secret) and hmac.compare_digest(client.secret_hash, _hash(secret))


# --- consent ---

def prior_consents(session: Session, *, client: OAuthClient, user_id: str, scopes: list[str]) -> list[OAuthAuthorization]:
    """Live authorizations of this person for this client that already cover `scopes` (prompt=none)."""
    rows = session.exec(select(OAuthAuthorization).where(
        OAuthAuthorization.client_pk == client.id, OAuthAuthorization.user_id == user_id,
        OAuthAuthorization.revoked_at.is_(None))).all()
    return [a for a in rows if set(scopes) <= set(a.scopes)]


def do_consent(session: Session, *, client: OAuthClient, user_id: str, organization_id: str,
               scopes: list[str]) -> OAuthAuthorization:
    """Record the person's approval; 403 access_denied when they hold none of the scopes there."""
    member = memberships_service.access_organization(session, actor=Actor(user_id=user_id),
                                                     organization_id=organization_id, permission=None)
    if not set(scopes) & member.permissions:
        raise Forbidden("You hold none of these permissions in that organization.", code="access_denied")
    now = clock.now()
    authorization = session.exec(select(OAuthAuthorization).where(
        OAuthAuthorization.client_pk == client.id, OAuthAuthorization.user_id == user_id,
        OAuthAuthorization.organization_id == organization_id, OAuthAuthorization.revoked_at.is_(None))).first()
    if authorization is None:
        authorization = OAuthAuthorization(client_pk=client.id, user_id=user_id, organization_id=organization_id,
                                           scopes=[], created_at=now, updated_at=now)
    authorization.scopes = permissions_service.in_catalog_order(set(authorization.scopes) | set(scopes))
    authorization.updated_at = now
    session.add(authorization)
    session.flush()
    return authorization


# --- codes ---

def do_save_code(session: Session, *, code: str, authorization: OAuthAuthorization, redirect_uri: str,
                 scopes: list[str], code_challenge: str) -> OAuthCode:
    now = clock.now()
    row = OAuthCode(code_hash=_hash(code), authorization_id=authorization.id, redirect_uri=redirect_uri,
                    scope=join_scope(scopes), code_challenge=code_challenge, expires_at=now + CODE_TTL,
                    created_at=now)
    session.add(row)
    session.flush()
    return row


@dataclass(frozen=True)
class CodeLookup:
    code: OAuthCode
    authorization: OAuthAuthorization
    replayed: bool  # already exchanged once


def find_code(session: Session, *, code: str, client: OAuthClient) -> CodeLookup | None:
    """The code if it was issued to `client` and is neither expired nor revoked."""
    row = session.exec(select(OAuthCode).where(OAuthCode.code_hash == _hash(code))).first()
    if row is None:
        return None
    authorization = session.get(OAuthAuthorization, row.authorization_id)
    if authorization is None or authorization.client_pk != client.id:
        return None
    if row.used_at is None and (row.expires_at <= clock.now() or authorization.revoked_at is not None):
        return None
    return CodeLookup(row, authorization, replayed=row.used_at is not None)


def revoke_code_chain_after(session: Session, code_id: str) -> None:
    """A used code came back with the right verifier: whoever holds it also holds the tokens, so
    every pair issued from it dies, in its own transaction (the request itself fails)."""
    run_after(session, lambda s: _revoke_tokens(s, OAuthToken.code_id == code_id))


def _revoke_tokens(session: Session, condition) -> None:
    session.execute(update(OAuthToken).where(condition, OAuthToken.revoked_at.is_(None))
                    .values(revoked_at=clock.now()))


# --- token pairs ---

@dataclass(frozen=True)
class IssuedPair:
    access_token: str
    refresh_token: str
    scope: str
    expires_in: int


def do_issue_pair(session: Session, *, authorization: OAuthAuthorization, code_id: str, scope: str) -> IssuedPair:
    access, refresh = ACCESS_PREFIX + secrets.token_urlsafe(32), REFRESH_PREFIX + secrets.token_urlsafe(32)
    now = clock.now()
    session.add(OAuthToken(authorization_id=authorization.id, code_id=code_id, access_hash=_hash(access),
                           refresh_hash=_hash(refresh), scope=scope, access_expires_at=now + ACCESS_TTL,
                           refresh_expires_at=now + REFRESH_TTL, created_at=now))
    authorization.last_used_at = now
    session.add(authorization)
    session.flush()
    return IssuedPair(access, refresh, scope, int(ACCESS_TTL.total_seconds()))


def do_mark_code_used(session: Session, code: OAuthCode) -> None:
    code.used_at = clock.now()
    session.add(code)
    session.flush()


@dataclass(frozen=True)
class RefreshLookup:
    token: OAuthToken
    authorization: OAuthAuthorization


def find_refresh(session: Session, *, refresh_token: str, client: OAuthClient) -> RefreshLookup | None:
    """The pair of a presented refresh token, if it may be used now. A rotated token presented
    after the grace window is a replay: the whole authorization is revoked (in its own
    transaction, since the request fails) and None is answered."""
    if not refresh_token.startswith(REFRESH_PREFIX) or len(refresh_token) > 200:
        return None
    row = session.exec(select(OAuthToken).where(OAuthToken.refresh_hash == _hash(refresh_token))).first()
    if row is None or row.revoked_at is not None:
        return None
    authorization = session.get(OAuthAuthorization, row.authorization_id)
    if authorization is None or authorization.client_pk != client.id or authorization.revoked_at is not None:
        return None
    now = clock.now()
    if row.refresh_expires_at <= now:
        return None
    if row.rotated_at is not None and row.rotated_at + ROTATION_GRACE < now:
        authorization_id = authorization.id
        run_after(session, lambda s: do_revoke_authorization(s, authorization_id, reason="refresh_reuse"))
        return None
    return RefreshLookup(row, authorization)


def do_rotate(session: Session, lookup: RefreshLookup, *, scope: str) -> IssuedPair:
    """A new pair for a valid refresh token (`scope`: the token's or a narrower one); the
    presented token stays usable for the grace window."""
    if lookup.token.rotated_at is None:
        lookup.token.rotated_at = clock.now()
        session.add(lookup.token)
    return do_issue_pair(session, authorization=lookup.authorization, code_id=lookup.token.code_id,
                         scope=join_scope(split_scope(scope)))


def find_token(session: Session, token: str) -> OAuthToken | None:
    """A pair by either of its tokens (revocation and introspection)."""
    if token.startswith(ACCESS_PREFIX):
        column = OAuthToken.access_hash
    elif token.startswith(REFRESH_PREFIX):
        column = OAuthToken.refresh_hash
    else:
        return None
    return session.exec(select(OAuthToken).where(column == _hash(token))).first()


def token_client_pk(session: Session, token: OAuthToken) -> str | None:
    authorization = session.get(OAuthAuthorization, token.authorization_id)
    return authorization.client_pk if authorization else None


def do_revoke_token(session: Session, token: OAuthToken, *, presented_refresh: bool) -> None:
    """RFC 7009. A refresh token cuts its whole chain; an access token ends its own pair."""
    if presented_refresh:
        _revoke_tokens(session, OAuthToken.code_id == token.code_id)
    else:
        _revoke_tokens(session, OAuthToken.id == token.id)


def do_revoke_authorization(session: Session, authorization_id: str, *, reason: str) -> None:
    authorization = session.get(OAuthAuthorization, authorization_id)
    if authorization is None:
        return
    if authorization.revoked_at is None:
        authorization.revoked_at = clock.now()
        authorization.revoked_reason = reason
        session.add(authorization)
    _revoke_tokens(session, OAuthToken.authorization_id == authorization_id)


@dataclass(frozen=True)
class TokenState:
    """What introspection tells about a live access or refresh token."""

    active: bool
    scope: str = ""
    client_id: str | None = None
    user_id: str | None = None
    organization_id: str | None = None
    expires_at: int | None = None
    token_type: str | None = None


def describe_token(session: Session, token: OAuthToken, *, presented_refresh: bool, client: OAuthClient) -> TokenState:
    authorization = session.get(OAuthAuthorization, token.authorization_id)
    now = clock.now()
    expires_at = token.refresh_expires_at if presented_refresh else token.access_expires_at
    rotated_out = presented_refresh and token.rotated_at is not None and token.rotated_at + ROTATION_GRACE < now
    if (token.revoked_at is not None or authorization is None or authorization.revoked_at is not None
            or expires_at <= now or rotated_out):
        return TokenState(active=False)
    return TokenState(active=True, scope=_effective_scope(session, authorization, token.scope),
                      client_id=client.client_id, user_id=authorization.user_id,
                      organization_id=authorization.organization_id, expires_at=int(expires_at.timestamp()),
                      token_type="refresh_token" if presented_refresh else "access_token")


def _effective_scope(session: Session, authorization: OAuthAuthorization, scope: str) -> str:
    try:
        member = memberships_service.access_organization(
            session, actor=Actor(user_id=authorization.user_id),
            organization_id=authorization.organization_id, permission=None)
    except Forbidden:
        return ""
    return join_scope(set(split_scope(scope)) & member.permissions)


# --- using an access token (every request that carries one) ---

def _invalid_token() -> Unauthorized:
    return Unauthorized("The OAuth access token is invalid, expired or revoked.", code="invalid_token")


def authenticate_access_token(session: Session, token: str) -> tuple[Actor, TokenGrant]:
    """The person behind a live access token and what the token was granted; 401 otherwise.
    Hot path: driver reads through `read_row`."""
    if len(token) > 200:
        raise _invalid_token()
    row = read_row(session, OAuthToken.__table__, access_hash=_hash(token),
                   with_parent=(OAuthAuthorization.__table__, "authorization_id"))
    now = clock.now()
    if row is None or row.revoked_at is not None or row.access_expires_at <= now:
        raise _invalid_token()
    authorization = read_row(session, OAuthAuthorization.__table__, id=row.authorization_id)
    if authorization is None or authorization.revoked_at is not None:
        raise _invalid_token()
    client = read_row(session, OAuthClient.__table__, id=authorization.client_pk)
    if client is None or client.suspended_at is not None:
        raise _invalid_token()
    actor = Actor(user_id=authorization.user_id, kind="oauth", oauth_authorization_id=authorization.id)
    return actor, TokenGrant(authorization.organization_id, frozenset(split_scope(row.scope)), client.client_id)


def access_organization(session: Session, *, actor: Actor, grant: TokenGrant, organization_id: str,
                        permission: str) -> OrgActor:
    """The token's standing in the organization of the path: the person's membership and role,
    cut to the granted scopes, re-read on every request (a demotion takes effect at once)."""
    if organization_id != grant.organization_id:
        raise Forbidden("This token was granted for another organization.", code="not_a_member")
    member = memberships_service.access_organization(session, actor=actor, organization_id=organization_id,
                                                     permission=None)
    effective = member.permissions & grant.scopes
    if permission not in effective:
        raise Forbidden(f"This token lacks the scope {permission}.", code="scope_missing", permission=permission)
    return OrgActor(user_id=actor.user_id, kind="oauth", oauth_authorization_id=actor.oauth_authorization_id,
                    organization_id=organization_id, membership_id=member.membership_id, role_key=member.role_key,
                    permissions=effective, waba_pks=member.waba_pks)


# --- the person's side ---

@dataclass(frozen=True)
class AuthorizationView:
    authorization: OAuthAuthorization
    client: OAuthClient
    organization: Organization


def list_my_authorizations(session: Session, *, actor: Actor) -> list[AuthorizationView]:
    rows = session.exec(select(OAuthAuthorization, OAuthClient, Organization)
                        .join(OAuthClient, OAuthClient.id == OAuthAuthorization.client_pk)
                        .join(Organization, Organization.id == OAuthAuthorization.organization_id)
                        .where(OAuthAuthorization.user_id == actor.user_id, OAuthAuthorization.revoked_at.is_(None))
                        .order_by(OAuthAuthorization.created_at.desc())).all()
    return [AuthorizationView(a, c, o) for a, c, o in rows]


def do_revoke_my_authorization(session: Session, *, actor: Actor, authorization_id: str) -> None:
    authorization = session.get(OAuthAuthorization, authorization_id)
    if authorization is None or authorization.user_id != actor.user_id or authorization.revoked_at is not None:
        raise NotFound("No such authorization.", code="authorization_not_found")
    do_revoke_authorization(session, authorization_id, reason="revoked_by_user")


def get_userinfo(session: Session, *, actor: Actor, grant: TokenGrant) -> dict:
    """Who authorized this token, in which organization; needs organizations:read."""
    member = access_organization(session, actor=actor, grant=grant, organization_id=grant.organization_id,
                                 permission="organizations:read")
    user = read_row(session, User.__table__, id=actor.user_id)
    return {"sub": user.id, "name": user.name, "email": user.email, "email_verified": user.email_verified_at is not None,
            "locale": user.locale, "org_id": grant.organization_id, "scope": join_scope(member.permissions)}
