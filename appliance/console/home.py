"""Home: where the console starts. What needs someone now (conversations waiting, sends that failed,
campaigns paused, webhooks failing, backups) and the set-up checklist until it is done; each line
links to the page that fixes it, and only what the person may open is shown."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import redirect, url_for
from sqlmodel import Session

from appliance.backups import service as backups_service
from appliance.bots import service as bots_service
from appliance.broadcasts import service as broadcasts_service
from appliance.console.common import console_pages, current_org_id, org_actor, render
from appliance.console.texts_home import HOME_TEXTS
from appliance.conversations import reports as conversations_reports
from appliance.core import clock
from appliance.core.actor import OrgActor
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.operations import allows, open_to_members
from appliance.http.unit_of_work import db_session
from appliance.installation import public_address
from appliance.memberships import service as memberships_service
from appliance.messages import service as messages_service
from appliance.organizations import service as organizations_service
from appliance.outbound_webhooks import service as webhooks_service
from appliance.phone_numbers import service as phone_numbers_service
from appliance.users import service as users_service

FAILED_SENDS_WINDOW = timedelta(hours=24)
# A daily backup is due every day: two days without a ready one means it is not being made.
BACKUP_OVERDUE = timedelta(days=2)


@dataclass(frozen=True)
class Line:
    """One line of the home: `key` names its words, `count` and `since` fill them, `endpoint` is
    the page that deals with it (with the organization's id unless `installation`)."""

    key: str
    endpoint: str
    count: int = 0
    since: datetime | None = None
    installation: bool = False
    done: bool = False


def attention(session: Session, actor: OrgActor, *, backups: dict | None) -> list[Line]:
    """What needs someone now, most urgent first; empty when nothing does. `backups` is the backups'
    summary for the installation's administrators, None for everyone else."""
    lines = []
    if allows(actor, "inbox_pages.page"):
        waiting, oldest = conversations_reports.waiting(session, actor=actor)
        if waiting:
            lines.append(Line("waiting", "inbox_pages.page", waiting, oldest))
        failed = messages_service.count_failed_since(session, actor=actor, since=clock.now() - FAILED_SENDS_WINDOW)
        if failed:
            lines.append(Line("failed_sends", "inbox_pages.page", failed))
    if allows(actor, "console_pages.broadcasts"):
        paused = broadcasts_service.count_with_status(session, actor=actor, status="PAUSED")
        if paused:
            lines.append(Line("paused_campaigns", "console_pages.broadcasts", paused))
    if allows(actor, "console_pages.webhooks"):
        states = [webhooks_service.health(w) for w in webhooks_service.list_webhooks(session, actor=actor)]
        if states.count("failing"):
            lines.append(Line("webhooks_failing", "console_pages.webhooks", states.count("failing")))
    if backups is not None:
        lines += _backup_lines(backups)
    return lines


def _backup_lines(summary: dict) -> list[Line]:
    if summary["by_postgresql"]:  # PostgreSQL's own tools back it up: the rows are from before a move, if any
        return []
    ready, failed = summary["last_ready_at"], summary["last_failed_at"]
    if failed is not None and (ready is None or failed > ready):
        return [Line("backup_failed", "console_pages.backups_page", since=failed, installation=True)]
    if ready is not None and clock.now() - ready > BACKUP_OVERDUE:
        return [Line("backup_old", "console_pages.backups_page", since=ready, installation=True)]
    return []


def checklist(session: Session, actor: OrgActor, *, backups: dict | None) -> list[Line]:
    """The first day's steps the person may take, each done or not (`backups` as for `attention`)."""
    steps = []
    if allows(actor, "console_pages.organization_save"):
        organization = organizations_service.access_organization_record(session, actor=actor)
        steps.append(Line("step_business", "console_pages.organization", done=organization.country is not None))
    if allows(actor, "console_pages.whatsapp_connect"):
        numbers = phone_numbers_service.list_phone_numbers(session, actor=actor)
        steps.append(Line("step_whatsapp", "console_pages.whatsapp", done=bool(numbers)))
    if allows(actor, "console_pages.bot_toggle"):
        configs = bots_service.list_configs(session, actor=actor)
        steps.append(Line("step_bot", "console_pages.bot", done=any(c["enabled"] for c in configs)))
    if allows(actor, "console_pages.team_invite"):
        steps.append(Line("step_team", "console_pages.team",
                          done=len(memberships_service.list_members(session, actor=actor)) > 1))
    if backups is not None:
        if not backups["by_postgresql"]:  # (PostgreSQL's backups are its own tools': no first one to make here)
            steps.append(Line("step_backup", "console_pages.backups_page", installation=True,
                              done=backups["last_ready_at"] is not None))
        steps.append(Line("step_go_live", "console_pages.go_live", installation=True,
                          done=not public_address.current_problems()[1]))
    return steps


@console_pages.get("/console/<uuid:org_id>/home")
@open_to_members  # each line shows only what the person may open
@signed_in_page
def home(org_id):
    actor = org_actor(org_id)
    session = db_session()
    admin = users_service.access_me(session, actor=browser_actor()).installation_admin
    backups = backups_service.summary(session) if admin else None  # read once for both parts
    steps = checklist(session, actor, backups=backups)
    return render("console/home.html", actor, "console_pages.home", texts=HOME_TEXTS,
                  attention=attention(session, actor, backups=backups), steps=steps,
                  steps_done=sum(step.done for step in steps))


@console_pages.get("/console")
@signed_in_page
def console():
    """Where the console starts: the home of the organization last opened, or creating the first one."""
    org_id = current_org_id()
    if org_id is None:
        return redirect(url_for("console_pages.new_organization"))
    return redirect(url_for("console_pages.home", org_id=org_id))
