"""The pages before the console: the first run (`/setup`, while nobody has an account), signing
up, asking for a password reset, and creating an organization."""

from __future__ import annotations

import secrets

from flask import abort, redirect, request, url_for

from appliance.auth import email_links
from appliance.auth.pages import sign_in_browser
from appliance.auth.schemas import SignupSchema
from appliance.console import forms
from appliance.console.common import console_pages, my_organizations, render
from appliance.console.texts import TEXTS
from appliance.console.texts_backups import BACKUP_TEXTS
from appliance.backups import from_setup
from appliance.backups import service as backups_service
from appliance.core import runtime
from appliance.core.errors import Invalid
from appliance.core import files
from appliance.http.api import takes_upload, uploaded_file
from appliance.core.actor import Actor
from appliance.core.errors import AppError
from appliance.core.locales import LOCALES
from appliance.http.browser import browser_actor, browser_form, signed_in_page
from appliance.http.pages import check_form, check_forms, page_language, render_failure, render_page
from appliance.http.unit_of_work import db_session
from appliance.organizations import service as organizations_service
from appliance.organizations.schemas import OrganizationCreateSchema, OrganizationUpdateSchema
from appliance.users import service as users_service

_RESTORE = "console/setup_restore.html"
# As the HTTP server's own bound on a request's body (waitress: 1 GB); a bigger archive is restored
# with `appliance restore` on the machine.
RESTORE_UPLOAD_BYTES = 1024 ** 3
_SETUP, _SIGN_UP, _FORGOT, _NEW_ORG = ("console/setup.html", "console/sign_up.html", "console/forgot.html",
                                       "console/new_organization.html")


def _first_run() -> bool:
    return not users_service.anyone_exists(db_session())


def _person_fields() -> dict:
    return {"name": forms.text("name", 200), "email": forms.text("email", 300),
            "password": request.form.get("password", "")[:200],
            "locale": page_language() if page_language() in LOCALES else "en"}


def _create_person(fields: dict):
    """An account from checked fields, its verification mail queued, this browser signed in."""
    user = users_service.do_create_user(db_session(), email=fields["email"], password=fields["password"],
                                        name=fields["name"], locale=fields["locale"])
    email_links.do_send_verification(db_session(), user)
    sign_in_browser(user)
    return user


def _organization_checks(billing_email: str) -> list[tuple]:
    """The organization's part of the POSTed form (the slug is made from the name afterwards)."""
    return [(OrganizationCreateSchema(), {**forms.organization_fields(), "slug": "pending",
                                          "billingEmail": billing_email}),
            (OrganizationUpdateSchema(only=("business_hours_schedule",)),
             {"businessHoursSchedule": forms.business_hours()})]


def _create_organization(user_id: str, fields: dict, hours: dict):
    """`fields` and `hours` as the schemas of `_organization_checks` loaded them."""
    fields = {**fields, "slug": organizations_service.suggest_slug(db_session(), name=fields["name"]), **hours}
    return organizations_service.check_create_organization(
        db_session(), actor=Actor(user_id=user_id), **fields)


def _form_values() -> dict:
    """What the person typed, to show again after a failure (never the password)."""
    values = {key: request.form.get(key, "")[:200] for key in ("name", "email", "org_name", "country",
                                                                "currency", "timezone")}
    values["hours"] = forms.business_hours()
    return values


def _setup_defaults() -> dict:
    return {"name": "", "email": "", "org_name": "", "country": "", "currency": "", "timezone": "",
            "hours": forms.DEFAULT_HOURS}


@console_pages.route("/setup", methods=["GET", "POST"])
@browser_form
def setup():
    """The first run: the owner and the business in one form. 404 once anyone has an account."""
    if not _first_run():
        abort(404)
    restore_offered = not backups_service.by_postgresql(runtime.get().settings)
    if request.method == "GET":
        return render_page(_SETUP, TEXTS | BACKUP_TEXTS, values=_setup_defaults(), weekdays=forms.WEEKDAYS,
                           restore_offered=restore_offered)
    try:
        # The owner's email is the billing email; an empty one is reported once, by the person's part.
        person, fields, hours = check_forms((SignupSchema(), _person_fields()),
                                           *_organization_checks(forms.text("email", 300) or "owner@example.com"))
        user = _create_person(person)
        organization = _create_organization(user.id, fields, hours)
    except AppError as error:
        return render_failure(_SETUP, TEXTS | BACKUP_TEXTS, error, values=_form_values(), weekdays=forms.WEEKDAYS,
                              restore_offered=restore_offered)
    return redirect(url_for("console_pages.whatsapp", org_id=organization.id, welcome=1))


@console_pages.route("/setup/restore", methods=["GET", "POST"])
@browser_form
@takes_upload(max_bytes=RESTORE_UPLOAD_BYTES, content_types=("application/gzip",), field="archive")
def setup_restore():
    """The first run's other way: this installation becomes a backup's. While it is checked and put in
    place the page reads itself again; once the installation has people, to signing in."""
    progress = from_setup.current()
    if not _first_run():
        return redirect(url_for("auth_pages.sign_in"))
    if request.method == "GET" or (progress is not None and progress.state != from_setup.FAILED):
        return render_page(_RESTORE, TEXTS | BACKUP_TEXTS, progress=progress)
    try:
        backups_service.refuse_by_postgresql(runtime.get().settings)  # before the upload is kept
        upload = uploaded_file("archive")
        key_text = forms.text("key", 200)
        if not key_text:
            raise Invalid("Type the backup key shown when the backup was made.", code="validation_failed",
                          errors={"key": ["Missing data for required field."]})
        kept = files.spool_dir() / f"restore-{secrets.token_hex(8)}.tar.gz"  # the check's thread removes it
        files.write_atomically(kept, upload)
        from_setup.begin(kept, key_text, runtime.get().settings)
    except AppError as error:
        return render_failure(_RESTORE, TEXTS | BACKUP_TEXTS, error, progress=None)
    return redirect(url_for("console_pages.setup_restore"))


@console_pages.route("/sign-up", methods=["GET", "POST"])
@browser_form
def sign_up():
    """Public, as POST /auth/signup is. The first person goes through /setup instead."""
    if _first_run():
        return redirect(url_for("console_pages.setup"))
    if browser_actor() is not None:
        return redirect(url_for("console_pages.console"))
    if request.method == "GET":
        return render_page(_SIGN_UP, TEXTS, values={"name": "", "email": ""})
    try:
        _create_person(check_form(SignupSchema(), _person_fields()))
    except AppError as error:
        return render_failure(_SIGN_UP, TEXTS, error, values=_form_values())
    return redirect(url_for("console_pages.console"))


@console_pages.route("/forgot-password", methods=["GET", "POST"])
@browser_form
def forgot_password():
    """Always the same answer, so the page does not tell which addresses have accounts."""
    if request.method == "GET":
        return render_page(_FORGOT, TEXTS, email=request.args.get("email", "")[:254], sent=False)
    email = forms.text("email", 254)
    try:
        check_form(SignupSchema(only=("email",)), {"email": email})
    except AppError as error:
        return render_failure(_FORGOT, TEXTS, error, email=email, sent=False)
    email_links.do_forgot_password(db_session(), email=email)
    return render_page(_FORGOT, TEXTS, email=email, sent=True)


@console_pages.route("/console/organizations/new", methods=["GET", "POST"])
@signed_in_page
def new_organization():
    user = users_service.access_me(db_session(), actor=browser_actor())
    quota = organizations_service.get_quota(db_session(), actor=browser_actor())
    if request.method == "GET":
        return render(_NEW_ORG, None, "console_pages.new_organization", values=_setup_defaults(),
                      weekdays=forms.WEEKDAYS, quota=quota, first=not my_organizations())
    try:
        fields, hours = check_forms(*_organization_checks(user.email))
        organization = _create_organization(user.id, fields, hours)
    except AppError as error:
        return render(_NEW_ORG, None, "console_pages.new_organization", error=error, values=_form_values(),
                            weekdays=forms.WEEKDAYS, quota=quota, first=not my_organizations())
    return redirect(url_for("console_pages.whatsapp", org_id=organization.id, welcome=1))
