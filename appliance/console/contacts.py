"""Contacts: the list with search and a list filter, one contact's page (name, automation,
attributes, opt-out, lists), adding one by hand and erasing one. Lists and CSV imports are in
console/contact_lists.py."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_catalog import CATALOG
from appliance.contact_lists import service as lists_service
from appliance.contact_lists import api as contact_lists_api
from appliance.contacts import service as contacts_service
from appliance.contacts import api as contacts_api
from appliance.contacts.schemas import ContactCreateSchema, ContactUpdateSchema
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session

_LIST, _ONE, _ACTIVE = "console/contacts.html", "console/contact.html", "console_pages.contacts"
PAGE_SIZE = 50
BLANK_ATTRIBUTE_ROWS = 2


def _list_page(actor, error: AppError | None = None):
    session = db_session()
    search = request.args.get("q", "").strip()[:100] or None
    lists = lists_service.list_lists(session, actor=actor)
    list_id = request.args.get("list") if any(item.id == request.args.get("list") for item in lists) else None
    page = contacts_service.list_contacts(session, actor=actor, take=PAGE_SIZE, cursor=request.args.get("cursor") or None,
                                          list_id=list_id, search=search)
    return render(_LIST, actor, _ACTIVE, error=error, texts=CATALOG, contacts=page.items, next_cursor=page.next_cursor,
                  search=search or "", lists=lists, list_id=list_id, done=request.args.get("done"),
                  values={"wa_id": request.form.get("wa_id", "")[:40], "name": request.form.get("name", "")[:200]})


@console_pages.get("/console/<uuid:org_id>/contacts")
@performs(contacts_api.Contacts.get)
@signed_in_page
def contacts(org_id):
    return _list_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/contacts")
@performs(contacts_api.Contacts.post)
@signed_in_page
def contact_create(org_id):
    actor = org_actor(org_id)
    try:
        fields = check_form(ContactCreateSchema(), {"waId": forms.text("wa_id", 40),
                                                    **({"name": forms.text("name", 200)} if forms.text("name") else {})})
        created = contacts_service.do_create(db_session(), actor=actor, **fields)
    except AppError as error:
        return _list_page(actor, error)
    return back("console_pages.contact", "contact_created", org_id=actor.organization_id, contact_id=created.id)


def _attributes_from_form(before: dict) -> dict:
    """The editor's rows (name, value) as attributes; a value left as it was keeps its type (a
    number imported from a CSV stays a number), an empty name drops the row."""
    attributes = {}
    for name, value in zip(request.form.getlist("attr_name")[:60], request.form.getlist("attr_value")[:60]):
        name, value = name.strip()[:100], value.strip()[:2000]
        if not name:
            continue
        kept = before.get(name)
        attributes[name] = kept if kept is not None and str(kept) == value else value
    return attributes


def _contact_page(actor, contact_id: str, error: AppError | None = None):
    session = db_session()
    contact = contacts_service.access_contact(session, actor=actor, contact_id=contact_id)
    member_of = lists_service.lists_of_contact(session, actor=actor, contact_id=contact_id)
    others = [item for item in lists_service.list_lists(session, actor=actor) if item.id not in {m.id for m in member_of}]
    attributes = (list(zip(request.form.getlist("attr_name"), request.form.getlist("attr_value"))) if error
                  else [(name, "" if value is None else str(value)) for name, value in (contact.attributes or {}).items()])
    return render(_ONE, actor, _ACTIVE, error=error, texts=CATALOG, contact=contact, member_of=member_of,
                  other_lists=others, attributes=attributes + [("", "")] * BLANK_ATTRIBUTE_ROWS,
                  done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/contacts/<uuid:contact_id>")
@performs(contacts_api.ContactById.get)
@signed_in_page
def contact(org_id, contact_id):
    return _contact_page(org_actor(org_id), str(contact_id))


@console_pages.post("/console/<uuid:org_id>/contacts/<uuid:contact_id>")
@performs(contacts_api.ContactById.patch)
@signed_in_page
def contact_update(org_id, contact_id):
    actor = org_actor(org_id)
    session = db_session()
    try:
        before = contacts_service.access_contact(session, actor=actor, contact_id=str(contact_id)).attributes or {}
        fields = check_form(ContactUpdateSchema(), {"name": forms.optional("name", 200),
                                                    "botExcluded": bool(request.form.get("bot_excluded")),
                                                    "attributes": _attributes_from_form(before)})
        contacts_service.do_update(session, actor=actor, contact_id=str(contact_id), **fields)
    except AppError as error:
        return _contact_page(actor, str(contact_id), error)
    return back("console_pages.contact", "saved", org_id=actor.organization_id, contact_id=contact_id)


@console_pages.post("/console/<uuid:org_id>/contacts/<uuid:contact_id>/delete")
@performs(contacts_api.ContactById.delete)
@signed_in_page
def contact_delete(org_id, contact_id):
    actor = org_actor(org_id)
    contacts_service.do_delete(db_session(), actor=actor, contact_id=str(contact_id))
    return back(_ACTIVE, "contact_deleted", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/contacts/<uuid:contact_id>/lists")
@performs(contact_lists_api.ContactListMembers.post)
@signed_in_page
def contact_join_list(org_id, contact_id):
    actor = org_actor(org_id)
    try:  # a list picked from the page can be gone (or never ours) by the time it is posted
        lists_service.do_add_members(db_session(), actor=actor, list_id=forms.text("list_id", 40),
                                     contact_ids=[str(contact_id)])
    except AppError as error:
        return _contact_page(actor, str(contact_id), error)
    return back("console_pages.contact", "list_joined", org_id=actor.organization_id, contact_id=contact_id)


@console_pages.post("/console/<uuid:org_id>/contacts/<uuid:contact_id>/lists/<uuid:list_id>/leave")
@performs(contact_lists_api.ContactListMembers.delete)
@signed_in_page
def contact_leave_list(org_id, contact_id, list_id):
    actor = org_actor(org_id)
    lists_service.do_remove_members(db_session(), actor=actor, list_id=str(list_id), contact_ids=[str(contact_id)])
    return back("console_pages.contact", "list_left", org_id=actor.organization_id, contact_id=contact_id)
