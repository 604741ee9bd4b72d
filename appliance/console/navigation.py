"""The navigation every signed-in page shows: Home and the Inbox, then the console's sections grouped
by what people do there (Customers, Automation, Team, Business, Settings, Hosting). A section whose page
would refuse the person is not shown (it needs the permission of the API operation it performs:
http/operations.py), and a group left empty is not shown either; the installation's own pages only
to its administrators.

Every page is two clicks away at any width: on a laptop a group's menu opens from the bar; on a
phone one Menu opens every group at once (web/templates/layouts/_navigation.html draws both)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from flask import url_for

from appliance.core.actor import OrgActor
from appliance.http.browser import browser_actor
from appliance.http.operations import allows
from appliance.http.unit_of_work import db_session
from appliance.organizations import entitlements
from appliance.users import service as users_service


@dataclass(frozen=True)
class Section:
    endpoint: str
    label: str  # key of the console's texts
    scope: str = "organization"  # organization: a page of one organization (its id in the path);
    #                              person: the signed-in person's own; installation: its administrators'
    when: Callable[[], bool] | None = None  # shown only while this says so (billing's pages: billing on)


@dataclass(frozen=True)
class Group:
    label: str  # key of the console's texts
    sections: tuple[Section, ...]


GROUPS = (
    Group("nav_group_customers", (
        Section("console_pages.contacts", "nav_contacts"),
        Section("console_pages.broadcasts", "nav_broadcasts"),
        Section("console_pages.surveys", "nav_surveys"),
        Section("console_pages.orders", "nav_orders"),
        Section("console_pages.products", "nav_products"),
        Section("console_pages.agenda", "nav_agenda"),
    )),
    Group("nav_group_automation", (
        Section("console_pages.bot", "nav_bot"),
        Section("console_pages.webhooks", "nav_webhooks"),
        Section("console_pages.api_keys", "nav_api_keys"),
    )),
    Group("nav_group_team", (
        Section("console_pages.team", "nav_team"),
        Section("console_pages.attendance", "nav_attendance"),
        Section("console_pages.tasks", "nav_tasks"),
        Section("console_pages.quick_replies", "nav_quick_replies"),
        Section("console_pages.stickers", "nav_stickers"),
    )),
    Group("nav_group_business", (
        Section("console_pages.organization", "nav_organization"),
        Section("console_pages.whatsapp", "nav_whatsapp"),
        Section("console_pages.webchat", "nav_webchat"),
        Section("console_pages.templates", "nav_templates"),
        Section("console_pages.links", "nav_links"),
        Section("console_pages.einvoicing", "nav_einvoicing"),
        Section("console_pages.billing", "nav_billing", when=entitlements.billing_on),
    )),
    Group("nav_group_settings", (
        Section("console_pages.account", "nav_account", scope="person"),
        Section("console_pages.notifications", "nav_notifications", scope="person"),
        Section("console_pages.go_live", "nav_go_live", scope="installation"),
        Section("console_pages.installation_status", "nav_status", scope="installation"),
        Section("console_pages.backups_page", "nav_backups", scope="installation"),
        Section("console_pages.mail_server", "nav_mail", scope="installation"),
        Section("console_pages.private_servers", "nav_private_servers", scope="installation"),
    )),
    Group("nav_group_hosting", (
        Section("console_pages.hosted_organizations", "nav_hosted", scope="installation"),
        Section("console_pages.payment_reviews", "nav_payment_reviews", scope="installation",
                when=entitlements.billing_on),
        Section("console_pages.hosted_plans", "nav_plans", scope="installation", when=entitlements.billing_on),
    )),
)
SECTIONS = tuple(section for group in GROUPS for section in group.sections)
HOME = "console_pages.home"


def _shown(section: Section, actor: OrgActor | None, installation_admin: bool) -> bool:
    if section.when is not None and not section.when():
        return False
    if section.scope == "installation":
        return installation_admin
    if section.scope == "person":
        return True
    return actor is not None and allows(actor, section.endpoint)


def _href(section: Section, actor: OrgActor | None) -> str:
    if section.scope == "organization":
        return url_for(section.endpoint, org_id=actor.organization_id)
    return url_for(section.endpoint)


def navigation(actor: OrgActor | None, org_id: str | None, active: str) -> dict:
    """What the bar shows for the signed-in person: `home` and `inbox` links, the `groups` they may
    open (each with its `items` and whether the page being shown is in it), and the `current`
    group, whose sections the page lists under the bar. `actor` is the person in the organization
    `org_id` (None outside one); `active` is the endpoint of the page being shown."""
    installation_admin = users_service.access_me(db_session(), actor=browser_actor()).installation_admin
    groups = []
    for group in GROUPS:
        items = [{"href": _href(s, actor), "label": s.label, "active": s.endpoint == active}
                 for s in group.sections if _shown(s, actor, installation_admin)]
        if items:
            groups.append({"label": group.label, "items": items, "active": any(i["active"] for i in items)})
    inbox = url_for("inbox_pages.page", org_id=org_id) if org_id else url_for("inbox_pages.start")
    home = url_for(HOME, org_id=org_id) if org_id and actor is not None else None
    return {"home": home, "home_active": active == HOME, "inbox": inbox, "inbox_active": active == "inbox_pages.page",
            "groups": groups, "current": next((g for g in groups if g["active"]), None)}
