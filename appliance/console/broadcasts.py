"""Campaigns (broadcasts) in the console: the list with each one's progress; the wizard (number and
template, the values with a live preview for a sample contact, the audience with its counts and
opt-outs, now or later); a campaign's page with a progress bar, the funnel of counts and the
recipients by state (with a CSV export), followed live while they can change (console/live.py),
and cancel, resume and retry-failed. Checked by the API's
schema and done by the same services; every form posts without JavaScript (the wizard's choices
reload it with a GET)."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta

from flask import request

from appliance.broadcasts import audience, personalize, service
from appliance.broadcasts import api as broadcasts_api
from appliance.broadcasts.schemas import BroadcastCreateSchema
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.templates import preview_of
from appliance.console.texts_broadcasts import BROADCAST_TEXTS
from appliance.core import clock, phones
from appliance.core.errors import AppError, Invalid
from appliance.graph_api.errors import explain
from appliance.http.browser import signed_in_page
from appliance.http.files import csv_attachment
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.organizations.zones import zone_of
from appliance.phone_numbers import service as phone_numbers_service
from appliance.templates import service as templates_service
from appliance.templates.components import expected_variables

_ACTIVE = "console_pages.broadcasts"
PAGE_SIZE = 20
RECIPIENTS_PAGE = 50
EXPORT_PAGE = 200
EXPORT_COLUMNS = ("phone", "name", "status", "skipped_reason", "error_code", "error", "sent_at", "replied_at", "attempts")
PLACEHOLDER_HINTS = ("{{contact.name|cliente}}", "{{contact.phone}}", "{{contact.attributes.ciudad}}")


# The list -------------------------------------------------------------------------------------------

@console_pages.get("/console/<uuid:org_id>/broadcasts")
@performs(broadcasts_api.Broadcasts.get)
@signed_in_page
def broadcasts(org_id):
    actor = org_actor(org_id)
    page = service.list_broadcasts(db_session(), actor=actor, take=PAGE_SIZE, cursor=request.args.get("cursor") or None)
    return render("console/broadcasts.html", actor, _ACTIVE, texts=BROADCAST_TEXTS, items=page.items,
                  next_cursor=page.next_cursor, numbers=_number_names(actor),
                  done=request.args.get("done"))


def _number_names(actor) -> dict[str, str]:
    """Each number as pages write numbers (the `phone` filter's format)."""
    return {n.id: phones.for_people(n.display_phone_number)
            for n in phone_numbers_service.list_phone_numbers(db_session(), actor=actor)}


# The wizard -----------------------------------------------------------------------------------------

def _choices() -> dict:
    """The wizard's state from the form (POST) or the address (GET: the choices' reloads)."""
    source = request.form if request.method == "POST" else request.args
    return {"name": source.get("name", "")[:120], "number": source.get("number", "")[:40],
            "template": source.get("template", "")[:40], "lists": [v[:40] for v in source.getlist("lists")][:50],
            "when": source.get("when", "now"), "at": source.get("at", "")[:16],
            "values": {key: source.get(key, "")[:1024] for key in source if key.startswith(("body_", "header_", "button_"))}}


def _variables(template, values: dict):
    """The form's value fields as POST /broadcasts takes `variables`."""
    expected = expected_variables(template.components)
    body_names = expected["body"]
    named = template.parameter_format == "NAMED"
    body = {n: values.get(f"body_{n}", "") for n in body_names} if named else [values.get(f"body_{n}", "") for n in body_names]
    variables: dict = {"body": body}
    header = expected["header"]
    if header:
        variables["header"] = ({"type": "text", "text": values.get("header_text", "")} if header["format"] == "TEXT"
                               else {"type": header["format"].lower(), "link": values.get("header_link", "")})
    if expected["buttons"]:
        variables["buttons"] = [{"index": index, "value": values.get(f"button_{index}", "")}
                                for index, _ in expected["buttons"]]
    return variables


def _preview(template, variables, contact) -> dict:
    """The message as the sample contact would get it: the template's texts with their values."""
    try:
        filled = personalize.fill(variables, name=(contact.name or contact.profile_name) if contact else None,
                                  wa_id=contact.wa_id if contact else None,
                                  attributes=contact.attributes if contact else {}) if contact else personalize.sample(variables)
        missing = None
    except personalize.MissingValue as gap:
        filled, missing = personalize.sample(variables), gap.placeholder
    components = copy.deepcopy(template.components)
    body = filled.get("body") or []
    for component in components:
        kind = str(component.get("type", "")).upper()
        if kind == "BODY":
            component["example"] = ({"body_text_named_params": [{"param_name": k, "example": v or "…"} for k, v in body.items()]}
                                    if isinstance(body, dict) else {"body_text": [[v or "…" for v in body]]})
        elif kind == "HEADER" and str(component.get("format", "TEXT")).upper() == "TEXT" and filled.get("header"):
            component["example"] = {"header_text": [filled["header"].get("text") or "…"]}
    return {**preview_of(components), "missing": missing}


def _wizard(actor, error: AppError | None = None):
    session = db_session()
    chosen = _choices()
    numbers = phone_numbers_service.list_phone_numbers(session, actor=actor)
    number = next((n for n in numbers if n.id == chosen["number"]), numbers[0] if len(numbers) == 1 else None)
    templates = []
    if number is not None:
        templates = [t for t in templates_service.list_templates(session, actor=actor, take=200, cursor=None,
                                                                  business_account_id=number.waba_pk,
                                                                  status="APPROVED").items]
    template = next((t for t in templates if t.id == chosen["template"]), None)
    lists = audience.summary(session, actor=actor)
    chosen_lists = [item.id for item in lists if item.id in chosen["lists"]]
    sample = audience.sample_contact(session, actor=actor, list_ids=chosen_lists)
    expected = expected_variables(template.components) if template else None
    variables = _variables(template, chosen["values"]) if template else None
    return render("console/broadcast_new.html", actor, _ACTIVE, error=error, texts=BROADCAST_TEXTS, chosen=chosen,
                  numbers=numbers, number=number, templates=templates, tpl=template, expected=expected,
                  lists=lists, chosen_lists=chosen_lists,
                  reachable=audience.reachable_in(session, actor=actor, list_ids=chosen_lists),
                  sample=sample, preview=_preview(template, variables, sample) if template else None,
                  hints=PLACEHOLDER_HINTS)


@console_pages.get("/console/<uuid:org_id>/broadcasts/new")
@performs(broadcasts_api.Broadcasts.post)  # the form that makes one
@signed_in_page
def broadcast_new(org_id):
    return _wizard(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/broadcasts/new")
@performs(broadcasts_api.Broadcasts.post)
@signed_in_page
def broadcast_create(org_id):
    actor = org_actor(org_id)
    session = db_session()
    chosen = _choices()
    try:
        if not chosen["template"]:
            raise Invalid("Choose a template.", errors={"templateId": ["Choose a template."]})
        template = templates_service.access_template(session, actor=actor, template_pk=chosen["template"])
        body = {"name": chosen["name"], "phoneNumberId": chosen["number"], "templateId": template.id,
                "variables": _variables(template, chosen["values"]),
                "audience": {"contactListIds": chosen["lists"]}}
        if chosen["when"] == "later":
            body["scheduledAt"] = _scheduled(actor, chosen["at"])
        created = service.do_create(session, actor=actor, **check_form(BroadcastCreateSchema(), body))
    except AppError as error:
        return _wizard(actor, error)
    return back("console_pages.broadcast", "broadcast_created", org_id=actor.organization_id, broadcast_id=created.id)


def _scheduled(actor, local: str) -> str:
    """A datetime-local value (the organization's time zone) as the API's ISO instant."""
    try:
        moment = datetime.strptime(local, "%Y-%m-%dT%H:%M").replace(tzinfo=zone_of(db_session(), actor.organization_id))
    except ValueError:
        raise Invalid("Give the day and time to send.", errors={"scheduledAt": ["Give the day and time."]}) from None
    return moment.isoformat()


# One campaign ---------------------------------------------------------------------------------------

# After it ends, a campaign's page follows its replies this long (most come the first day); later it
# is read as drawn. (Every receipt is a `message.updated` with no campaign in it: those are followed
# only while it sends, when most of them are its own.)
FOLLOWED_AFTER_END = timedelta(hours=24)


def _followed_events(broadcast, now: datetime) -> tuple[str, ...]:
    """The events that may change the campaign's page now (none: it stops following)."""
    if broadcast.completed_at is None:  # scheduled, sending or paused: its own receipts are coming
        return ("broadcast.updated", "message.updated")
    return ("broadcast.updated",) if broadcast.completed_at >= now - FOLLOWED_AFTER_END else ()


def _campaign(actor, broadcast_id: str, error: AppError | None = None):
    session = db_session()
    shown = service.get_broadcast(session, actor=actor, broadcast_id=broadcast_id)
    wanted = request.args.get("filter") if request.args.get("filter") in service.FILTERS else None
    recipients = service.list_recipients(session, actor=actor, broadcast_id=broadcast_id, take=RECIPIENTS_PAGE,
                                         cursor=request.args.get("cursor") or None, filter=wanted)
    counts = shown.counts
    finished = counts["sent"] + counts["failed"] + counts["skipped"]
    return render("console/broadcast.html", actor, _ACTIVE, error=error, texts=BROADCAST_TEXTS, broadcast=shown,
                  counts=counts, finished=finished, recipients=recipients.items, next_cursor=recipients.next_cursor,
                  filter=wanted, filters=service.FILTERS, numbers=_number_names(actor),
                  following=_followed_events(shown, clock.now()),
                  guidance=lambda code: explain(code).guidance, done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/broadcasts/<uuid:broadcast_id>")
@performs(broadcasts_api.BroadcastById.get)
@signed_in_page
def broadcast(org_id, broadcast_id):
    return _campaign(org_actor(org_id), str(broadcast_id))


def _act(org_id, broadcast_id, act, done: str):
    actor = org_actor(org_id)
    try:
        act(db_session(), actor=actor, broadcast_id=str(broadcast_id))
    except AppError as error:
        return _campaign(actor, str(broadcast_id), error)
    return back("console_pages.broadcast", done, org_id=actor.organization_id, broadcast_id=broadcast_id)


@console_pages.post("/console/<uuid:org_id>/broadcasts/<uuid:broadcast_id>/cancel")
@performs(broadcasts_api.Cancel.post)
@signed_in_page
def broadcast_cancel(org_id, broadcast_id):
    return _act(org_id, broadcast_id, service.do_cancel, "broadcast_cancelled")


@console_pages.post("/console/<uuid:org_id>/broadcasts/<uuid:broadcast_id>/resume")
@performs(broadcasts_api.Resume.post)
@signed_in_page
def broadcast_resume(org_id, broadcast_id):
    return _act(org_id, broadcast_id, service.do_resume, "broadcast_resumed")


@console_pages.post("/console/<uuid:org_id>/broadcasts/<uuid:broadcast_id>/retry")
@performs(broadcasts_api.RetryFailed.post)
@signed_in_page
def broadcast_retry(org_id, broadcast_id):
    return _act(org_id, broadcast_id, service.do_retry_failed, "broadcast_retried")


@console_pages.get("/console/<uuid:org_id>/broadcasts/<uuid:broadcast_id>/recipients.csv")
@performs(broadcasts_api.Recipients.get)
@signed_in_page
def broadcast_export(org_id, broadcast_id):
    """Every recipient (or those of a filter) as CSV: spreadsheets read it, the state of each."""
    actor = org_actor(org_id)
    session = db_session()
    wanted = request.args.get("filter") if request.args.get("filter") in service.FILTERS else None
    shown = service.get_broadcast(session, actor=actor, broadcast_id=str(broadcast_id))
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in shown.name)[:60] or "broadcast"
    return csv_attachment(f"{name}-recipients.csv", EXPORT_COLUMNS, _export_rows(session, actor, shown.id, wanted))


def _export_rows(session, actor, broadcast_id: str, wanted: str | None):
    cursor = None
    while True:
        page = service.list_recipients(session, actor=actor, broadcast_id=broadcast_id, take=EXPORT_PAGE,
                                       cursor=cursor, filter=wanted)
        for r in page.items:
            yield [f"+{r.wa_id}" if r.wa_id else "", r.name or r.profile_name, r.status, r.skipped_reason,
                   r.error_code, r.error_title, r.sent_at.isoformat() if r.sent_at else "",
                   r.replied_at.isoformat() if r.replied_at else "", r.attempts]
        if not page.next_cursor:
            break
        cursor = page.next_cursor

