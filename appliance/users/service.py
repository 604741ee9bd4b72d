"""Account records and profiles. Sign-in, sessions and 2FA live in appliance.auth."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from appliance.core import clock, crypto, events
from appliance.core.actor import Actor
from appliance.core.errors import Conflict, NotFound
from appliance.users.models import User


def get_user(session: Session, user_id: str) -> User | None:
    return session.get(User, user_id)


def get_user_by_email(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == email.strip().lower())).first()


def anyone_exists(session: Session) -> bool:
    """Whether any person has an account (until then the appliance is on its first run)."""
    return session.exec(select(User.id).limit(1)).first() is not None


def access_me(session: Session, *, actor: Actor) -> User:
    user = session.get(User, actor.user_id)
    if user is None:
        raise NotFound("This account no longer exists.", code="user_not_found")
    return user


def do_create_user(session: Session, *, email: str, password: str, name: str,
                   locale: str = "en") -> User:
    """Create an account; raises Conflict when the email is taken."""
    if get_user_by_email(session, email) is not None:
        raise Conflict("An account with this email already exists.", code="email_taken",
                       errors={"email": ["Already registered."]})
    now = clock.now()
    # The installation's first person administers it (its mail server), however they signed up.
    user = User(email=email.lower(), name=name, password_hash=crypto.hash_password(password),
                locale=locale, installation_admin=not anyone_exists(session), password_changed_at=now,
                created_at=now, updated_at=now)
    session.add(user)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:  # a concurrent sign-up with the same email won the race
        raise Conflict("An account with this email already exists.", code="email_taken",
                       errors={"email": ["Already registered."]}) from None
    events.emit(session, events.USER_SIGNED_UP, user_id=user.id)
    return user


def do_update_profile(session: Session, *, actor: Actor, name: str | None = None,
                      locale: str | None = None, timezone: str | None = None) -> User:
    user = access_me(session, actor=actor)
    changes = {"name": name, "locale": locale, "timezone": timezone}
    for field, value in changes.items():
        if value is not None:
            setattr(user, field, value)
    user.updated_at = clock.now()
    session.add(user)
    session.flush()
    return user


def do_set_password(session: Session, user: User, password: str) -> None:
    now = clock.now()
    user.password_hash = crypto.hash_password(password)
    user.password_changed_at = user.updated_at = now
    session.add(user)
    events.emit(session, events.USER_PASSWORD_CHANGED, user_id=user.id)


def do_mark_email_verified(session: Session, user: User) -> None:
    if user.email_verified_at is None:
        user.email_verified_at = user.updated_at = clock.now()
        session.add(user)
        events.emit(session, events.USER_EMAIL_VERIFIED, user_id=user.id)
