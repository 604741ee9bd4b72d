"""Tasks of the team: made by a person (USER), by the bot (BOT: a customer asked for someone while
the team was closed) or by a system over the API (API); about a conversation or a contact of the
organization, assigned to one of its active members."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.contacts.models import Contact
from appliance.conversations.models import Conversation
from appliance.core import clock, pagination, tenancy
from appliance.core.actor import OrgActor
from appliance.core.errors import Invalid
from appliance.memberships.models import Membership
from appliance.team_tasks.models import TeamTask

FIELDS = ("title", "detail", "conversation_id", "contact_id", "assignee_user_id", "due_at", "status")


def _origin(actor: OrgActor) -> str:
    return "API" if actor.api_key_id or actor.oauth_authorization_id else "USER"


def list_tasks(session: Session, *, actor: OrgActor, take: int, cursor: str | None, status: str | None = None,
               assignee_user_id: str | None = None, origin: str | None = None) -> pagination.Page:
    """Newest first; `assignee_user_id` may be "me"."""
    query = select(TeamTask).where(TeamTask.organization_id == actor.organization_id)
    if status:
        query = query.where(TeamTask.status == status)
    if assignee_user_id:
        query = query.where(TeamTask.assignee_user_id == (actor.user_id if assignee_user_id == "me" else assignee_user_id))
    if origin:
        query = query.where(TeamTask.origin == origin)
    return pagination.paginate(session, query, key=[TeamTask.created_at, TeamTask.id], take=take, cursor=cursor)


def access_task(session: Session, *, actor: OrgActor, task_id: str) -> TeamTask:
    return tenancy.access_in_org(session, TeamTask, task_id, actor, what="task", code="task_not_found")


def _check_links(session: Session, actor: OrgActor, task: TeamTask) -> None:
    """Each link names one of the organization's records (else 400 by its field)."""
    org = actor.organization_id
    if task.conversation_id and session.exec(select(Conversation.id).where(
            Conversation.id == task.conversation_id, Conversation.organization_id == org)).first() is None:
        raise Invalid("No conversation with this id in this organization.", code="conversation_not_found",
                      errors={"conversationId": ["Unknown conversation."]})
    if task.contact_id and session.exec(select(Contact.id).where(
            Contact.id == task.contact_id, Contact.organization_id == org)).first() is None:
        raise Invalid("No contact with this id in this organization.", code="contact_not_found",
                      errors={"contactId": ["Unknown contact."]})
    if task.assignee_user_id:
        member = session.exec(select(Membership).where(Membership.organization_id == org,
                                                       Membership.user_id == task.assignee_user_id)).first()
        if member is None or member.suspended_at is not None:
            raise Invalid("Assign to an active member of this organization.", code="assignee_not_member",
                          errors={"assigneeUserId": ["Not an active member."]})


def _save(session: Session, actor: OrgActor, task: TeamTask, changes: dict) -> TeamTask:
    for name in FIELDS:
        if name in changes:
            setattr(task, name, changes[name])
    _check_links(session, actor, task)
    now = clock.now()
    if "status" in changes:
        task.done_at = now if task.status == "DONE" else None
    task.updated_at = now
    session.add(task)
    session.flush()
    return task


def do_create(session: Session, *, actor: OrgActor, origin: str | None = None, **fields) -> TeamTask:
    """`origin` is who made it: the caller's kind, or BOT when the bot does."""
    now = clock.now()
    task = TeamTask(organization_id=actor.organization_id, origin=origin or _origin(actor),
                    created_by_user_id=actor.user_id, created_at=now, updated_at=now)
    return _save(session, actor, task, {"status": "OPEN", **fields})


def do_update(session: Session, *, actor: OrgActor, task_id: str, **fields) -> TeamTask:
    return _save(session, actor, access_task(session, actor=actor, task_id=task_id), fields)


def do_delete(session: Session, *, actor: OrgActor, task_id: str) -> None:
    session.delete(access_task(session, actor=actor, task_id=task_id))
