"""Reading the inbox: the conversation list with its filters, one conversation, the unread badges.

Every read stays within the actor's limits (a key's phone numbers, a member's business accounts);
an item carries its contact and tags, loaded for the whole page in one query each."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.contacts import service as contacts_service
from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation, ConversationTag
from appliance.core import pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import NotFound
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers.models import PhoneNumber
from appliance.tags import service as tags_service

STATUSES = ("open", "snoozed", "closed")
# Pinned first, then the latest activity: the inbox indexes hold exactly this order.
INBOX_ORDER = [Conversation.pinned, Conversation.last_message_at, Conversation.id]


def visible(query, actor: OrgActor):
    """Only the conversations of the actor's numbers and business accounts."""
    query = tenancy.only_allowed_phone_numbers(query, Conversation.phone_number_pk, actor)
    if actor.waba_pks:
        query = query.where(Conversation.phone_number_pk.in_(
            tenancy.only_visible_wabas(select(PhoneNumber.id), PhoneNumber.waba_pk, actor)))
    return query


def about_visible(query, conversation_column, actor: OrgActor):
    """Records that may be about a conversation (tasks, appointments): those about none, or about one
    the actor sees (the others belong to numbers outside its scope)."""
    if not actor.phone_number_pks and not actor.waba_pks:
        return query
    return query.where(conversation_column.is_(None) | conversation_column.in_(visible(select(Conversation.id), actor)))


def _number_of(session: Session, actor: OrgActor, conversation_id: str) -> str | None:
    return session.exec(select(Conversation.phone_number_pk).where(
        Conversation.id == conversation_id, Conversation.organization_id == actor.organization_id)).first()


def sees_about(session: Session, *, actor: OrgActor, conversation_id: str | None) -> bool:
    """Whether the actor sees the conversation a record is about (about none: yes)."""
    scope = phone_numbers_service.scope_of(session, actor)
    return conversation_id is None or not scope.restricted or scope.reaches(_number_of(session, actor, conversation_id))


def check_links(session: Session, *, actor: OrgActor, contact_id: str | None, conversation_id: str | None) -> None:
    """The contact and conversation a record is put on (a task, an appointment), checked on every
    change that names them: each the organization's (400 `unknown_ids` by its field), and the
    conversation one whose number the actor reaches (403 `phone_number_not_allowed`)."""
    for value, table, field in ((conversation_id, "conversations", "conversationId"), (contact_id, "contacts", "contactId")):
        if value:
            tenancy.check_ids_in_org(session, table, [value], actor, field=field)
    scope = phone_numbers_service.scope_of(session, actor)
    if conversation_id and scope.restricted:
        number = _number_of(session, actor, conversation_id)
        if number is not None:
            scope.check_covers([number])


@dataclass
class InboxFilter:
    """The list's filters; `assignee` is a user id, "me" or "none" (unassigned)."""
    status: str | None = None
    phone_number_pk: str | None = None
    assignee: str | None = None
    tag_id: str | None = None
    unread_only: bool = False
    handoff_pending: bool | None = None
    search: str | None = None
    resolution: str | None = None


def list_conversations(session: Session, *, actor: OrgActor, filters: InboxFilter, take: int,
                       cursor: str | None) -> pagination.Page:
    # Rows of the table, not mapped objects: building 50 instances a page was a third of its cost.
    query = visible(select(*Conversation.__table__.columns).where(Conversation.organization_id == actor.organization_id), actor)
    if filters.status:
        query = query.where(Conversation.status == filters.status)
    if filters.phone_number_pk:
        query = query.where(Conversation.phone_number_pk == filters.phone_number_pk)
    if filters.assignee == "none":
        query = query.where(Conversation.assignee_user_id.is_(None))
    elif filters.assignee:
        query = query.where(Conversation.assignee_user_id == (actor.user_id if filters.assignee == "me" else filters.assignee))
    if filters.tag_id:
        query = query.where(Conversation.id.in_(select(ConversationTag.conversation_id)
                                                .where(ConversationTag.tag_id == filters.tag_id)))
    if filters.unread_only:
        query = query.where(Conversation.unread.is_(True))
    if filters.handoff_pending is not None:
        query = query.where(Conversation.handoff_pending.is_(filters.handoff_pending))
    if filters.resolution:
        query = query.where(Conversation.resolution == filters.resolution)
    if filters.search:
        query = query.where(Conversation.contact_id.in_(
            contacts_service.matching(actor.organization_id, filters.search)))
    page = pagination.paginate(session, query, key=INBOX_ORDER, take=take, cursor=cursor)
    page.items = with_details(session, page.items)
    return page


def with_details(session: Session, conversations: list) -> list[SimpleNamespace]:
    """The conversations (mapped objects or table rows) as answers show them: each with its contact
    and tags (one query each)."""
    if not conversations:
        return []
    ids = [c.id for c in conversations]
    contacts = {c.id: c for c in session.exec(select(*Contact.__table__.columns).where(
        Contact.id.in_({c.contact_id for c in conversations})))}
    links = session.exec(select(ConversationTag.conversation_id, ConversationTag.tag_id)
                         .where(ConversationTag.conversation_id.in_(ids))).all()
    tags = tags_service.tags_by_id(session, organization_id=conversations[0].organization_id,
                                   tag_ids=list({tag_id for _, tag_id in links}))
    tags_of: dict[str, list] = {}
    for conversation_id, tag_id in links:
        tags_of.setdefault(conversation_id, []).append(tags[tag_id])
    return [SimpleNamespace(**(c.model_dump() if isinstance(c, Conversation) else c._mapping),
                            contact=contacts.get(c.contact_id),
                            tags=sorted(tags_of.get(c.id, []), key=lambda t: t.name_key)) for c in conversations]


def access_conversation(session: Session, *, actor: OrgActor, conversation_id: str) -> Conversation:
    conversation = session.exec(visible(select(Conversation).where(
        Conversation.id == conversation_id, Conversation.organization_id == actor.organization_id), actor)).first()
    if conversation is None:
        raise NotFound("No conversation with this id in this organization.", code="conversation_not_found")
    return conversation


def view_conversation(session: Session, *, actor: OrgActor, conversation_id: str) -> SimpleNamespace:
    return with_details(session, [access_conversation(session, actor=actor, conversation_id=conversation_id)])[0]


def unread_counts(session: Session, *, actor: OrgActor, phone_number_pk: str | None = None) -> dict:
    """Unread conversations by status, and among the open ones the actor's own and the unassigned."""
    query = visible(select(Conversation.status, Conversation.assignee_user_id, func.count())
                    .where(Conversation.organization_id == actor.organization_id, Conversation.unread.is_(True)), actor)
    if phone_number_pk:
        query = query.where(Conversation.phone_number_pk == phone_number_pk)
    counts = {status: 0 for status in STATUSES} | {"mine": 0, "unassigned": 0}
    # In the unread index's order (assignee, status): no sort, and the planner prefers it.
    for status, assignee, count in session.exec(query.group_by(Conversation.assignee_user_id, Conversation.status)):
        counts[status] = counts.get(status, 0) + count
        if status == "open" and assignee is None:
            counts["unassigned"] += count
        elif status == "open" and assignee == actor.user_id:
            counts["mine"] += count
    counts["total"] = sum(counts[status] for status in STATUSES)
    return counts
