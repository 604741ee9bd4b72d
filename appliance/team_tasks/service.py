"""Tasks of the team: made by a person (USER), by the bot (BOT: a customer asked for someone while
the team was closed) or by a system over the API (API); about a conversation or a contact of the
organization, assigned to one of its active members. A task about a conversation belongs to its
number: a key or member kept to other numbers neither sees it (404) nor puts one there (403)."""

from __future__ import annotations

from sqlmodel import Session, select

from appliance.core import clock, pagination, tenancy
from appliance.conversations import inbox as conversations_inbox
from appliance.core.actor import OrgActor
from appliance.memberships import service as memberships_service
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
    query = conversations_inbox.about_visible(query, TeamTask.conversation_id, actor)
    return pagination.paginate(session, query, key=[TeamTask.created_at, TeamTask.id], take=take, cursor=cursor)


def access_task(session: Session, *, actor: OrgActor, task_id: str) -> TeamTask:
    return tenancy.access_in_org(session, TeamTask, task_id, actor, what="task", code="task_not_found",
                                 usable=lambda task: conversations_inbox.sees_about(
                                     session, actor=actor, conversation_id=task.conversation_id))


def _check_links(session: Session, actor: OrgActor, changes: dict) -> None:
    """Each link given names one of the organization's records (else 400 `unknown_ids` by its field),
    checked before the task changes (on PATCH as on POST)."""
    conversations_inbox.check_links(session, actor=actor, contact_id=changes.get("contact_id"),
                                    conversation_id=changes.get("conversation_id"))
    if changes.get("assignee_user_id"):
        memberships_service.check_assignable(session, actor=actor, user_id=changes["assignee_user_id"],
                                             field="assigneeUserId")


def _save(session: Session, actor: OrgActor, task: TeamTask, changes: dict) -> TeamTask:
    _check_links(session, actor, changes)
    for name in FIELDS:
        if name in changes:
            setattr(task, name, changes[name])
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
