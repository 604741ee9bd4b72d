"""Security notices: the account holder hears of every change to how they sign in."""

from sqlmodel import Session

from appliance.core import dispatcher, events
from appliance.core.dispatcher import Event
from appliance.mail import service as mail_service
from appliance.users.models import User
from appliance.installation import public_address

_NOTICES = {
    events.USER_PASSWORD_CHANGED: "password_changed",
    events.USER_TWO_FACTOR_ENABLED: "two_factor_enabled",
    events.USER_TWO_FACTOR_DISABLED: "two_factor_disabled",
    events.USER_PASSKEY_ADDED: "passkey_added",
    events.USER_PASSKEY_REMOVED: "passkey_removed",
}


@dispatcher.subscribe(*_NOTICES)
def send_security_notice(session: Session, event: Event) -> None:
    user = session.get(User, event.data["user_id"])
    if user is None:
        return
    mail_service.do_queue_mail(session, to=user.email, kind=_NOTICES[event.name], locale=user.locale,
                               name=user.name, base_url=public_address.base_url())
