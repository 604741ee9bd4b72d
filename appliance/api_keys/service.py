"""Create, list, change and revoke API keys, and authenticate a presented key.

Authentication runs on every keyed request, so it is one indexed read through `core.rows.read_row`
(no ORM objects: the ORM costs ~0.7 ms a lookup on these machines, the driver ~0.02 ms), and its
rows are kept in a small cache emptied by any committed change to keys or organizations.
`last_used_at` is written at most once a minute per key, after the request, in its own transaction.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, select

from appliance.core import clock, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.cache import CommitInvalidatedCache
from appliance.core.db import run_after
from appliance.core.rows import read_row, remember
from appliance.core.errors import Forbidden, Invalid, Unauthorized
from appliance.api_keys.models import ApiKey
from appliance.organizations.models import Organization
from appliance.permissions import service as permissions_service

LIVE_PREFIX = "mk_live_"
KEY_PREFIXES = (LIVE_PREFIX, "mk_test_")
_PREFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
_LAST_USED_EVERY = timedelta(minutes=1)


@dataclass(frozen=True)
class CreatedKey:
    key: ApiKey
    secret: str  # the whole token, shown once


def is_api_key(value: str) -> bool:
    return value.startswith(KEY_PREFIXES)


def _invalid() -> Unauthorized:
    return Unauthorized("The API key is not valid (unknown, revoked or expired).", code="invalid_api_key")


# Keyed integrations call in bursts: without the database read, a keyed GET keeps ~67% of the
# requests per second of /health/live instead of ~57% (tests/bench/bench_tenancy.py).
_key_rows = CommitInvalidatedCache("api keys", watched=(ApiKey, Organization))


def _key_row(session: Session, prefix: str):
    """The key's row, its organization's remembered in the unit as if read with it: both come in
    one statement (the suspension check and most views need the organization), or from the cache."""
    cached = _key_rows.get(prefix)
    if cached is not None:
        row, organization = cached
        remember(session, Organization.__table__, organization, id=row.organization_id)
        return row
    generation = _key_rows.generation
    row = read_row(session, ApiKey.__table__, prefix=prefix, with_parent=(Organization.__table__, "organization_id"))
    if row is not None:
        _key_rows.put(prefix, (row, read_row(session, Organization.__table__, id=row.organization_id)),
                      generation=generation)
    return row


def authenticate(session: Session, token: str) -> OrgActor:
    """The actor of a presented key; 401 for anything but a live key with the right secret."""
    # Every key is issued as mk_live_; mk_test_ is only recognised (reference: "Detection"), so the
    # same secret under the other prefix is not the key.
    body = token[len(LIVE_PREFIX):] if token.startswith(LIVE_PREFIX) else ""
    prefix, _, secret = body.partition(".")
    if not prefix or not secret or len(prefix) > 16 or len(secret) > 100:
        raise _invalid()
    row = _key_row(session, prefix)
    if row is None or not hmac.compare_digest(row.secret_hash, runtime.get().keyring.token_hash(secret)):
        raise _invalid()
    now = clock.now()
    if row.revoked_at is not None or (row.expires_at is not None and row.expires_at <= now):
        raise _invalid()
    if row.last_used_at is None or row.last_used_at + _LAST_USED_EVERY <= now:
        key_id = row.id
        run_after(session, lambda s: _touch(s, key_id))
    # Every key may read its own organization (the routes that only need membership). A key without
    # scopes has every permission of the organization (the reference: "empty = full access to the
    # organization's permissions"); routes about persons refuse keys whatever their scopes.
    scopes = frozenset(row.scopes) if row.scopes else permissions_service.permission_keys()
    return OrgActor(user_id=None, kind="api_key", api_key_id=row.id, organization_id=row.organization_id,
                    membership_id=None, role_key=None, permissions=scopes | {"organizations:read"},
                    phone_number_pks=tuple(row.phone_number_pks))


def _touch(session: Session, key_id: str) -> None:
    key = session.get(ApiKey, key_id)
    if key is not None:
        key.last_used_at = clock.now()
        session.add(key)


def check_key_in_organization(actor: OrgActor, organization_id: str) -> None:
    if actor.organization_id != organization_id:
        raise Forbidden("This API key belongs to another organization.", code="not_a_member")


def _check_scopes(actor: OrgActor, scopes: list[str]) -> list[str]:
    allowed = permissions_service.api_key_scopes()
    unknown = [s for s in scopes if s not in allowed]
    if unknown:
        raise Invalid("Unknown scopes: " + ", ".join(unknown), code="unknown_scope",
                      errors={"scopes": [f"Not an API-key scope: {s}." for s in unknown]})
    # No scopes is full access: only someone holding every permission may hand it out.
    permissions_service.check_grantable(actor, scopes or permissions_service.permission_keys())
    return permissions_service.in_catalog_order(scopes)


def list_keys(session: Session, *, actor: OrgActor) -> list[ApiKey]:
    return list(session.exec(select(ApiKey).where(ApiKey.organization_id == actor.organization_id,
                                                  ApiKey.revoked_at.is_(None))
                             .order_by(ApiKey.created_at.desc())).all())


def access_key(session: Session, *, actor: OrgActor, key_id: str) -> ApiKey:
    return tenancy.access_in_org(session, ApiKey, key_id, actor, what="API key", code="api_key_not_found",
                                 usable=lambda key: key.revoked_at is None)


def check_create_key(session: Session, *, actor: OrgActor, name: str, scopes: list[str] | None = None,
                     phone_number_pks: list[str] | None = None, expires_at: datetime | None = None) -> CreatedKey:
    ordered = _check_scopes(actor, scopes or [])
    phone_number_pks = tenancy.check_ids_in_org(session, "phone_numbers", phone_number_pks or [], actor,
                                                field="phoneNumberIds")
    if expires_at is not None and expires_at <= clock.now():
        raise Invalid("expiresAt must be in the future.", errors={"expiresAt": ["Must be in the future."]})
    prefix = "".join(secrets.choice(_PREFIX_ALPHABET) for _ in range(12))
    secret = secrets.token_urlsafe(32)
    now = clock.now()
    key = ApiKey(organization_id=actor.organization_id, name=name, prefix=prefix,
                 secret_hash=runtime.get().keyring.token_hash(secret), scopes=ordered,
                 phone_number_pks=list(phone_number_pks or []), expires_at=expires_at,
                 created_by=actor.user_id, created_at=now, updated_at=now)
    session.add(key)
    session.flush()
    return CreatedKey(key, f"{LIVE_PREFIX}{prefix}.{secret}")


def check_update_key(session: Session, *, actor: OrgActor, key_id: str, name: str | None = None,
                     scopes: list[str] | None = None, phone_number_pks: list[str] | None = None) -> ApiKey:
    key = access_key(session, actor=actor, key_id=key_id)
    if name is not None:
        key.name = name
    if scopes is not None:
        key.scopes = _check_scopes(actor, scopes)
    if phone_number_pks is not None:
        key.phone_number_pks = tenancy.check_ids_in_org(session, "phone_numbers", phone_number_pks, actor,
                                                        field="phoneNumberIds")
    key.updated_at = clock.now()
    session.add(key)
    session.flush()
    return key


def do_revoke_key(session: Session, *, actor: OrgActor, key_id: str) -> ApiKey:
    key = access_key(session, actor=actor, key_id=key_id)
    key.revoked_at = key.updated_at = clock.now()
    session.add(key)
    session.flush()
    return key
