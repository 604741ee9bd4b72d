"""What people are pushed, through the outbox (the decided triggers):

- a conversation assigned to them (not by themselves): `assigned`;
- a customer's new message in a conversation assigned to them: `customer_message`;
- a customer asking for a person on a number they work on (members who read conversations, within
  their business accounts): `handoff`;
- a customer left waiting (the inbox's wait notice, `conversation.unanswered` from
  conversations/notifications.py): the assignee, else the organization's managers: `unanswered`.

Each person's preferences choose among those; people with no browser or device are skipped before
anything is queued. One queue task per person and notice, after the commit."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation
from appliance.core import dispatcher, events
from appliance.core.dispatcher import Event
from appliance.core.i18n import Words, _l, language_of
from appliance.core.queue import enqueue_after_commit
from appliance.memberships.models import Membership
from appliance.messages import text as message_text
from appliance.messages.models import Message
from appliance.phone_numbers.models import PhoneNumber
from appliance.push import service, tasks
from appliance.push.models import PushDevice, PushSubscription
from appliance.roles.models import Role
from appliance.users.models import User

MANAGERS = ("owner", "admin", "supervisor")
_WORDS = Words("push", {
    "assigned": _l("Conversation assigned to you"), "handoff": _l("A customer asks for a person"),
    "unanswered": _l("{contact} has waited {minutes} min"), "unanswered_body": _l("Nobody has answered yet."),
})


# The listener's name is its outbox cursor: renaming it would push every past event again.
@dispatcher.subscribe(events.CONVERSATION_ASSIGNMENT_CHANGED, events.MESSAGE_CREATED, events.CONVERSATION_HANDOFF_REQUESTED,
                  events.CONVERSATION_UNANSWERED, batch=True,
                  when=lambda data: data.get("direction") in (None, "in"))
def push_people(session: Session, batch: list[Event]) -> None:
    reachable = _reachable(session)
    if not reachable:
        return  # nobody has a browser or a device subscribed: nothing to work out
    wants: dict[str, list[str]] = {}  # each person's triggers, read once a batch
    for event in batch:
        conversation = session.get(Conversation, event.data.get("conversationId")) if event.data.get("conversationId") else None
        if conversation is None:
            continue
        for user_id, trigger in _whom(session, event, conversation):
            if user_id in reachable and user_id not in wants:
                wants[user_id] = service.preferences(session, user_id)
            if user_id in reachable and trigger in wants[user_id]:
                notice = _notice(session, event, conversation, trigger, _locale(session, user_id))
                enqueue_after_commit(session, tasks.push_to_users, [user_id], notice)


def _reachable(session: Session) -> set[str]:
    return set(session.exec(select(PushSubscription.user_id)).all()) | set(session.exec(select(PushDevice.user_id)).all())


def _whom(session: Session, event: Event, conversation: Conversation) -> list[tuple[str, str]]:
    data = event.data
    if event.name == events.CONVERSATION_ASSIGNMENT_CHANGED:
        to = data.get("assigneeUserId")
        return [(to, "assigned")] if to and to != data.get("changedByUserId") else []
    if event.name == events.MESSAGE_CREATED:
        return [(conversation.assignee_user_id, "customer_message")] if conversation.assignee_user_id else []
    if event.name == events.CONVERSATION_HANDOFF_REQUESTED:
        return [(user_id, "handoff") for user_id in _team_of(session, conversation)]
    if event.name == events.CONVERSATION_UNANSWERED:
        if conversation.assignee_user_id:
            return [(conversation.assignee_user_id, "unanswered")]
        return [(user_id, "unanswered") for user_id in _team_of(session, conversation, roles=MANAGERS)]
    return []


def _team_of(session: Session, conversation: Conversation, roles: tuple[str, ...] | None = None) -> list[str]:
    """Members who read the conversation's number's conversations (within their business accounts)."""
    waba_pk = session.exec(select(PhoneNumber.waba_pk).where(PhoneNumber.id == conversation.phone_number_pk)).first()
    rows = session.exec(select(Membership.user_id, Membership.waba_pks, Role.key, Role.permissions)
                        .join(Role, Role.id == Membership.role_id)
                        .where(Membership.organization_id == conversation.organization_id,
                               Membership.suspended_at.is_(None))).all()
    return [user_id for user_id, wabas, key, permissions in rows
            if "conversations:read" in (permissions or []) and (not wabas or waba_pk in wabas)
            and (roles is None or key in roles)]


def _locale(session: Session, user_id: str) -> str:
    return (session.exec(select(User.locale).where(User.id == user_id)).first() or "en")[:2]


def _notice(session: Session, event: Event, conversation: Conversation, trigger: str, locale: str) -> dict:
    words = _WORDS[language_of(locale)]
    contact = session.get(Contact, conversation.contact_id)
    who = (contact.name or contact.profile_name or f"+{contact.wa_id}") if contact else "?"
    title, body = who, conversation.preview or ""
    if trigger == "customer_message" and event.data.get("messageId"):
        message = session.get(Message, event.data["messageId"])
        body = (message_text.plain_text(message.type, message.payload) or f"[{message.type}]") if message else body
    elif trigger == "assigned":
        title, body = words["assigned"], f"{who}: {body}"
    elif trigger == "handoff":
        title, body = words["handoff"], f"{who}: {event.data.get('reason') or body}"
    elif trigger == "unanswered":
        title, body = words["unanswered"].format(contact=who, minutes=event.data.get("minutes", "?")), words["unanswered_body"]
    return {"title": title[:120], "body": (body or "")[:1000], "conversationId": conversation.id, "tag": conversation.id,
            "url": f"/inbox/{conversation.organization_id}/c/{conversation.id}"}
