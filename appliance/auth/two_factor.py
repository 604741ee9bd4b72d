"""TOTP two-factor authentication with single-use recovery codes.

pyotp has no replay protection: we keep the last accepted time step per user and accept a code
only for a later step. Seeds are sealed with the keyring; recovery codes are stored as HMACs.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

import pyotp
from sqlmodel import Session, delete, select

from appliance.auth import guard
from appliance.auth.models import RecoveryCode
from appliance.core import clock, crypto, events, runtime
from appliance.core.actor import Actor
from appliance.core.errors import Conflict, Unauthorized
from appliance.users import service as users_service
from appliance.users.models import User

ISSUER = "Appliance"
RECOVERY_CODE_COUNT = 10
_RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i look-alikes
_STEP_SECONDS = 30


@dataclass(frozen=True)
class SetupInfo:
    secret: str
    otpauth_uri: str
    qr_svg: str


def invalid_code() -> Unauthorized:
    return Unauthorized("The two-factor code is not valid (or was already used).",
                        code="invalid_two_factor_code")


def do_setup(session: Session, *, actor: Actor) -> SetupInfo:
    """Start enrolment: a new seed, kept pending until a code from it enables 2FA."""
    user = users_service.access_me(session, actor=actor)
    if user.two_factor_enabled:
        raise Conflict("Two-factor authentication is already on; disable it first.",
                       code="two_factor_already_enabled")
    secret = pyotp.random_base32()
    user.totp_pending_secret = runtime.get().keyring.seal(secret)
    session.add(user)
    return _setup_info(secret, user.email)


def _setup_info(secret: str, email: str) -> SetupInfo:
    import segno  # on the first QR code, not at start (issue 46, footprint)

    uri = pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)
    return SetupInfo(secret, uri, segno.make(uri, error="m").svg_inline(scale=4, border=2))


def pending_setup(session: Session, *, actor: Actor) -> SetupInfo | None:
    """The enrolment under way, shown again (same seed) after a code that did not match."""
    user = users_service.access_me(session, actor=actor)
    if user.two_factor_enabled or not user.totp_pending_secret:
        return None
    return _setup_info(runtime.get().keyring.unseal(user.totp_pending_secret), user.email)


def check_enable(session: Session, *, actor: Actor, code: str, ip: str) -> list[str]:
    user = users_service.access_me(session, actor=actor)
    if user.two_factor_enabled:
        raise Conflict("Two-factor authentication is already on.", code="two_factor_already_enabled")
    if not user.totp_pending_secret:
        raise Conflict("Call POST /auth/2fa/setup first.", code="two_factor_setup_required")
    guard.check(session, account=user.email, ip=ip)
    seed = runtime.get().keyring.unseal(user.totp_pending_secret)
    if not _accept_totp(user, seed, code):
        guard.fail(session, invalid_code(), account=user.email, ip=ip)
    user.totp_secret, user.totp_pending_secret = user.totp_pending_secret, None
    user.two_factor_enabled_at = clock.now()
    session.add(user)
    events.emit(session, events.USER_TWO_FACTOR_ENABLED, user_id=user.id)
    return _replace_recovery_codes(session, user)


def check_disable(session: Session, *, actor: Actor, password: str, code: str, ip: str) -> None:
    user = _enabled_user(session, actor)
    guard.check(session, account=user.email, ip=ip)
    if not crypto.verify_password(user.password_hash, password):
        guard.fail(session, Unauthorized("The password is incorrect.", code="invalid_credentials"),
                   account=user.email, ip=ip)
    if not verify_code(session, user, code):
        guard.fail(session, invalid_code(), account=user.email, ip=ip)
    user.totp_secret = user.totp_pending_secret = None
    user.two_factor_enabled_at = None
    session.add(user)
    session.exec(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    events.emit(session, events.USER_TWO_FACTOR_DISABLED, user_id=user.id)


def check_regenerate_recovery_codes(session: Session, *, actor: Actor, code: str, ip: str) -> list[str]:
    user = _enabled_user(session, actor)
    guard.check(session, account=user.email, ip=ip)
    if not verify_code(session, user, code):
        guard.fail(session, invalid_code(), account=user.email, ip=ip)
    return _replace_recovery_codes(session, user)


def _enabled_user(session: Session, actor: Actor) -> User:
    user = users_service.access_me(session, actor=actor)
    if not user.two_factor_enabled:
        raise Conflict("Two-factor authentication is not on.", code="two_factor_not_enabled")
    return user


def verify_code(session: Session, user: User, code: str) -> bool:
    """Accept a TOTP code (6 digits, once) or an unused recovery code (then spent)."""
    code = code.strip()
    if code.isdigit() and len(code) == 6:
        return _accept_totp(user, runtime.get().keyring.unseal(user.totp_secret), code)
    return _spend_recovery_code(session, user, code)


def _accept_totp(user: User, seed: str, code: str) -> bool:
    if not (code.isdigit() and len(code) == 6):
        return False
    totp = pyotp.TOTP(seed)
    current = int(clock.now().timestamp()) // _STEP_SECONDS
    last = user.totp_last_step if user.totp_last_step is not None else -1
    for step in (current - 1, current, current + 1):  # one step of clock drift either way
        if step > last and hmac.compare_digest(totp.generate_otp(step), code):
            user.totp_last_step = step
            return True
    return False


def _normalise_recovery(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch.isalnum())


def _spend_recovery_code(session: Session, user: User, code: str) -> bool:
    digest = runtime.get().keyring.token_hash(_normalise_recovery(code))
    record = session.exec(select(RecoveryCode).where(
        RecoveryCode.user_id == user.id, RecoveryCode.code_hash == digest,
        RecoveryCode.used_at.is_(None))).first()
    if record is None:
        return False
    record.used_at = clock.now()
    session.add(record)
    return True


def _replace_recovery_codes(session: Session, user: User) -> list[str]:
    session.exec(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    keyring, now, codes = runtime.get().keyring, clock.now(), []
    for _ in range(RECOVERY_CODE_COUNT):
        raw = "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(12))
        codes.append(f"{raw[:4]}-{raw[4:8]}-{raw[8:]}")
        session.add(RecoveryCode(user_id=user.id, code_hash=keyring.token_hash(raw), created_at=now))
    session.flush()
    return codes
