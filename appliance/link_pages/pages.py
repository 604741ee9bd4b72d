"""The public side of link pages: the page itself (`/link-pages/p/{handle}`, es/en by the visitor's
language, made for phones) and its tracked redirects (`/link-pages/go/{itemId}`)."""

from flask import Blueprint, redirect

from appliance.http.api import public, writes_on_get
from appliance.http.pages import render_page
from appliance.http.unit_of_work import db_session
from appliance.link_pages import service
from appliance.link_pages.texts import TEXTS

link_pages_public = Blueprint("link_pages_public", __name__, url_prefix="/link-pages")


@link_pages_public.get("/p/<handle>")
@public
@writes_on_get
def page(handle):
    found, items = service.public_page(db_session(), handle[:40])
    html, status = render_page("link_pages/page.html", TEXTS, page=found, items=items)
    return html, status, {"Cache-Control": "no-store"}


@link_pages_public.get("/go/<uuid:item_id>")
@public
@writes_on_get
def go(item_id):
    return redirect(service.follow(db_session(), str(item_id)), code=302)
