"""The web chat in the console: the organization's chat boxes, each with its snippet, its identity
secret (shown once, when made or made again), its settings and a live preview (the real widget on
the page itself, which the gateway lets in as the appliance's own origin). Forms work without
JavaScript."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, form_outcome, org_actor, render
from appliance.console.texts_webchat import WEBCHAT_TEXTS
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.installation import public_address
from appliance.phone_numbers import service as phone_numbers_service
from appliance.webchat import api as webchat_api, service
from appliance.webchat.schemas import WidgetCreateSchema, WidgetUpdateSchema

_ACTIVE = "console_pages.webchat"
_ASKED = ("optional", "required")


def _numbers(actor):
    return phone_numbers_service.list_phone_numbers(db_session(), actor=actor)


def _list_page(actor, error: AppError | None = None, values: dict | None = None):
    return render("console/webchat.html", actor, _ACTIVE, error=error, status=error.status if error else 200,
                  texts=WEBCHAT_TEXTS, widgets=service.list_widgets(db_session(), actor=actor), numbers=_numbers(actor),
                  values=values or {}, done=request.args.get("done"))


def _widget_page(actor, widget_id, error: AppError | None = None, secret: str | None = None, widget=None):
    widget = widget or service.access_widget(db_session(), actor=actor, widget_id=str(widget_id))
    return render("console/webchat_widget.html", actor, _ACTIVE, error=error, status=error.status if error else 200,
                  texts=WEBCHAT_TEXTS, widget=widget, numbers=_numbers(actor), secret=secret, no_store=secret is not None,
                  snippet=service.snippet(widget, public_address.base_url()),
                  preview_server=request.host_url.rstrip("/"), done=request.args.get("done"))


def _fields() -> dict:
    body = {"name": forms.text("name", 100),
            "allowedOrigins": [line.strip() for line in request.form.get("origins", "")[:6000].splitlines() if line.strip()],
            "greeting": request.form.get("greeting", "")[:500].strip() or None,
            "preChatFields": [{"field": field, "required": request.form.get(f"ask_{field}") == "required"}
                              for field in service.PRE_CHAT_FIELDS if request.form.get(f"ask_{field}") in _ASKED],
            "enforceIdentity": bool(request.form.get("enforceIdentity")),
            "offlineEmail": forms.optional("offlineEmail", 254)}
    if forms.text("phoneNumberId", 40):
        body["phoneNumberId"] = forms.text("phoneNumberId", 40)
    return body


@console_pages.get("/console/<uuid:org_id>/webchat")
@performs(webchat_api.Widgets.get)
@signed_in_page
def webchat(org_id):
    return _list_page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/webchat")
@performs(webchat_api.Widgets.post)
@signed_in_page
def webchat_create(org_id):
    actor = org_actor(org_id)
    body = _fields()
    try:
        widget, secret = service.do_create(db_session(), actor=actor, **check_form(WidgetCreateSchema(), body))
    except AppError as error:
        return _list_page(actor, error, body)
    return _widget_page(actor, widget.id, secret=secret, widget=widget)  # the secret, this once: not a redirect


@console_pages.get("/console/<uuid:org_id>/webchat/<uuid:widget_id>")
@performs(webchat_api.WidgetById.get)
@signed_in_page
def webchat_widget(org_id, widget_id):
    return _widget_page(org_actor(org_id), widget_id)


@console_pages.post("/console/<uuid:org_id>/webchat/<uuid:widget_id>")
@performs(webchat_api.WidgetById.patch)
@signed_in_page
def webchat_save(org_id, widget_id):
    actor = org_actor(org_id)
    return form_outcome(lambda: service.do_update(db_session(), actor=actor, widget_id=str(widget_id),
                                                  **check_form(WidgetUpdateSchema(), _fields())),
                        failed=lambda error: _widget_page(actor, widget_id, error),
                        done=lambda: back("console_pages.webchat_widget", "saved", org_id=actor.organization_id,
                                          widget_id=str(widget_id)))


@console_pages.post("/console/<uuid:org_id>/webchat/<uuid:widget_id>/secret")
@performs(webchat_api.WidgetSecret.post)
@signed_in_page
def webchat_secret(org_id, widget_id):
    actor = org_actor(org_id)
    widget, secret = service.do_rotate_secret(db_session(), actor=actor, widget_id=str(widget_id))
    return _widget_page(actor, widget_id, secret=secret, widget=widget)


@console_pages.post("/console/<uuid:org_id>/webchat/<uuid:widget_id>/delete")
@performs(webchat_api.WidgetById.delete)
@signed_in_page
def webchat_delete(org_id, widget_id):
    actor = org_actor(org_id)
    return form_outcome(lambda: service.do_delete(db_session(), actor=actor, widget_id=str(widget_id)),
                        failed=lambda error: _widget_page(actor, widget_id, error),
                        done=lambda: back(_ACTIVE, "deleted", org_id=actor.organization_id))
