"""Console pages that follow what changes without them: a template in review, a campaign's
progress and replies. Such a page names the events it follows (`follow_live` on its <main>), hears
them on the same stream as the inbox (the outbox's events, each only for who may read what it is
about: live/feed.py), and redraws its live parts from a fresh copy of itself (web/static/live.js).

A page whose changes are not events (the webhook delivery log: the sender writes up to a thousand
outcomes a second, and announcing each would double the outbox's writes for a page seldom open)
re-reads itself instead while something on it is unfinished (`data-live-every`)."""

from __future__ import annotations

import json

from flask import request, url_for
from jinja2 import pass_context
from markupsafe import Markup, escape

from appliance.console.common import console_pages
from appliance.http.browser import browser_actor, signed_in_page
from appliance.http.operations import open_to_members, page_permission
from appliance.http.unit_of_work import db_session
from appliance.live import feed
from appliance.live.api import event_stream_response
from appliance.memberships import service as memberships_service


@console_pages.get("/console/<uuid:org_id>/events")
@open_to_members  # each event only to who may read what it is about (live/feed.py)
@signed_in_page
def console_events(org_id):
    """`?events=template.status,broadcast.updated` (those the person may hear: live/feed.py), from
    `lastEventId` (the outbox's position when the page was drawn) or the browser's Last-Event-ID."""
    actor = memberships_service.access_organization(db_session(), actor=browser_actor(), organization_id=str(org_id),
                                                    permission=page_permission())
    names = [name for name in (request.args.get("events") or "")[:500].split(",") if name]
    return event_stream_response(actor, request.headers.get("Last-Event-ID", request.args.get("lastEventId")),
                                 names=names)


@console_pages.app_template_global("follow_live")
@pass_context
def follow_live(context, *names: str, about: dict | None = None) -> Markup:
    """The attributes of a page's <main> that follows `names` live: the stream's address, starting
    at the outbox's position now (nothing that happens between the page and its stream is
    missed), and `about`, the data an event must match to concern this page (`{"broadcastId": id}`)."""
    if request.method != "GET":  # a form's answer, at the form's address: nothing to read again there
        return Markup("")
    stream = url_for("console_pages.console_events", org_id=context["org_id"], events=",".join(names),
                     lastEventId=feed.position(db_session()))
    return Markup(f' data-live-stream="{escape(stream)}" data-live-events="{escape(" ".join(names))}"'
                  f' data-live-about="{escape(json.dumps(about or {}))}"')


@console_pages.app_template_global("follow_every")
def follow_every(seconds: int) -> Markup:
    """The attribute of a page's <main> that reads itself again every `seconds` (its changes are
    not events)."""
    return Markup(f' data-live-every="{int(seconds)}"') if request.method == "GET" else Markup("")
