"""The organization: its profile, time zone, business hours, opt-out keywords, plan, billing group
and, when suspended, why."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.organizations import service as organizations_service
from appliance.organizations import api as organizations_api
from appliance.organizations.schemas import OrganizationUpdateSchema

_PAGE, _ACTIVE = "console/organization.html", "console_pages.organization"


def _page(actor, error: AppError | None = None):
    organization = organizations_service.access_organization_record(db_session(), actor=actor)
    context = {"org": organization, "suspension": organizations_service.get_suspension(db_session(), actor=actor),
               "weekdays": forms.WEEKDAYS, "done": request.args.get("done"), "values": None}
    if error is not None:
        context["values"] = {"org_name": request.form.get("org_name", "")[:200],
                             "billing_email": request.form.get("billing_email", "")[:300],
                             "country": request.form.get("country", "")[:10],
                             "currency": request.form.get("currency", "")[:10],
                             "timezone": request.form.get("timezone", "")[:64],
                             "keywords": request.form.get("keywords", "")[:2000], "hours": forms.business_hours()}
    return render(_PAGE, actor, _ACTIVE, error=error, **context)


@console_pages.get("/console/<uuid:org_id>/organization")
@performs(organizations_api.OrganizationById.get)
@signed_in_page
def organization(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/organization")
@performs(organizations_api.OrganizationById.patch)
@signed_in_page
def organization_save(org_id):
    actor = org_actor(org_id)
    keywords = [k.strip() for k in request.form.get("keywords", "")[:2000].replace("\n", ",").split(",") if k.strip()]
    try:
        fields = check_form(OrganizationUpdateSchema(), {
            **forms.organization_fields(), "billingEmail": forms.text("billing_email", 300),
            "businessHoursSchedule": forms.business_hours(), "optOutEnabled": bool(request.form.get("opt_out")),
            "optOutKeywords": keywords})
    except AppError as error:
        return _page(actor, error)
    organizations_service.check_update_organization(db_session(), actor=actor, **fields)
    return back(_ACTIVE, "saved", org_id=actor.organization_id)
