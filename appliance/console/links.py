"""Chat links in the console: the list with each one's short address and clicks, a form to make one,
and a link's page with its QR code (PNG to download, SVG shown), clicks per day as a chart, the
referring sites, the conversations it started, its settings and the archive toggle."""

from __future__ import annotations

from datetime import timedelta

from flask import Response, request

from appliance.chat_links import service
from appliance.chat_links import api as chat_links_api
from appliance.chat_links.schemas import ChatLinkCreateSchema, ChatLinkUpdateSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_links import LINK_TEXTS
from appliance.core import clock, runtime
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.organizations.zones import zone_of
from appliance.phone_numbers import service as phone_numbers_service

_ACTIVE = "console_pages.links"
CHART_DAYS = 30


def _body(with_number: bool) -> dict:
    body = {"name": forms.text("name", 120), "campaignTag": forms.optional("campaign_tag", 60),
            "prefilledMessage": forms.optional("prefilled_message", 1000)}
    if with_number:
        body["phoneNumberId"] = forms.text("phone_number_id", 36)
    return body


def _list_page(actor, error: AppError | None = None):
    session = db_session()
    archived = request.args.get("archived") == "1"
    found = service.list_links(session, actor=actor, include_archived=archived)
    if archived:
        found = [link for link in found if link.archived]
    return render("console/links.html", actor, _ACTIVE, error=error, texts=LINK_TEXTS, links=found, archived=archived,
                  clicks=service.click_counts(session, [link.id for link in found]), url_of=service.url_of,
                  numbers=phone_numbers_service.list_phone_numbers(session, actor=actor), done=request.args.get("done"),
                  values=request.form if error else None)


@console_pages.get("/console/<uuid:org_id>/links")
@performs(chat_links_api.Links.get)
@signed_in_page
def links(org_id):
    return _list_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/links")
@performs(chat_links_api.Links.post)
@signed_in_page
def link_create(org_id):
    actor = org_actor(org_id)
    try:
        made = service.do_create(db_session(), actor=actor, **check_form(ChatLinkCreateSchema(), _body(True)))
    except AppError as error:
        return _list_page(actor, error)
    return back("console_pages.link", "created", org_id=actor.organization_id, link_id=made.id)


def _link_page(actor, link_id: str, error: AppError | None = None):
    session = db_session()
    link = service.access_link(session, actor=actor, link_id=link_id)
    stats = service.stats(session, actor=actor, link_id=link.id)
    today = clock.now().astimezone(zone_of(session, actor.organization_id)).date()  # the days `stats` counts in
    per_day = {d["date"]: d["clicks"] for d in stats["by_day"]}
    days = [{"date": (today - timedelta(days=n)).isoformat(), "clicks": per_day.get((today - timedelta(days=n)).isoformat(), 0)}
            for n in range(CHART_DAYS - 1, -1, -1)]
    return render("console/link.html", actor, _ACTIVE, error=error, texts=LINK_TEXTS, link=link, stats=stats, days=days,
                  url=service.url_of(link), done=request.args.get("done"), values=request.form if error else None,
                  # Published under APPLIANCE_SHORT_LINK_BASE, the link does not start with the public address.
                  on_public_address=not runtime.get().settings.short_link_base)


@console_pages.get("/console/<uuid:org_id>/links/<uuid:link_id>")
@performs(chat_links_api.LinkById.get)
@signed_in_page
def link(org_id, link_id):
    return _link_page(org_actor(org_id), str(link_id))


@console_pages.post("/console/<uuid:org_id>/links/<uuid:link_id>")
@performs(chat_links_api.LinkById.patch)
@signed_in_page
def link_update(org_id, link_id):
    actor = org_actor(org_id)
    try:
        service.do_update(db_session(), actor=actor, link_id=str(link_id), **check_form(ChatLinkUpdateSchema(), _body(False)))
    except AppError as error:
        return _link_page(actor, str(link_id), error)
    return back("console_pages.link", "saved", org_id=actor.organization_id, link_id=link_id)


@console_pages.post("/console/<uuid:org_id>/links/<uuid:link_id>/archive")
@performs(chat_links_api.LinkById.patch)  # archiving is a change of the link
@signed_in_page
def link_archive(org_id, link_id):
    actor = org_actor(org_id)
    found = service.do_toggle_archived(db_session(), actor=actor, link_id=str(link_id))
    return back("console_pages.link", "archived" if found.archived else "restored", org_id=actor.organization_id,
                link_id=link_id)


@console_pages.get("/console/<uuid:org_id>/links/<uuid:link_id>/qr.<kind>")
@performs(chat_links_api.LinkQr.get)
@signed_in_page
def link_qr(org_id, link_id, kind):
    """The QR code for the page (SVG) and to download (PNG, 1024 pixels, for print)."""
    actor = org_actor(org_id)
    fmt = "SVG" if kind == "svg" else "PNG"
    data, mimetype = service.qr(db_session(), actor=actor, link_id=str(link_id), format=fmt,
                                size=1024 if fmt == "PNG" else 320)
    headers = {"Cache-Control": "private, max-age=300"}
    if fmt == "PNG":
        headers["Content-Disposition"] = f'attachment; filename="qr-{link_id}.png"'
    return Response(data, mimetype=mimetype, headers=headers)
