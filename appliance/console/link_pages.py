"""Link pages in the console, beside chat links: the list, a form to make one, and a page's editor
(title, description, published, its buttons as rows: an address or a chat link) with a preview of
what visitors see and each button's clicks. Forms post without JavaScript; three empty rows take
new buttons."""

from __future__ import annotations

from types import SimpleNamespace

from flask import request

from appliance.chat_links import service as chat_links_service
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_links import LINK_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.link_pages import service
from appliance.link_pages import api as link_pages_api
from appliance.link_pages.schemas import LinkPageCreateSchema, LinkPageUpdateSchema

_ACTIVE = "console_pages.links"
EMPTY_ROWS = 3


def _list_page(actor, error: AppError | None = None):
    pages = service.list_pages(db_session(), actor=actor)
    return render("console/link_pages.html", actor, _ACTIVE, error=error, texts=LINK_TEXTS, pages=pages,
                  public_url=service.public_url, done=request.args.get("done"), values=request.form if error else None)


@console_pages.get("/console/<uuid:org_id>/link-pages")
@performs(link_pages_api.Pages.get)
@signed_in_page
def link_pages(org_id):
    return _list_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/link-pages")
@performs(link_pages_api.Pages.post)
@signed_in_page
def link_page_create(org_id):
    actor = org_actor(org_id)
    body = {"handle": forms.text("handle", 40).lower(), "title": forms.text("title", 120)}
    try:
        made = service.do_create(db_session(), actor=actor, **check_form(LinkPageCreateSchema(), body))
    except AppError as error:
        return _list_page(actor, error)
    return back("console_pages.link_page", "page_created", org_id=actor.organization_id, page_id=made.id)


def _rows() -> list[dict]:
    """The editor's rows as the API's items: a row with a label and an address or a chat link."""
    items = []
    for index in range(len(request.form.getlist("item_label"))):
        label = request.form.getlist("item_label")[index].strip()[:80]
        target = request.form.getlist("item_target")[index].strip()[:2000]
        item_id = request.form.getlist("item_id")[index].strip()[:36]
        if not label and not target:
            continue
        item = {"label": label}
        if target.startswith("chat:"):
            item["chatLinkId"] = target.removeprefix("chat:")
        else:
            item["url"] = target or None
        if item_id:
            item["id"] = item_id
        items.append(item)
    return items


def _editor(actor, page_id: str, error: AppError | None = None):
    session = db_session()
    page = service.access_page(session, actor=actor, page_id=page_id)
    items = service.items_of(session, [page.id])[page.id]
    links = chat_links_service.list_links(session, actor=actor)
    rows = [SimpleNamespace(id=i.id, label=i.label, target=f"chat:{i.chat_link_id}" if i.chat_link_id else (i.url or ""),
                            clicks=i.clicks) for i in items]
    rows += [SimpleNamespace(id="", label="", target="", clicks=None) for _ in range(EMPTY_ROWS)]
    return render("console/link_page.html", actor, _ACTIVE, error=error, texts=LINK_TEXTS, page=page, items=items,
                  rows=rows, links=links, public_url=service.public_url(page), done=request.args.get("done"),
                  status=400 if error else 200)


@console_pages.get("/console/<uuid:org_id>/link-pages/<uuid:page_id>")
@performs(link_pages_api.PageById.get)
@signed_in_page
def link_page(org_id, page_id):
    return _editor(org_actor(org_id), str(page_id))


@console_pages.post("/console/<uuid:org_id>/link-pages/<uuid:page_id>")
@performs(link_pages_api.PageById.patch)
@signed_in_page
def link_page_save(org_id, page_id):
    actor = org_actor(org_id)
    body = {"title": forms.text("title", 120), "description": forms.optional("description", 500),
            "published": bool(request.form.get("published")), "items": _rows()}
    try:
        service.do_update(db_session(), actor=actor, page_id=str(page_id), **check_form(LinkPageUpdateSchema(), body))
    except AppError as error:
        db_session().rollback()
        return _editor(actor, str(page_id), error)
    return back("console_pages.link_page", "saved", org_id=actor.organization_id, page_id=page_id)


@console_pages.post("/console/<uuid:org_id>/link-pages/<uuid:page_id>/delete")
@performs(link_pages_api.PageById.delete)
@signed_in_page
def link_page_delete(org_id, page_id):
    actor = org_actor(org_id)
    service.do_delete(db_session(), actor=actor, page_id=str(page_id))
    return back("console_pages.link_pages", "page_deleted", org_id=actor.organization_id)
