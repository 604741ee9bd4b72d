"""The installation administrators' pages of the organizations it hosts: each one's plan, wallet,
debts and suspension (the plan changed, a suspension made or lifted), the plans' catalog, and the
reported bank transfers to review. Shown to the installation's administrators only; what billing
adds (wallets, invoices, reports, plans) only while billing is on."""

from __future__ import annotations

from flask import request
from sqlmodel import select

from appliance.billing import hosted, payment_reports
from appliance.billing.schemas import HostedArgsSchema, HostedPatchSchema, RejectSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, render
from appliance.console.texts_billing import BILLING_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.files import serve_stored_file
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.installation import service as installation
from appliance.organizations import entitlements, plans
from appliance.organizations.models import Organization

_HOSTED, _PLANS, _REVIEWS = ("console_pages.hosted_organizations", "console_pages.hosted_plans",
                             "console_pages.payment_reviews")


def _admin_id(what: str = "manages the organizations it hosts") -> str:
    return installation.check_admin(db_session(), browser_actor().user_id, what=what).id


def _render(template: str, active: str, error: AppError | None = None, status: int = 200, **context):
    return render(template, None, active, error=error, status=status, texts=BILLING_TEXTS,
                  billing_on=entitlements.billing_on(), done=request.args.get("done"), **context)


# The organizations

@console_pages.get("/console/installation/organizations")
@signed_in_page
def hosted_organizations():
    _admin_id()
    arguments = check_form(HostedArgsSchema(), {"q": request.args.get("q", "")[:100] or None,
                                                "state": request.args.get("state") or "all",
                                                "cursor": request.args.get("cursor") or None})
    found = hosted.list_hosted(db_session(), **arguments)
    return _render("console/hosted.html", _HOSTED, hosted_list=found.items, next_cursor=found.next_cursor,
                   search=arguments["q"] or "", state=arguments["state"], states=hosted.STATES)


def _organization_page(organization_id, error: AppError | None = None, status: int = 200):
    _admin_id()
    return _render("console/hosted_organization.html", _HOSTED, error, status,
                   hosted=hosted.access_hosted(db_session(), str(organization_id)), catalog=hosted.catalog(db_session()))


@console_pages.get("/console/installation/organizations/<uuid:organization_id>")
@signed_in_page
def hosted_organization(organization_id):
    return _organization_page(organization_id)


def _update(organization_id, done: str, body: dict):
    _admin_id()
    return form_outcome(
        lambda: hosted.do_update(db_session(), organization_id=str(organization_id),
                                 **check_form(HostedPatchSchema(), body)),
        failed=lambda error: _organization_page(organization_id, error, error.status),
        done=lambda: back("console_pages.hosted_organization", done, organization_id=str(organization_id)))


@console_pages.post("/console/installation/organizations/<uuid:organization_id>/plan")
@signed_in_page
def hosted_organization_plan(organization_id):
    return _update(organization_id, "plan_changed", {"planSlug": forms.text("planSlug", 40)})


@console_pages.post("/console/installation/organizations/<uuid:organization_id>/suspension")
@signed_in_page
def hosted_organization_suspension(organization_id):
    body = {"suspended": request.form.get("suspended") == "true"}
    if forms.text("reason", 300):
        body["reason"] = forms.text("reason", 300)
    return _update(organization_id, "suspension_saved", body)


@console_pages.get("/console/installation/plans")
@signed_in_page
def hosted_plans():
    _admin_id(what="reads the plans")
    return _render("console/hosted_plans.html", _PLANS, catalog=hosted.catalog(db_session()),
                   capability_names=plans.capabilities())


# Reported transfers to review

def _reviews(error: AppError | None = None, status: int = 200):
    _admin_id(what="reviews payment reports")
    session = db_session()
    chosen = payment_reports.PENDING if request.args.get("show") != "reviewed" else None
    found = payment_reports.list_for_review(session, status=chosen, take=100).items
    if chosen is None:
        found = [report for report in found if report.status != payment_reports.PENDING]
    names = {o.id: o.name for o in session.exec(select(Organization).where(
        Organization.id.in_({r.organization_id for r in found})))} if found else {}
    return _render("console/payment_reviews.html", _REVIEWS, error, status, reports=found, names=names,
                   pending_only=chosen is not None)


@console_pages.get("/console/payment-reports")
@signed_in_page
def payment_reviews():
    return _reviews()


@console_pages.get("/console/payment-reports/<uuid:report_id>/receipt")
@signed_in_page
def payment_review_receipt(report_id):
    _admin_id(what="reviews payment reports")
    found = payment_reports.receipt_of(db_session(), report_id=str(report_id))
    return serve_stored_file(found.path, claimed_type=found.mime_type, filename=found.filename)


@console_pages.post("/console/payment-reports/<uuid:report_id>/approve")
@signed_in_page
def payment_review_approve(report_id):
    return form_outcome(lambda: payment_reports.do_approve(
        db_session(), admin_id=_admin_id(what="reviews payment reports"), report_id=str(report_id)),
        failed=lambda error: _reviews(error, error.status), done=lambda: back(_REVIEWS, "approved"))


@console_pages.post("/console/payment-reports/<uuid:report_id>/reject")
@signed_in_page
def payment_review_reject(report_id):
    return form_outcome(lambda: payment_reports.do_reject(
        db_session(), admin_id=_admin_id(what="reviews payment reports"), report_id=str(report_id),
        **check_form(RejectSchema(), {"reason": forms.text("reason", 300)})),
        failed=lambda error: _reviews(error, error.status), done=lambda: back(_REVIEWS, "rejected"))
