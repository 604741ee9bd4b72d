"""Webhooks in the console: the list with each one's health; a webhook's page with its settings
(the same checks as the API), send test, the signing secret shown on request, on/off, delete, and
the delivery log (filter by state, each delivery's request, response and attempts, send again),
which follows its unfinished deliveries until they are done (console/live.py).
Every form posts without JavaScript."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_webhooks import WEBHOOK_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.outbound_webhooks import envelopes, service
from appliance.outbound_webhooks import api as outbound_webhooks_api
from appliance.outbound_webhooks.models import PENDING, RETRYING
from appliance.outbound_webhooks.schemas import WebhookCreateSchema, WebhookUpdateSchema
from appliance.phone_numbers import service as phone_numbers_service

_ACTIVE = "console_pages.webhooks"
LOG_PAGE = 25


def _choices(actor) -> dict:
    return {"events": envelopes.SUBSCRIBABLE, "formats": envelopes.FORMATS, "statuses": service.AGENT_STATUSES,
            "numbers": phone_numbers_service.list_phone_numbers(db_session(), actor=actor)}


def _form_values() -> dict:
    """The form as the API's body (camelCase); blanks left out so the defaults apply."""
    values = {"url": forms.text("url", 2000), "events": forms.checked("events"),
              "phoneNumberIds": forms.checked("phone_number_ids"), "agentStatuses": forms.checked("agent_statuses")}
    if request.form.get("format"):
        values["format"] = request.form["format"]
    threshold = request.form.get("unanswered_threshold_minutes", "").strip()
    if threshold and envelopes.events.CONVERSATION_UNANSWERED in values["events"]:
        values["unansweredThresholdMinutes"] = threshold
    return values


def _list_page(actor, error: AppError | None = None):
    found = service.list_webhooks(db_session(), actor=actor)
    return render("console/webhooks.html", actor, _ACTIVE, error=error, texts=WEBHOOK_TEXTS, webhooks=found,
                  healths={w.id: service.health(w) for w in found}, done=request.args.get("done"),
                  values=request.form if error else {}, **_choices(actor))


@console_pages.get("/console/<uuid:org_id>/webhooks")
@performs(outbound_webhooks_api.Webhooks.get)
@signed_in_page
def webhooks(org_id):
    return _list_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/webhooks")
@performs(outbound_webhooks_api.Webhooks.post)
@signed_in_page
def webhook_create(org_id):
    actor = org_actor(org_id)
    try:
        created = service.do_create(db_session(), actor=actor, **check_form(WebhookCreateSchema(), _form_values()))
    except AppError as error:
        return _list_page(actor, error)
    return back("console_pages.webhook", "created", org_id=actor.organization_id, webhook_id=created.id)


# One webhook ----------------------------------------------------------------------------------------

def _webhook_page(actor, webhook_id: str, *, error: AppError | None = None, secret: str | None = None):
    session = db_session()
    webhook = service.access_webhook(session, actor=actor, webhook_id=webhook_id)
    state = request.args.get("status") or None
    page = service.list_deliveries(session, actor=actor, webhook_id=webhook.id, take=LOG_PAGE,
                                   cursor=request.args.get("cursor") or None,
                                   status=state if state in service.DELIVERY_FILTERS else None)
    deliveries = service.with_attempts(session, page.items)  # the page's deliveries already passed the webhook's check
    return render("console/webhook.html", actor, _ACTIVE, error=error, texts=WEBHOOK_TEXTS, webhook=webhook,
                  health=service.health(webhook), deliveries=deliveries, next_cursor=page.next_cursor, state=state,
                  unfinished=any(d.status in (PENDING, RETRYING) for d in deliveries),  # followed till done
                  secret=secret, no_store=secret is not None, done=request.args.get("done"),
                  values=request.form if error else None, **_choices(actor))


@console_pages.get("/console/<uuid:org_id>/webhooks/<uuid:webhook_id>")
@performs(outbound_webhooks_api.WebhookById.get)
@signed_in_page
def webhook(org_id, webhook_id):
    return _webhook_page(org_actor(org_id), str(webhook_id))


@console_pages.post("/console/<uuid:org_id>/webhooks/<uuid:webhook_id>")
@performs(outbound_webhooks_api.WebhookById.patch)
@signed_in_page
def webhook_update(org_id, webhook_id):
    actor = org_actor(org_id)
    values = {**_form_values(), "active": request.form.get("active") == "1"}
    values.setdefault("format", None)
    try:
        fields = check_form(WebhookUpdateSchema(), {k: v for k, v in values.items() if v is not None})
        service.do_update(db_session(), actor=actor, webhook_id=str(webhook_id), **fields)
    except AppError as error:
        return _webhook_page(actor, str(webhook_id), error=error)
    return back("console_pages.webhook", "saved", org_id=actor.organization_id, webhook_id=str(webhook_id))


@console_pages.post("/console/<uuid:org_id>/webhooks/<uuid:webhook_id>/test")
@performs(outbound_webhooks_api.Test.post)
@signed_in_page
def webhook_test(org_id, webhook_id):
    actor = org_actor(org_id)
    service.do_send_test(db_session(), actor=actor, webhook_id=str(webhook_id))
    return back("console_pages.webhook", "test_sent", org_id=actor.organization_id, webhook_id=str(webhook_id))


@console_pages.post("/console/<uuid:org_id>/webhooks/<uuid:webhook_id>/secret")
@performs(outbound_webhooks_api.Secret.get)
@signed_in_page
def webhook_secret(org_id, webhook_id):
    """The answer is the page itself, with the secret, not stored by the browser."""
    actor = org_actor(org_id)
    secret = service.reveal_secret(db_session(), actor=actor, webhook_id=str(webhook_id))["secret"]
    return _webhook_page(actor, str(webhook_id), secret=secret)


@console_pages.post("/console/<uuid:org_id>/webhooks/<uuid:webhook_id>/delete")
@performs(outbound_webhooks_api.WebhookById.delete)
@signed_in_page
def webhook_delete(org_id, webhook_id):
    actor = org_actor(org_id)
    service.do_delete(db_session(), actor=actor, webhook_id=str(webhook_id))
    return back(_ACTIVE, "deleted", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/webhooks/<uuid:webhook_id>/deliveries/<uuid:delivery_id>/retry")
@performs(outbound_webhooks_api.RetryDelivery.post)
@signed_in_page
def webhook_delivery_retry(org_id, webhook_id, delivery_id):
    actor = org_actor(org_id)
    try:
        service.do_retry_delivery(db_session(), actor=actor, webhook_id=str(webhook_id), delivery_id=str(delivery_id))
    except AppError as error:
        return _webhook_page(actor, str(webhook_id), error=error)
    return back("console_pages.webhook", "retried", org_id=actor.organization_id, webhook_id=str(webhook_id))
