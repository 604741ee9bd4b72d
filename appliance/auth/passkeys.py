"""Passkeys (WebAuthn, the `webauthn` package): register one, sign in with one without typing an email
(usernameless: the authenticator says which credential, and its userHandle names the person), list
and remove them.

- Each ceremony starts with options holding a fresh challenge, stored here: single use (deleted when
  a verification spends it), expiring after CHALLENGE_SECONDS, bound to its ceremony and, for a
  registration, to the person. A challenge that is unknown, spent, expired or of another ceremony,
  a wrong origin or relying party, an unknown credential, a bad signature or a sign counter that
  went back: 401 `passkey_rejected`, logged (never the credential itself), and the challenge is
  burned even though the request rolls back.
- Keys are discoverable (residentKey required); user verification is preferred, not required: a
  sign-in whose authenticator verified the person (PIN, biometrics: the UV flag) satisfies two-step
  sign-in; without it a person with two-step sign-in on still gives a TOTP or recovery code.
- Signing in with a passkey is guarded like a password (auth/guard.py): failures count per address,
  and per account once the credential names one; a correct one clears the account's counters.
- The relying party comes from the public address (relying_party.py); without one the ceremonies
  answer 409 `passkeys_unavailable`.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import timedelta
from typing import NoReturn

from sqlmodel import Session, delete, select

from appliance.auth import guard, relying_party, two_factor
from appliance.auth.models import Passkey, PasskeyChallenge
from appliance.auth.relying_party import RelyingParty
from appliance.core import clock, events, throttle
from appliance.core.actor import Actor
from appliance.core.db import run_after
from appliance.core.errors import Conflict, Forbidden, NotFound, Unauthorized
from appliance.users import service as users_service
from appliance.users.models import User

log = logging.getLogger(__name__)

REGISTER, LOGIN = "register", "login"
CHALLENGE_SECONDS = 300
RP_NAME = "Appliance"
MAX_PASSKEYS = 20  # per person: a list anyone can read through, and a bound on exclude lists
OPTIONS_PER_MINUTE = 30  # ceremonies started from one client address (each stores a challenge)
_MAX_CREDENTIAL_ID_BYTES = 1023  # WebAuthn's bound


def _rejected() -> Unauthorized:
    return Unauthorized("The passkey was not accepted: its request expired or was already used, or it came from "
                        "another address. Try again.", code="passkey_rejected")


def _party() -> RelyingParty:
    party = relying_party.current()
    if party is None:
        raise Conflict("Passkeys need the appliance's https address (Go live) or localhost; its public address is "
                       "neither.", code="passkeys_unavailable")
    return party


def _b64url(raw: bytes) -> str:
    from webauthn.helpers import bytes_to_base64url

    return bytes_to_base64url(raw)


def _new_challenge(session: Session, ceremony: str, *, user_id: str | None, ip: str) -> bytes:
    throttle.take(session, f"passkey_options:{ip}", limit=OPTIONS_PER_MINUTE, window_seconds=60,
                  detail="Too many passkey requests from this address. Try again in a minute.")
    challenge, now = secrets.token_bytes(32), clock.now()
    session.add(PasskeyChallenge(ceremony=ceremony, user_id=user_id, challenge=_b64url(challenge), created_at=now,
                                 expires_at=now + timedelta(seconds=CHALLENGE_SECONDS)))
    session.flush()
    return challenge


def _as_json(options) -> dict:
    """The options as `PublicKeyCredential*OptionsJSON` (bytes in base64url), what the page's script
    and `PublicKeyCredential.parse*OptionsFromJSON` read."""
    from webauthn import options_to_json

    return json.loads(options_to_json(options))


def _spend_challenge(session: Session, value: str | None, ceremony: str, user_id: str | None) -> bool:
    """Delete the live challenge `value` of this ceremony (and person): whether there was one. The
    delete is the claim, so two verifications racing for one challenge cannot both have it; a
    request that then fails rolls it back (and `_reject` burns it)."""
    if not value:
        return False
    owner = PasskeyChallenge.user_id == user_id if user_id else PasskeyChallenge.user_id.is_(None)
    spent = session.exec(delete(PasskeyChallenge).where(
        PasskeyChallenge.challenge == value, PasskeyChallenge.ceremony == ceremony, owner,
        PasskeyChallenge.expires_at > clock.now()))
    return spent.rowcount == 1


def _reject(session: Session, ceremony: str, why: str, *, ip: str, challenge: str | None,
            account: str | None = None, guarded: bool = False) -> NoReturn:
    log.warning("passkey %s refused from %s: %s", ceremony, ip, why)
    if challenge:
        run_after(session, lambda s: s.exec(delete(PasskeyChallenge).where(PasskeyChallenge.challenge == challenge)))
    if guarded:
        guard.fail(session, _rejected(), account=account, ip=ip)
    raise _rejected()


def _challenge_in(client_data_json: bytes) -> str | None:
    from webauthn.helpers import parse_client_data_json

    try:
        return _b64url(parse_client_data_json(client_data_json).challenge)
    except Exception:  # malformed bytes from the client: no challenge, rejected by the caller
        return None


# Registration: a signed-in person adds a passkey.

def do_registration_options(session: Session, *, actor: Actor, ip: str) -> dict:
    from webauthn import generate_registration_options
    from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor,
                                          ResidentKeyRequirement, UserVerificationRequirement)

    party = _party()
    user = _registering_user(session, actor)
    existing = list_passkeys(session, actor=actor)
    if len(existing) >= MAX_PASSKEYS:
        raise Conflict(f"You have {MAX_PASSKEYS} passkeys, the most an account keeps: remove one first.",
                       code="passkey_limit_reached")
    challenge = _new_challenge(session, REGISTER, user_id=user.id, ip=ip)
    options = generate_registration_options(
        rp_id=party.id, rp_name=RP_NAME, user_id=user.id.encode(), user_name=user.email, user_display_name=user.name,
        challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED,
                                                               require_resident_key=True,
                                                               user_verification=UserVerificationRequirement.PREFERRED),
        # The same authenticator twice would be one key listed twice: the browser says it has one.
        exclude_credentials=[PublicKeyCredentialDescriptor(id=_bytes(p.credential_id)) for p in existing])
    return _as_json(options)


def _registering_user(session: Session, actor: Actor) -> User:
    if actor.impersonated_by:  # a new way in must be the person's own, never the service team's
        raise Forbidden("Passkeys cannot be added while impersonating.", code="impersonation_not_allowed")
    return users_service.access_me(session, actor=actor)


def _bytes(value: str) -> bytes:
    from webauthn import base64url_to_bytes

    return base64url_to_bytes(value)


def check_register(session: Session, *, actor: Actor, credential: dict, name: str, ip: str) -> Passkey:
    """Keep the passkey `credential` (what navigator.credentials.create answered) under `name`."""
    from webauthn import verify_registration_response
    from webauthn.helpers import parse_registration_credential_json

    party = _party()
    user = _registering_user(session, actor)
    try:
        parsed = parse_registration_credential_json(credential)
    except Exception as exc:  # whatever the client sent that is no credential
        _reject(session, REGISTER, f"not a credential ({type(exc).__name__})", ip=ip, challenge=None)
    challenge = _challenge_in(parsed.response.client_data_json)
    if not _spend_challenge(session, challenge, REGISTER, user.id):
        _reject(session, REGISTER, "unknown, spent or expired challenge", ip=ip, challenge=None)
    try:
        verified = verify_registration_response(credential=parsed, expected_challenge=_bytes(challenge),
                                                expected_rp_id=party.id, expected_origin=party.origin)
    except Exception as exc:  # the library's refusals, and bytes it could not even read
        _reject(session, REGISTER, str(exc)[:200], ip=ip, challenge=challenge)
    if len(verified.credential_id) > _MAX_CREDENTIAL_ID_BYTES:
        _reject(session, REGISTER, "credential id too long", ip=ip, challenge=challenge)
    credential_id = _b64url(verified.credential_id)
    if session.exec(select(Passkey.id).where(Passkey.credential_id == credential_id)).first() is not None:
        raise Conflict("This passkey is already registered.", code="passkey_already_registered")
    passkey = Passkey(user_id=user.id, credential_id=credential_id, public_key=verified.credential_public_key,
                      sign_count=verified.sign_count, transports=[t.value for t in parsed.response.transports or []],
                      aaguid=verified.aaguid, name=name, user_verified=verified.user_verified,
                      backed_up=verified.credential_backed_up, created_at=clock.now())
    session.add(passkey)
    session.flush()
    events.emit(session, events.USER_PASSKEY_ADDED, user_id=user.id, passkey_id=passkey.id)
    return passkey


# Sign-in: anyone, without an email; the passkey names the person.

def do_login_options(session: Session, *, ip: str) -> dict:
    from webauthn import generate_authentication_options
    from webauthn.helpers.structs import UserVerificationRequirement

    party = _party()
    challenge = _new_challenge(session, LOGIN, user_id=None, ip=ip)
    # No allowCredentials: the browser offers every passkey it holds for this relying party.
    options = generate_authentication_options(rp_id=party.id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
                                              allow_credentials=[],
                                              user_verification=UserVerificationRequirement.PREFERRED)
    return _as_json(options)


def check_login(session: Session, *, credential: dict, two_factor_code: str | None, ip: str) -> User:
    """The person whose passkey signed this login challenge (and second factor when the passkey did
    not verify them and they use two-step sign-in). Opens no session: the caller does, as after a
    password."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import parse_authentication_credential_json

    party = _party()
    guard.check(session, account=None, ip=ip)
    try:
        parsed = parse_authentication_credential_json(credential)
    except Exception as exc:
        _reject(session, LOGIN, f"not a credential ({type(exc).__name__})", ip=ip, challenge=None, guarded=True)
    challenge = _challenge_in(parsed.response.client_data_json)
    if not _spend_challenge(session, challenge, LOGIN, None):
        _reject(session, LOGIN, "unknown, spent or expired challenge", ip=ip, challenge=None, guarded=True)
    passkey = session.exec(select(Passkey).where(Passkey.credential_id == _b64url(parsed.raw_id))).first()
    if passkey is None:
        _reject(session, LOGIN, f"unknown credential {parsed.id[:12]}…", ip=ip, challenge=challenge, guarded=True)
    user = session.get(User, passkey.user_id)
    handle = parsed.response.user_handle
    if handle is not None and handle != user.id.encode():
        _reject(session, LOGIN, f"user handle does not match passkey {passkey.id}", ip=ip, challenge=challenge,
                account=user.email, guarded=True)
    guard.check(session, account=user.email, ip=ip)
    try:
        verified = verify_authentication_response(
            credential=parsed, expected_challenge=_bytes(challenge), expected_rp_id=party.id,
            expected_origin=party.origin, credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except Exception as exc:
        _reject(session, LOGIN, f"passkey {passkey.id}: {str(exc)[:200]}", ip=ip, challenge=challenge,
                account=user.email, guarded=True)
    if user.two_factor_enabled and not verified.user_verified:
        # The key was present but did not verify the person: it counts as one factor, like a password.
        if not two_factor_code:
            raise Unauthorized("Enter the code from your authenticator app or a recovery code.",
                               code="two_factor_required")
        if not two_factor.verify_code(session, user, two_factor_code):
            guard.fail(session, two_factor.invalid_code(), account=user.email, ip=ip)
    passkey.sign_count, passkey.last_used_at = verified.new_sign_count, clock.now()
    passkey.user_verified, passkey.backed_up = verified.user_verified, verified.credential_backed_up
    session.add(passkey)
    guard.succeed(session, account=user.email, ip=ip)
    return user


# The person's own list.

def list_passkeys(session: Session, *, actor: Actor) -> list[Passkey]:
    return list(session.exec(select(Passkey).where(Passkey.user_id == actor.user_id)
                             .order_by(Passkey.created_at, Passkey.id)).all())


def do_remove(session: Session, *, actor: Actor, passkey_id: str) -> None:
    """Remove one of the person's passkeys; another person's answers 404 like one that never was."""
    passkey = session.get(Passkey, passkey_id)
    if passkey is None or passkey.user_id != actor.user_id:
        raise NotFound("No passkey of yours with this id.", code="passkey_not_found")
    session.delete(passkey)
    session.flush()
    events.emit(session, events.USER_PASSKEY_REMOVED, user_id=actor.user_id, passkey_id=passkey_id)

