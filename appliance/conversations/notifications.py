"""E-mail to the team when a customer waits too long for a person (the notification settings):
once per wait, to the conversation's assignee, or to the owners and admins when nobody is assigned
or the organization asks for them."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.conversations import inbox_settings
from appliance.conversations.models import Conversation, InboxSettings
from appliance.core import clock, events
from appliance.mail import service as mail_service
from appliance.memberships.models import Membership
from appliance.organizations.models import Organization
from appliance.roles.models import Role
from appliance.users.models import User

BATCH = 200
MANAGERS = ("owner", "admin")


def do_notify_waiting(session: Session, *, base_url: str) -> int:
    """Queue the mails of every wait that passed its organization's threshold; answers how many."""
    sent = 0
    for row in session.exec(select(InboxSettings)):
        settings = {**inbox_settings.DEFAULTS["notifications"], **(row.notifications or {})}
        if settings["delay_email_enabled"]:
            sent += _notify_organization(session, row.organization_id, settings, base_url)
    return sent


def _notify_organization(session: Session, organization_id: str, settings: dict, base_url: str) -> int:
    now = clock.now()
    delay = settings["delay_minutes"]
    due = session.exec(select(Conversation).where(
        Conversation.organization_id == organization_id, Conversation.status == "open",
        Conversation.awaiting_reply_since <= now - timedelta(minutes=delay),
        Conversation.wait_notified_at.is_(None))
        .order_by(Conversation.awaiting_reply_since).limit(BATCH)).all()
    if not due:
        return 0
    organization = session.get(Organization, organization_id)
    managers = list(session.exec(select(User).join(Membership, Membership.user_id == User.id)
                                 .join(Role, Role.id == Membership.role_id)
                                 .where(Membership.organization_id == organization_id, Membership.suspended_at.is_(None),
                                        Role.key.in_(MANAGERS))))
    mails = 0
    for conversation in due:
        assignee = session.get(User, conversation.assignee_user_id) if conversation.assignee_user_id else None
        people = [assignee] if assignee is not None and settings["recipients"] == "assignee" else managers
        contact = session.get(Contact, conversation.contact_id)
        waited = int((now - conversation.awaiting_reply_since).total_seconds() // 60)
        for person in people:
            mail_service.do_queue_mail(
                session, to=person.email, kind="conversation_waiting", locale=person.locale, name=person.name,
                contact=(contact.name or contact.profile_name or f"+{contact.wa_id}") if contact else "?",
                organization=organization.name, minutes=waited, delay=delay,
                link=f"{base_url.rstrip('/')}/inbox/{organization_id}/c/{conversation.id}")
            mails += 1
        conversation.wait_notified_at = now
        session.add(conversation)
        # Pushes to the team's browsers and phones hear it too (push/listeners.py); outbound
        # webhooks time this event per webhook themselves.
        events.emit(session, events.CONVERSATION_UNANSWERED, organization_id=organization_id,
                    conversationId=conversation.id, phoneNumberId=conversation.phone_number_pk, minutes=waited,
                    assigneeUserId=conversation.assignee_user_id)
    return mails
