"""Contact lists: create, delete, and import a CSV into one in two steps. The file is read and
shown first (how many rows, which are new, the columns that become attributes, the rejected rows by
line) and waits under the data directory; confirming imports it as `POST .../import` would, and
shows what was done. With JavaScript the upload shows a progress bar (web/static/console.js)."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_catalog import CATALOG
from appliance.contact_lists import csv_import, staged_imports
from appliance.contact_lists import service as lists_service
from appliance.contact_lists import api as contact_lists_api
from appliance.contact_lists.schemas import ContactListCreateSchema
from appliance.core.errors import AppError, Invalid
from appliance.http.api import takes_upload, uploaded_file
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session

_LISTS, _IMPORT, _ACTIVE = "console/contact_lists.html", "console/contact_import.html", "console_pages.contacts"


def _lists_page(actor, error: AppError | None = None):
    return render(_LISTS, actor, _ACTIVE, error=error, texts=CATALOG,
                  lists=lists_service.list_lists(db_session(), actor=actor), done=request.args.get("done"),
                  values={"name": request.form.get("name", "")[:100], "description": request.form.get("description", "")[:500]})


@console_pages.get("/console/<uuid:org_id>/contacts/lists")
@performs(contact_lists_api.ContactLists.get)
@signed_in_page
def contact_lists(org_id):
    return _lists_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/contacts/lists")
@performs(contact_lists_api.ContactLists.post)
@signed_in_page
def contact_list_create(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(ContactListCreateSchema(), {"name": forms.text("name", 100),
                                                        "description": forms.optional("description", 500)})
        created = lists_service.do_create(db_session(), actor=actor, **fields)
    except AppError as error:
        return _lists_page(actor, error)
    return back("console_pages.contact_import", "list_created", org_id=actor.organization_id, list_id=created.id)


@console_pages.post("/console/<uuid:org_id>/contacts/lists/<uuid:list_id>/delete")
@performs(contact_lists_api.ContactListById.delete)
@signed_in_page
def contact_list_delete(org_id, list_id):
    actor = org_actor(org_id)
    lists_service.do_delete(db_session(), actor=actor, list_id=str(list_id))
    return back("console_pages.contact_lists", "list_deleted", org_id=actor.organization_id)


def _import_page(actor, list_id: str, error: AppError | None = None, **context):
    contact_list = lists_service.view_list(db_session(), actor=actor, list_id=list_id)
    return render(_IMPORT, actor, _ACTIVE, error=error, texts=CATALOG, contact_list=contact_list,
                  max_rows=csv_import.MAX_ROWS, max_megabytes=csv_import.MAX_BYTES // (1024 * 1024),
                  update_existing=bool(request.form.get("update_existing")), done=request.args.get("done"), **context)


@console_pages.get("/console/<uuid:org_id>/contacts/lists/<uuid:list_id>/import")
@performs(contact_lists_api.ContactListById.get)  # the list's import page: the file is read and previewed by the next step
@signed_in_page
def contact_import(org_id, list_id):
    return _import_page(org_actor(org_id), str(list_id))


@console_pages.post("/console/<uuid:org_id>/contacts/lists/<uuid:list_id>/import")
@performs(contact_lists_api.ContactListImport.post)
@takes_upload(max_bytes=csv_import.MAX_BYTES, content_types=("text/csv", "text/plain"))
@signed_in_page
def contact_import_preview(org_id, list_id):
    """Step one: the file read, nothing written; the preview names the staged file."""
    actor = org_actor(org_id)
    try:
        upload = uploaded_file()
        content, name = upload.read(), upload.filename  # ≤ 5 MB: the rows are parsed whole
        if not content:
            raise Invalid("Choose a CSV file.", code="file_missing", errors={"file": ["Choose a CSV file."]})
        preview = lists_service.check_import_preview(db_session(), actor=actor, list_id=str(list_id), content=content)
    except AppError as error:
        if error.code.startswith("csv_") and not error.errors:
            error.errors = {"file": [error.detail]}
        return _import_page(actor, str(list_id), error)
    staged = staged_imports.stage(actor.organization_id, content)
    return _import_page(actor, str(list_id), preview=preview, staged=staged, file_name=(name or "")[:200])


@console_pages.post("/console/<uuid:org_id>/contacts/lists/<uuid:list_id>/import/confirm")
@performs(contact_lists_api.ContactListImport.post)
@signed_in_page
def contact_import_confirm(org_id, list_id):
    """Step two: the staged file imported (one transaction); the summary lists rejected rows."""
    actor = org_actor(org_id)
    staged = forms.text("staged", 80)
    content = staged_imports.read(actor.organization_id, staged)
    summary = lists_service.do_import_csv(db_session(), actor=actor, list_id=str(list_id), content=content,
                                          update_existing=bool(request.form.get("update_existing")))
    staged_imports.discard(actor.organization_id, staged)
    return _import_page(actor, str(list_id), summary=summary)
