"""What people change on a conversation: status (open, snoozed until a time, closed with a
category and resolution), read marks, pin, assignment, tags, notes, the hand-off to a person and
back to the bot, the AI agent that answers it. Each change is one event: `conversation.updated`
(with the fields that changed), `conversation.assignment_changed` or
`conversation.handoff_requested`; live updates and webhooks both read them from the outbox."""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone, tzinfo

from sqlalchemy import delete, update
from sqlmodel import Session, select

from appliance.attendance import guard as attendance_guard
from appliance.conversations import activity
from appliance.conversations.inbox import access_conversation
from appliance.conversations.models import Conversation, ConversationNote, ConversationTag
from appliance.core import clock, events
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid, NotFound
from appliance.memberships.models import Membership
from appliance.tags import service as tags_service


def _changed(session: Session, conversation: Conversation, *, announce: dict | None = None, always: bool = False,
             **changes) -> Conversation:
    """Apply the changes that differ; one `conversation.updated` naming them (none if nothing did,
    unless `always`: an action worth hearing of itself), with `announce` added to the event's data."""
    different = {name: value for name, value in changes.items() if getattr(conversation, name) != value}
    if not different and not always:
        return conversation
    for name, value in different.items():
        setattr(conversation, name, value)
    conversation.updated_at = clock.now()
    session.add(conversation)
    events.emit(session, events.CONVERSATION_UPDATED, organization_id=conversation.organization_id,
                conversationId=conversation.id, phoneNumberId=conversation.phone_number_pk,
                changes=sorted(_public(name) for name in different), **(announce or {}))
    return conversation


def _public(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


_NO_HANDOFF = {"handoff_pending": False, "handoff_reason": None, "handoff_detail": None, "handoff_requested_at": None}


def do_set_status(session: Session, *, actor: OrgActor, conversation_id: str, status: str,
                  snoozed_until: datetime | None = None, category: str | None = None,
                  resolution: str | None = None) -> Conversation:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    now = clock.now()
    if status != "snoozed" and snoozed_until is not None:
        raise Invalid("snoozedUntil goes with status snoozed.", errors={"snoozedUntil": ["Only when snoozing."]})
    if status != "closed" and (category is not None or resolution is not None):
        raise Invalid("category and resolution go with status closed (or PATCH /categorize).",
                      errors={"category" if category is not None else "resolution": ["Only when closing."]})
    changes: dict = {"status": status}
    if status == "snoozed":
        if snoozed_until is None or snoozed_until <= now:
            raise Invalid("A snooze needs snoozedUntil, a time in the future.", code="invalid_snooze",
                          errors={"snoozedUntil": ["Must be in the future."]})
        changes.update(snoozed_until=snoozed_until, closed_at=None)
    elif status == "closed":  # a hand-off ends with the conversation: the next period starts with the bot
        changes.update(snoozed_until=None, closed_at=conversation.closed_at if conversation.status == "closed" else now,
                       **_NO_HANDOFF)
        if conversation.status != "closed":
            activity.count(session, organization_id=conversation.organization_id, at=now, user_id=actor.user_id, closed=1)
        if category is not None:
            changes["category"] = category
        if resolution is not None:
            changes["resolution"] = resolution
    else:
        changes.update(snoozed_until=None, closed_at=None)
    return _changed(session, conversation, **changes)


def do_wake_snoozed(session: Session) -> int:
    """Snoozes that came due reopen their conversations (a customer's message reopens one sooner)."""
    due = session.exec(select(Conversation).where(Conversation.status == "snoozed",
                                                  Conversation.snoozed_until <= clock.now())).all()
    for conversation in due:
        _changed(session, conversation, status="open", snoozed_until=None)
    return len(due)


def do_categorize(session: Session, *, actor: OrgActor, conversation_id: str, **fields) -> Conversation:
    """Set category and/or resolution without touching the status (null clears one)."""
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    return _changed(session, conversation, **fields)


def do_set_read(session: Session, *, actor: OrgActor, conversation_id: str, read: bool) -> Conversation:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    return _changed(session, conversation, unread=not read, announce={"read": True, "readByUserId": actor.user_id} if read else None)


def do_mark_opened(session: Session, *, actor: OrgActor, conversation_id: str) -> Conversation:
    """A person opened the conversation: read, if it was unread (nothing written otherwise)."""
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    if not conversation.unread:
        return conversation
    return _changed(session, conversation, unread=False, announce={"read": True, "readByUserId": actor.user_id})


def do_set_pinned(session: Session, *, actor: OrgActor, conversation_id: str, pinned: bool) -> Conversation:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    return _changed(session, conversation, pinned=pinned)


def do_assign(session: Session, *, actor: OrgActor, conversation_id: str, user_id: str | None) -> Conversation:
    """Assign to an active member of the organization, or release (None)."""
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    attendance_guard.check_may_attend(session, actor)
    if user_id is not None:
        member = session.exec(select(Membership).where(Membership.organization_id == actor.organization_id,
                                                       Membership.user_id == user_id)).first()
        if member is None or member.suspended_at is not None:
            raise Invalid("Assign to an active member of this organization.", code="assignee_not_member",
                          errors={"userId": ["Not an active member."]})
        attendance_guard.check_may_receive(session, actor, user_id)
    previous = conversation.assignee_user_id
    if previous == user_id:
        return conversation
    conversation.assignee_user_id, conversation.updated_at = user_id, clock.now()
    session.add(conversation)
    _announce_assignment(session, actor, conversation, previous)
    return conversation


def _announce_assignment(session: Session, actor: OrgActor, conversation: Conversation, previous: str | None) -> None:
    events.emit(session, events.CONVERSATION_ASSIGNMENT_CHANGED, organization_id=conversation.organization_id,
                conversationId=conversation.id, phoneNumberId=conversation.phone_number_pk,
                assigneeUserId=conversation.assignee_user_id, previousAssigneeUserId=previous,
                changedByUserId=actor.user_id)


def do_add_tag(session: Session, *, actor: OrgActor, conversation_id: str, tag_id: str) -> Conversation:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    tag = tags_service.access_tag(session, actor=actor, tag_id=tag_id)
    if session.get(ConversationTag, (conversation.id, tag.id)) is None:
        session.add(ConversationTag(conversation_id=conversation.id, tag_id=tag.id, created_at=clock.now()))
        _tags_changed(session, conversation)
    return conversation


def do_remove_tag(session: Session, *, actor: OrgActor, conversation_id: str, tag_id: str) -> Conversation:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    removed = session.exec(delete(ConversationTag).where(ConversationTag.conversation_id == conversation.id,
                                                         ConversationTag.tag_id == tag_id)).rowcount
    if not removed:
        raise NotFound("This conversation does not have that tag.", code="tag_not_found")
    _tags_changed(session, conversation)
    return conversation


def _tags_changed(session: Session, conversation: Conversation) -> None:
    conversation.updated_at = clock.now()
    session.add(conversation)
    events.emit(session, events.CONVERSATION_UPDATED, organization_id=conversation.organization_id,
                conversationId=conversation.id, phoneNumberId=conversation.phone_number_pk, changes=["tags"])


def list_notes(session: Session, *, actor: OrgActor, conversation_id: str) -> list[ConversationNote]:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    return list(session.exec(select(ConversationNote).where(ConversationNote.conversation_id == conversation.id)
                             .order_by(ConversationNote.created_at, ConversationNote.id)))


def do_add_note(session: Session, *, actor: OrgActor, conversation_id: str, body: str) -> ConversationNote:
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    note = ConversationNote(organization_id=conversation.organization_id, conversation_id=conversation.id,
                            author_user_id=actor.user_id, body=body, created_at=clock.now())
    session.add(note)
    session.flush()
    events.emit(session, events.CONVERSATION_UPDATED, organization_id=conversation.organization_id,
                conversationId=conversation.id, phoneNumberId=conversation.phone_number_pk, changes=["notes"],
                noteId=note.id)
    return note


_ORIGINS = {"user": "agent", "bot": "bot"}  # who asked for a person; keys and applications: api


def do_request_handoff(session: Session, *, actor: OrgActor, conversation_id: str, reason: str | None,
                       detail: str | None) -> Conversation:
    """A person is needed: automation falls silent and the team hears of it (live and by webhook).
    Asking again while one is pending changes nothing and tells no one twice."""
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    if conversation.handoff_pending:
        return conversation
    now = clock.now()
    conversation.handoff_pending, conversation.handoff_requested_at = True, now
    conversation.handoff_reason, conversation.handoff_detail, conversation.updated_at = reason, detail, now
    session.add(conversation)
    events.emit(session, events.CONVERSATION_HANDOFF_REQUESTED, organization_id=conversation.organization_id,
                conversationId=conversation.id, phoneNumberId=conversation.phone_number_pk,
                reason=reason, detail=detail, origin=_ORIGINS.get(actor.kind, "api"))
    return conversation


def do_return_to_bot(session: Session, *, actor: OrgActor, conversation_id: str) -> Conversation:
    """Automation answers again, whoever was assigned: the hand-off and the assignee are cleared (the
    bot stays silent while a person has the conversation), and the bot logs the return
    (`returnedToBot`). The conversation's history (its context) stays as it is."""
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    attendance_guard.check_may_attend(session, actor)  # it takes the conversation from whoever had it
    previous = conversation.assignee_user_id
    if not conversation.handoff_pending and previous is None:
        return conversation  # automation has it already
    if previous is not None:  # announced as every assignment change is, not among the `changes`
        conversation.assignee_user_id = None
        _announce_assignment(session, actor, conversation, previous)
    return _changed(session, conversation, **_NO_HANDOFF, always=True,
                    announce={"returnedToBot": True, "byUserId": actor.user_id, "previousAssigneeUserId": previous})


def do_set_bot_agent(session: Session, *, actor: OrgActor, conversation_id: str, agent_id: str | None) -> Conversation:
    """Fix which AI agent answers this conversation (None: the router decides per message). The
    agent is checked by its owner (ai_agents, which serves the route)."""
    conversation = access_conversation(session, actor=actor, conversation_id=conversation_id)
    return _changed(session, conversation, bot_agent_id=agent_id)


def do_forget_bot_agent(session: Session, *, organization_id: str, agent_id: str) -> None:
    """A deleted agent: its conversations go back to the router."""
    session.exec(update(Conversation).where(Conversation.organization_id == organization_id,
                                            Conversation.bot_agent_id == agent_id).values(bot_agent_id=None))


SNOOZE_CHOICES = ("hour", "tomorrow", "week")


def snooze_until(choice: str, now: datetime, zone: tzinfo) -> datetime:
    """When a snooze picked from the inbox's menu ends: in an hour, tomorrow at 09:00 on the
    organization's clock (`zone`), or in a week."""
    if choice == "tomorrow":
        tomorrow = now.astimezone(zone).date() + timedelta(days=1)
        return datetime.combine(tomorrow, time(9), zone).astimezone(timezone.utc)
    return now + (timedelta(weeks=1) if choice == "week" else timedelta(hours=1))
