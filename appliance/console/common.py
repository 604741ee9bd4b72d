"""What every console page shares: the blueprint, the organization being looked at, the navigation
(console/navigation.py: only the sections the person may open) and rendering in the app layout."""

from __future__ import annotations

from typing import Callable

from flask import Blueprint, redirect, request, session, url_for

from appliance.console.navigation import navigation
from appliance.console.texts import TEXTS
from appliance.billing import invoices
from appliance.core import regions
from appliance.core.actor import OrgActor
from appliance.core.errors import AppError
from appliance.core.i18n import Words
from appliance.http.browser import browser_actor
from appliance.http.operations import page_open_while_suspended, page_permission
from appliance.http.pages import page_language, render_failure, render_page
from appliance.http.unit_of_work import db_session
from appliance.installation import public_address
from appliance.memberships import service as memberships_service
from appliance.organizations import entitlements, service as organizations_service
from appliance.organizations.zones import zone_named
from appliance.users import service as users_service
from appliance.users.schemas import TIMEZONE_NAMES

console_pages = Blueprint("console_pages", __name__)


def org_actor(org_id) -> OrgActor:
    """The signed-in person inside `org_id` with the permission of the API operation the page
    performs (`@performs`, http/operations.py: 403/404 as the API would), remembered as the
    organization the console and the account page link to."""
    actor = memberships_service.access_organization(db_session(), actor=browser_actor(),
                                                    organization_id=str(org_id), permission=page_permission())
    # A suspended organization's pages answer as its API does: billing's open, reading open while
    # the suspension is for payment, the rest 403 organization_suspended.
    organizations_service.check_active(db_session(), organization_id=actor.organization_id,
                                       while_suspended=page_open_while_suspended(),
                                       reading=request.method in ("GET", "HEAD"))
    session["console_org"] = actor.organization_id
    return actor


def my_organizations():
    return organizations_service.list_my_organizations(db_session(), actor=browser_actor())


def current_org_id(organizations=None) -> str | None:
    """The organization last opened in the console, else the person's first, else None."""
    organizations = my_organizations() if organizations is None else organizations
    remembered = session.get("console_org")
    if any(o.id == remembered for o in organizations):
        return remembered
    return organizations[0].id if organizations else None


def _nav_actor(org_id: str | None) -> OrgActor | None:
    """On pages outside an organization (my account), the person inside the remembered one, so
    the navigation still shows its sections."""
    if org_id is None:
        return None
    try:
        return memberships_service.access_organization(db_session(), actor=browser_actor(), organization_id=org_id,
                                                        permission=None)  # any member: each section asks its own
    except AppError:
        return None


def _context(actor: OrgActor | None, active: str) -> dict:
    organizations = my_organizations()  # once: the switcher, the name and the remembered one
    org_id = actor.organization_id if actor else current_org_id(organizations)
    organization = next((o for o in organizations if o.id == org_id), None)
    return {"nav": navigation(actor or _nav_actor(org_id), org_id, active), "org_id": org_id, "actor": actor,
            "organizations": organizations, "active": active, "organization": organization,
            # every time on the page is on the organization's clock (the `org_time` filter)
            "zone": zone_named(organization.timezone) if organization else None,
            "billing_notice": _billing_notice(organization)}


def _billing_notice(organization) -> str | None:
    """What every page of an organization says while its billing needs the owner: `suspended`, or
    `unpaid` (an invoice whose payment failed); None otherwise, and always with billing off."""
    if organization is None or not entitlements.billing_on():
        return None
    if organization.suspension_reason == organizations_service.PAYMENT_OVERDUE:
        return "suspended"
    return "unpaid" if invoices.failing(db_session(), organization.id) else None


def render(template: str, actor: OrgActor | None, active: str, *, error: AppError | None = None,
           status: int = 200, no_store: bool = False, texts: Words | None = None, **context):
    """A console page; with `error`, the form's page again with what went wrong (its status, so
    the unit of work rolls back). `no_store` for pages that show a secret once. A section with its
    own `texts` reads them over the console's."""
    words = TEXTS | texts if texts is not None else TEXTS
    if error is not None:
        return render_failure(template, words, error, **_context(actor, active), **context)
    html, status = render_page(template, words, status=status, **_context(actor, active), **context)
    return (html, status, {"Cache-Control": "no-store"}) if no_store else (html, status)


def form_outcome(work: Callable[[], object], *, failed: Callable[[AppError], object],
                 done: Callable[[], object]):
    """A form's work: then `done()` (back to its page, saying so), or, when the work is refused,
    this request's writes rolled back and `failed(error)` (the page again with what went wrong)."""
    try:
        work()
    except AppError as error:
        db_session().rollback()
        return failed(error)
    return done()


def back(endpoint: str, done: str | None = None, **values):
    """After a form that worked: back to its page (POST, redirect, GET), saying what was done."""
    return redirect(url_for(endpoint, done=done, **values) + ("#done" if done else ""))


@console_pages.app_template_global("timezones")
def timezones() -> list[str]:
    """Every IANA zone name, for the time zone fields' suggestions."""
    return sorted(TIMEZONE_NAMES)


@console_pages.app_template_global("public_address_problems")
def public_address_problems() -> dict:
    """What keeps the links a page shows from reaching people (installation/public_address.py), and
    whether the person may fix it (the Go live page is the installation's administrators')."""
    address, problems = public_address.current_problems()
    admin = bool(problems) and users_service.access_me(db_session(), actor=browser_actor()).installation_admin
    return {"address": address, "problems": problems, "admin": admin}


@console_pages.app_template_global("countries")
def countries() -> tuple[tuple[str, str], ...]:
    """(code, name) of every country, named in the page's language, for the country lists."""
    return regions.country_names(page_language())


@console_pages.app_template_global("main_zone")
def main_zone(country: str) -> str | None:
    """The country's main time zone (what an organization there gets when it names none)."""
    return regions.main_zone(country)


@console_pages.app_template_global("currencies")
def currencies() -> tuple[tuple[str, str], ...]:
    """(code, name) of every currency in use, named in the page's language, for the currency lists."""
    return regions.currency_names(page_language())
