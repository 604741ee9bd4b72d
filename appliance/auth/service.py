"""Sign-up, login, password change and impersonation: the flows that open or guard sessions."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from appliance.auth import guard, passkeys, two_factor
from appliance.auth.email_links import do_send_verification, spend_token
from appliance.auth.models import OneTimeToken
from appliance.auth.sessions import Device, SignIn, do_open_session, revoke_all
from appliance.core import clock, crypto, runtime, throttle
from appliance.core.actor import Actor
from appliance.core.errors import NotFound, Unauthorized
from appliance.users import service as users_service
from appliance.users.models import User


def _invalid_credentials() -> Unauthorized:
    # One answer for an unknown email and a wrong password: nothing tells which.
    return Unauthorized("Email or password is incorrect.", code="invalid_credentials")


def check_signup(session: Session, *, email: str, password: str, name: str, locale: str,
                 device: Device) -> SignIn:
    limit = runtime.get().settings.signup_limit_per_hour
    if limit:
        throttle.take(session, f"signup:{device.ip}", limit=limit, window_seconds=3600,
                      detail="Too many sign-ups from this address. Try again later.")
    user = users_service.do_create_user(session, email=email, password=password, name=name,
                                        locale=locale)
    do_send_verification(session, user)
    return SignIn(user, do_open_session(session, user, device))


def check_login(session: Session, *, email: str, password: str, two_factor_code: str | None,
                device: Device) -> SignIn:
    user = check_credentials(session, email=email, password=password, two_factor_code=two_factor_code,
                             ip=device.ip)
    return SignIn(user, do_open_session(session, user, device))


def check_passkey_login(session: Session, *, credential: dict, two_factor_code: str | None,
                        device: Device) -> SignIn:
    """A passkey's sign-in: the same session and tokens as a password's."""
    user = passkeys.check_login(session, credential=credential, two_factor_code=two_factor_code, ip=device.ip)
    return SignIn(user, do_open_session(session, user, device))


def check_credentials(session: Session, *, email: str, password: str, two_factor_code: str | None,
                      ip: str) -> User:
    """The person with this password (and second factor), throttled per account and address.
    Opens no session: the OAuth consent page signs people in for one decision only."""
    guard.check(session, account=email, ip=ip)
    user = users_service.get_user_by_email(session, email)
    if not crypto.verify_password(user.password_hash if user else None, password):
        guard.fail(session, _invalid_credentials(), account=email, ip=ip)
    if user.two_factor_enabled:
        if not two_factor_code:
            raise Unauthorized("Enter the code from your authenticator app or a recovery code.",
                               code="two_factor_required")
        if not two_factor.verify_code(session, user, two_factor_code):
            guard.fail(session, two_factor.invalid_code(), account=email, ip=ip)
    guard.succeed(session, account=email, ip=ip)
    if crypto.password_needs_rehash(user.password_hash):
        user.password_hash = crypto.hash_password(password)
        session.add(user)
    return user


def check_change_password(session: Session, *, actor: Actor, current_password: str,
                          new_password: str, ip: str) -> None:
    """Change the password and close every other session (this one stays signed in)."""
    user = users_service.access_me(session, actor=actor)
    guard.check(session, account=user.email, ip=ip)
    if not crypto.verify_password(user.password_hash, current_password):
        guard.fail(session, Unauthorized("The current password is incorrect.",
                                         code="invalid_credentials"), account=user.email, ip=ip)
    users_service.do_set_password(session, user, new_password)
    revoke_all(session, user.id, "password_changed", keep=actor.session_id)


# Impersonation: the service team issues a short-lived token with the CLI; redeeming it opens a
# session whose access tokens carry `impersonatedBy`.
IMPERSONATION_MINUTES = 10


def do_issue_impersonation(session: Session, *, email: str, issued_by: str) -> str:
    user = users_service.get_user_by_email(session, email)
    if user is None:
        raise NotFound(f"No account with the email {email}.", code="user_not_found")
    token = crypto.random_token()
    now = clock.now()
    session.add(OneTimeToken(user_id=user.id, purpose="impersonate", issued_by=issued_by,
                             token_hash=runtime.get().keyring.token_hash(token), created_at=now,
                             expires_at=now + timedelta(minutes=IMPERSONATION_MINUTES)))
    session.flush()
    return token


def check_redeem_impersonation(session: Session, *, token: str, device: Device) -> SignIn:
    record = spend_token(session, token=token, purpose="impersonate", ip=device.ip)
    user = session.get(User, record.user_id)
    return SignIn(user, do_open_session(session, user, device, impersonated_by=record.issued_by))


