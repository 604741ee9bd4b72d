"""Flows driven by single-use tokens: email verification, password reset, and the spending of
any one-time token (impersonation uses it too). Tokens are stored as HMACs, never in clear."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select, update

from appliance.auth import guard
from appliance.auth.models import OneTimeToken
from appliance.auth.sessions import do_reset_sessions
from appliance.core import clock, crypto, runtime, throttle
from appliance.core.actor import Actor
from appliance.core.errors import TooMany, Unauthorized
from appliance.mail import service as mail_service
from appliance.users import service as users_service
from appliance.users.models import User
from appliance.installation import public_address

VERIFY_HOURS = 48
RESET_MINUTES = 60
MAILS_PER_HOUR = 5  # per account, for each kind of mail a person can trigger


def _create(session: Session, user: User, purpose: str, lifetime: timedelta) -> str:
    token = crypto.random_token()
    now = clock.now()
    session.add(OneTimeToken(user_id=user.id, purpose=purpose, created_at=now, expires_at=now + lifetime,
                             token_hash=runtime.get().keyring.token_hash(token)))
    session.flush()
    return token


def _link(path: str, token: str) -> str:
    return public_address.url(f"{path}?token={token}")


def spend_token(session: Session, *, token: str, purpose: str, ip: str) -> OneTimeToken:
    """Mark a valid, unused, unexpired token of `purpose` used; otherwise a throttled 401."""
    guard.check(session, account=None, ip=ip)
    record = session.exec(select(OneTimeToken).where(
        OneTimeToken.token_hash == runtime.get().keyring.token_hash(token),
        OneTimeToken.purpose == purpose)).first()
    if record is None or record.used_at is not None or record.expires_at <= clock.now():
        guard.fail(session, Unauthorized("This link is invalid, used or expired.", code="invalid_token"),
                   account=None, ip=ip)
    record.used_at = clock.now()
    session.add(record)
    return record


def _spend_others(session: Session, user_id: str, purpose: str) -> None:
    session.exec(update(OneTimeToken)
                 .where(OneTimeToken.user_id == user_id, OneTimeToken.purpose == purpose,
                        OneTimeToken.used_at.is_(None))
                 .values(used_at=clock.now()))


def _within_mail_budget(session: Session, key: str) -> bool:
    try:
        throttle.take(session, key, limit=MAILS_PER_HOUR, window_seconds=3600)
    except TooMany:
        return False
    return True


def do_send_verification(session: Session, user: User) -> None:
    token = _create(session, user, "verify_email", timedelta(hours=VERIFY_HOURS))
    mail_service.do_queue_mail(session, to=user.email, kind="verify_email", locale=user.locale,
                               name=user.name, token=token, hours=VERIFY_HOURS,
                               link=_link("/verify-email", token))


def check_resend_verification(session: Session, *, actor: Actor) -> bool:
    """Send a new verification mail; False when already verified (nothing is sent)."""
    user = users_service.access_me(session, actor=actor)
    if user.email_verified:
        return False
    throttle.take(session, f"verify-mail:{user.id}", limit=MAILS_PER_HOUR, window_seconds=3600,
                  detail="Too many verification mails; check your inbox or try again later.")
    do_send_verification(session, user)
    return True


def check_verify_email(session: Session, *, token: str, ip: str) -> User:
    record = spend_token(session, token=token, purpose="verify_email", ip=ip)
    user = session.get(User, record.user_id)
    users_service.do_mark_email_verified(session, user)
    return user


def do_forgot_password(session: Session, *, email: str) -> None:
    """Mail a reset link if the account exists; the caller answers the same either way."""
    user = users_service.get_user_by_email(session, email)
    if user is None or not _within_mail_budget(session, f"reset-mail:{user.id}"):
        return
    _spend_others(session, user.id, "reset_password")  # only the newest link works
    token = _create(session, user, "reset_password", timedelta(minutes=RESET_MINUTES))
    mail_service.do_queue_mail(session, to=user.email, kind="reset_password", locale=user.locale,
                               name=user.name, token=token, link=_link("/reset-password", token))


def check_reset_password(session: Session, *, token: str, password: str, ip: str) -> None:
    """Set a new password from a mailed token; every session of the account is closed."""
    record = spend_token(session, token=token, purpose="reset_password", ip=ip)
    user = session.get(User, record.user_id)
    users_service.do_set_password(session, user, password)
    users_service.do_mark_email_verified(session, user)  # the link proved the inbox is theirs
    _spend_others(session, user.id, "reset_password")
    do_reset_sessions(session, user)
    guard.succeed(session, account=user.email)
