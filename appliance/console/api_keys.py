"""API keys: create with scopes and numbers (the secret shown once, with a copy button), when each
was last used, revoke."""

from __future__ import annotations

from flask import request

from appliance.api_keys import service as api_keys_service
from appliance.api_keys import api as api_keys_api
from appliance.api_keys.schemas import ApiKeyCreateSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.core.errors import AppError
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs, permission_of
from appliance.http.pages import check_form, page_language
from appliance.http.unit_of_work import db_session
from appliance.permissions import service as permissions_service
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers import api as phone_numbers_api

_PAGE, _ACTIVE = "console/api_keys.html", "console_pages.api_keys"


def _scopes() -> list[dict]:
    lang = page_language()
    return [{"key": p.key, "description": p.description.get(lang) or p.description.get("en", p.key)}
            for p in permissions_service.list_permissions() if p.api_key_scope]


def _page(actor, error: AppError | None = None, created=None):
    session = db_session()
    context = {"keys": api_keys_service.list_keys(session, actor=actor), "scopes": _scopes(),
               "numbers": phone_numbers_service.list_phone_numbers(session, actor=actor)
               if actor.can(permission_of(phone_numbers_api.PhoneNumbers.get)) else [],
               "created": created, "done": request.args.get("done"),
               "values": {"name": request.form.get("name", "")[:100], "scopes": forms.checked("scopes"),
                          "numbers": forms.checked("phone_number_pks")}}
    return render(_PAGE, actor, _ACTIVE, error=error, no_store=created is not None, **context)


@console_pages.get("/console/<uuid:org_id>/api-keys")
@performs(api_keys_api.ApiKeys.get)
@signed_in_page
def api_keys(org_id):
    return _page(org_actor(org_id))


@console_pages.post("/console/<uuid:org_id>/api-keys")
@performs(api_keys_api.ApiKeys.post)
@signed_in_page
def api_keys_create(org_id):
    """The answer is the page itself (not a redirect): the secret is shown this once."""
    actor = org_actor(org_id)
    try:
        fields = check_form(ApiKeyCreateSchema(), {"name": forms.text("name", 200), "scopes": forms.checked("scopes"),
                                                   "phoneNumberIds": forms.checked("phone_number_pks")})
        created = api_keys_service.check_create_key(db_session(), actor=actor, **fields)
    except AppError as error:
        return _page(actor, error)
    return _page(actor, created=created)


@console_pages.post("/console/<uuid:org_id>/api-keys/<uuid:key_id>/revoke")
@performs(api_keys_api.ApiKeyById.delete)
@signed_in_page
def api_keys_revoke(org_id, key_id):
    actor = org_actor(org_id)
    api_keys_service.do_revoke_key(db_session(), actor=actor, key_id=str(key_id))
    return back(_ACTIVE, "revoked", org_id=actor.organization_id)
