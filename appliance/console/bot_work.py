"""The console's pages for what the bot and the team do day to day: the bot's activity log (every
decision, filterable by kind), the team's tasks (the bot writes some), and the quick replies the
inbox offers on `/`. Each asks the service the API asks, as the signed-in person."""

from __future__ import annotations

from datetime import datetime, time

from flask import request

from appliance.bots import activity
from appliance.bots import api as bots_api
from appliance.bots.config import ACTIVITY_KINDS
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_bot_work import BOT_WORK_TEXTS
from appliance.core.errors import AppError, Invalid
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.organizations.zones import zone_of
from appliance.quick_replies import service as quick_replies_service
from appliance.quick_replies import api as quick_replies_api
from appliance.quick_replies.schemas import QuickReplyCreateSchema
from appliance.team_tasks import service as tasks_service
from appliance.team_tasks import api as team_tasks_api
from appliance.team_tasks.schemas import TaskCreateSchema

_PAGE = 50


@console_pages.get("/console/<uuid:org_id>/bot/activity")
@performs(bots_api.BotActivityLog.get)
@signed_in_page
def bot_activity(org_id):
    actor = org_actor(org_id)
    kind = request.args.get("kind") if request.args.get("kind") in ACTIVITY_KINDS else None
    page = activity.list_activity(db_session(), actor=actor, take=_PAGE, cursor=request.args.get("cursor") or None,
                                  kind=kind)
    return render("console/bot_activity.html", actor, "console_pages.bot", texts=BOT_WORK_TEXTS, page=page, kind=kind,
                  kinds=ACTIVITY_KINDS)


# Tasks ----------------------------------------------------------------------------------------

def _tasks_page(actor, error: AppError | None = None):
    session = db_session()
    open_tasks = tasks_service.list_tasks(session, actor=actor, take=_PAGE, cursor=None, status="OPEN").items
    done_tasks = tasks_service.list_tasks(session, actor=actor, take=10, cursor=None, status="DONE").items
    return render("console/tasks.html", actor, "console_pages.tasks", error=error, texts=BOT_WORK_TEXTS,
                  open_tasks=open_tasks, done_tasks=done_tasks, done=request.args.get("done"))


def _due_at(actor) -> str | None:
    """A day picked in the form is due at its end, in the organization's time zone."""
    day = forms.text("due", 10)
    if not day:
        return None
    try:
        date = datetime.strptime(day, "%Y-%m-%d").date()
    except ValueError:
        raise Invalid("Check the marked fields.", errors={"dueAt": ["A date, as the calendar gives it."]}) from None
    return datetime.combine(date, time(23, 59), zone_of(db_session(), actor.organization_id)).isoformat()


@console_pages.get("/console/<uuid:org_id>/tasks")
@performs(team_tasks_api.Tasks.get)
@signed_in_page
def tasks(org_id):
    return _tasks_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/tasks")
@performs(team_tasks_api.Tasks.post)
@signed_in_page
def task_create(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(TaskCreateSchema(), {"title": forms.text("title", 300),
                                                 "detail": request.form.get("detail", "")[:5000], "dueAt": _due_at(actor)})
        tasks_service.do_create(db_session(), actor=actor, **fields)
    except AppError as error:
        return _tasks_page(actor, error)
    return back("console_pages.tasks", "task_created", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/tasks/<uuid:task_id>/status")
@performs(team_tasks_api.TaskById.patch)
@signed_in_page
def task_status(org_id, task_id):
    actor = org_actor(org_id)
    status = "DONE" if request.form.get("status") == "DONE" else "OPEN"
    tasks_service.do_update(db_session(), actor=actor, task_id=str(task_id), status=status)
    return back("console_pages.tasks", "task_saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/tasks/<uuid:task_id>/delete")
@performs(team_tasks_api.TaskById.delete)
@signed_in_page
def task_delete(org_id, task_id):
    actor = org_actor(org_id)
    tasks_service.do_delete(db_session(), actor=actor, task_id=str(task_id))
    return back("console_pages.tasks", "task_deleted", org_id=actor.organization_id)


# Quick replies --------------------------------------------------------------------------------

def _quick_page(actor, error: AppError | None = None, editing: str | None = None):
    return render("console/quick_replies.html", actor, "console_pages.quick_replies", error=error, texts=BOT_WORK_TEXTS,
                  replies=quick_replies_service.list_quick_replies(db_session(), actor=actor), editing=editing,
                  done=request.args.get("done"))


def _quick_values() -> dict:
    return {"shortcut": forms.text("shortcut", 100), "text": request.form.get("text", "")[:5000].strip()}


@console_pages.get("/console/<uuid:org_id>/quick-replies")
@performs(quick_replies_api.QuickReplies.get)
@signed_in_page
def quick_replies(org_id):
    return _quick_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/quick-replies")
@performs(quick_replies_api.QuickReplies.post)
@signed_in_page
def quick_reply_create(org_id):
    actor = org_actor(org_id)
    try:
        quick_replies_service.do_create(db_session(), actor=actor, **check_form(QuickReplyCreateSchema(), _quick_values()))
    except AppError as error:
        return _quick_page(actor, error)
    return back("console_pages.quick_replies", "quick_created", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/quick-replies/<uuid:reply_id>")
@performs(quick_replies_api.QuickReplyById.patch)
@signed_in_page
def quick_reply_save(org_id, reply_id):
    actor = org_actor(org_id)
    quick_replies_service.access_quick_reply(db_session(), actor=actor, quick_reply_id=str(reply_id))  # 404 first
    try:
        quick_replies_service.do_update(db_session(), actor=actor, quick_reply_id=str(reply_id),
                                        **check_form(QuickReplyCreateSchema(), _quick_values()))
    except AppError as error:
        return _quick_page(actor, error, editing=str(reply_id))
    return back("console_pages.quick_replies", "quick_saved", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/quick-replies/<uuid:reply_id>/delete")
@performs(quick_replies_api.QuickReplyById.delete)
@signed_in_page
def quick_reply_delete(org_id, reply_id):
    actor = org_actor(org_id)
    quick_replies_service.do_delete(db_session(), actor=actor, quick_reply_id=str(reply_id))
    return back("console_pages.quick_replies", "quick_deleted", org_id=actor.organization_id)
