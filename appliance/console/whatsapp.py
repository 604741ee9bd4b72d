"""WhatsApp: connect a business account as a checklist (what to paste into Meta: the callback URL
and the organization's verify token, ✓ once Meta verified it; the account's credentials; Meta's
deliveries), its numbers with status, quality and throughput, disconnect and re-subscribe. After the
first run it also welcomes the owner with the two ways on: connect, or try the sandbox."""

from __future__ import annotations

from flask import request

from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.core import runtime
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs, permission_of
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers import api as phone_numbers_api
from appliance.wabas import service as wabas_service, webhook_setup
from appliance.wabas import api as wabas_api
from appliance.wabas.schemas import BusinessAccountConnectSchema

_PAGE, _ACTIVE = "console/whatsapp.html", "console_pages.whatsapp"


def _setup(session, actor):
    """The checklist's first step, for who may connect (the token is made the first time)."""
    if not actor.can(permission_of(wabas_api.WebhookSetup.get)):
        return None
    if request.method == "GET":
        return webhook_setup.read_or_make(runtime.get().db, actor=actor)
    return webhook_setup.do_read(session, actor=actor)  # a form's answer: its unit writes already


def _page(actor, error: AppError | None = None):
    session = db_session()
    settings = runtime.get().settings
    accounts = wabas_service.list_wabas(session, actor=actor)
    numbers = phone_numbers_service.list_phone_numbers(session, actor=actor) if actor.can(permission_of(phone_numbers_api.PhoneNumbers.get)) else []
    context = {"accounts": [{"account": a, "numbers": [n for n in numbers if n.waba_pk == a.id]} for a in accounts],
               "setup": _setup(session, actor),
               "sandbox_mode": settings.sandbox, "welcome": bool(request.args.get("welcome")),
               "done": request.args.get("done"),
               "values": {"waba_id": request.form.get("waba_id", "")[:40], "name": request.form.get("name", "")[:100]}}
    return render(_PAGE, actor, _ACTIVE, error=error, **context)


@console_pages.get("/console/<uuid:org_id>/whatsapp")
@performs(wabas_api.BusinessAccounts.get)
@signed_in_page
def whatsapp(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/whatsapp")
@performs(wabas_api.BusinessAccounts.post)
@signed_in_page
def whatsapp_connect(org_id):
    """Connecting asks the network for the account's numbers first: a wrong id or token is said
    here, next to the field, before anything is stored."""
    actor = org_actor(org_id)
    try:
        fields = check_form(BusinessAccountConnectSchema(), {
            "wabaId": forms.text("waba_id", 40), "accessToken": request.form.get("access_token", "").strip()[:4000],
            "appSecret": request.form.get("app_secret", "").strip()[:500],
            **({"name": forms.text("name", 100)} if forms.text("name", 100) else {}),
            **({"pin": forms.text("pin", 20)} if forms.text("pin", 20) else {})})
        wabas_service.check_connect(db_session(), actor=actor, **fields)
    except AppError as error:
        return _page(actor, error)
    return back(_ACTIVE, "connected", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/whatsapp/<uuid:waba_pk>/disconnect")
@performs(wabas_api.BusinessAccountById.delete)
@signed_in_page
def whatsapp_disconnect(org_id, waba_pk):
    actor = org_actor(org_id)
    wabas_service.do_disconnect(db_session(), actor=actor, waba_pk=str(waba_pk))
    return back(_ACTIVE, "disconnected", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/whatsapp/<uuid:waba_pk>/resubscribe")
@performs(wabas_api.Resubscribe.post)
@signed_in_page
def whatsapp_resubscribe(org_id, waba_pk):
    actor = org_actor(org_id)
    try:
        wabas_service.check_resubscribe(db_session(), actor=actor, waba_pk=str(waba_pk))
    except AppError as error:
        return _page(actor, error)
    return back(_ACTIVE, "resubscribed", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/whatsapp/webhook-setup/rotate")
@performs(wabas_api.WebhookSetupRotate.post)
@signed_in_page
def whatsapp_rotate_token(org_id):
    actor = org_actor(org_id)
    webhook_setup.do_rotate(db_session(), actor=actor)
    return back(_ACTIVE, "token_rotated", org_id=actor.organization_id)


@console_pages.post("/console/<uuid:org_id>/whatsapp/test-message")
@performs(wabas_api.BusinessAccounts.post)  # the last step of connecting an account
@signed_in_page
def whatsapp_test_message(org_id):
    """The checklist's last step: a test message to the person's own phone, from a connected number."""
    actor = org_actor(org_id)
    try:
        wabas_service.check_send_test(actor=actor, phone_number_pk=request.form.get("phone_number_id", "")[:36],
                                      to=request.form.get("to", "")[:40])
    except AppError as error:
        return _page(actor, error)
    return back(_ACTIVE, "test_sent", org_id=actor.organization_id)
