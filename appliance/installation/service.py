"""What the installation's administrators (the person of the first run, and whoever `appliance staff
admin EMAIL` names: `users.installation_admin`) do: who may, and the private servers the appliance
may reach for organizations (the public address is public_address.py's)."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock
from appliance.core.errors import Conflict, Forbidden, Invalid, NotFound
from appliance.installation import addresses
from appliance.installation.models import AllowedPrivateServer
from appliance.settings import parse_origins
from appliance.users.models import User

CHOOSES_PRIVATE_SERVERS = "chooses the private servers the appliance may reach"


def check_admin(session: Session, user_id: str | None, *, what: str = "manages the installation") -> User:
    """403 not_installation_admin for anyone else; `what` finishes the sentence."""
    user = session.get(User, user_id) if user_id else None
    if user is None or not user.installation_admin:
        raise Forbidden(f"Only an administrator of the installation (who ran the first setup, or whom "
                        f"`appliance staff admin` named) {what}.", code="not_installation_admin")
    return user


def check_save_private_servers(session: Session, *, user_id: str, text: str) -> list[str]:
    """The allowed private servers become those in `text` (scheme://host[:port], one a line or
    comma separated); answers them as stored. 400 invalid_origin names the first entry that is not
    one; 400 set_by_environment while APPLIANCE_ALLOWED_PRIVATE_URLS decides."""
    check_admin(session, user_id, what=CHOOSES_PRIVATE_SERVERS)
    if addresses.from_environment():
        raise Invalid("APPLIANCE_ALLOWED_PRIVATE_URLS decides the private servers: change it there.",
                      code="set_by_environment")
    try:
        origins = parse_origins(text)
    except ValueError as exc:
        raise Invalid(f"Write one server a line as scheme://host or scheme://host:port ({exc}).",
                      code="invalid_origin", errors={"origins": [str(exc)]}) from None
    now = clock.now()
    for row in session.exec(select(AllowedPrivateServer)).all():  # through the ORM: the rule's cache sees the change
        session.delete(row)
    session.flush()
    texts = sorted(addresses.origin_text(origin) for origin in origins)
    for origin in texts:
        session.add(AllowedPrivateServer(origin=origin, added_by_user_id=user_id, added_at=now))
    session.flush()
    return texts


def check_admin_actor(session: Session, actor) -> str:
    """The caller's user id if it is a person who administers the installation (not an API key,
    not an application): 403 `not_installation_admin` otherwise."""
    check_admin(session, actor.user_id if actor.kind == "user" else None)
    return actor.user_id


def do_set_admin(session: Session, *, email: str, admin: bool) -> User:
    """`appliance staff admin EMAIL [--remove]`: names (or stops naming) an administrator of the
    installation. The last one is never removed: someone must be able to manage it."""
    user = session.exec(select(User).where(User.email == email.strip().lower())).first()
    if user is None:
        raise NotFound("No user with this email.", code="user_not_found")
    if not admin and user.installation_admin:
        others = session.exec(select(User.id).where(User.installation_admin, User.id != user.id)).first()
        if others is None:
            raise Conflict("This is the installation's last administrator: name another one first.",
                           code="last_installation_admin")
    user.installation_admin = admin
    session.flush()
    return user
