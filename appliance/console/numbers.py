"""One WhatsApp number: its state (status, quality, throughput, coexistence) and its business
profile as customers see it in WhatsApp (about, description, address, email, industry, websites and
the picture), edited through the services the API uses. The profile lives on the network: a network
that does not answer leaves the page up, saying so, with the profile form away."""

from __future__ import annotations

from flask import request

from appliance.business_profiles import service as profiles_service
from appliance.business_profiles import api as business_profiles_api
from appliance.business_profiles.schemas import VERTICALS, BusinessProfileUpdateSchema
from appliance.console import forms
from appliance.console.common import back, console_pages, org_actor, render
from appliance.console.texts_numbers import NUMBER_TEXTS
from appliance import sandbox
from appliance.core import runtime
from appliance.core.errors import AppError, Invalid
from appliance.http.api import takes_upload, uploaded_file
from appliance.http.browser import signed_in_page
from appliance.http.operations import performs
from appliance.http.pages import check_form
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers import api as phone_numbers_api

_PAGE, _ACTIVE = "console/number.html", "console_pages.whatsapp"
WEBSITES = 2


def _number_page(actor, number_id: str, error: AppError | None = None):
    number = phone_numbers_service.access_phone_number(db_session(), actor=actor, phone_number_pk=number_id)
    profile, unreachable = None, None
    try:
        profile = profiles_service.get_profile(actor=actor, phone_number_pk=number_id)
    except AppError as network_error:  # the page stands without the network; the form waits for it
        unreachable = network_error
    if error is not None and profile is not None and "about" in request.form:  # what was typed, not stored
        profile = {**profile, **{name: request.form.get(name, "")[:600] for name in
                                 ("about", "address", "description", "email", "vertical")},
                   "websites": request.form.getlist("websites")[:WEBSITES]}
    websites = list((profile or {}).get("websites") or [])[:WEBSITES]
    picture = sandbox.same_origin((profile or {}).get("profile_picture_url") or "", runtime.get().settings)
    return render(_PAGE, actor, _ACTIVE, error=error, texts=NUMBER_TEXTS, number=number, profile=profile, unreachable=unreachable,
                  websites=websites + [""] * (WEBSITES - len(websites)), picture=picture, verticals=VERTICALS,
                  max_picture_megabytes=profiles_service.MAX_PICTURE_BYTES // (1024 * 1024),
                  done=request.args.get("done"))


@console_pages.get("/console/<uuid:org_id>/whatsapp/numbers/<uuid:number_id>")
@performs(phone_numbers_api.PhoneNumberById.get)
@signed_in_page
def number(org_id, number_id):
    return _number_page(org_actor(org_id), str(number_id))


@console_pages.post("/console/<uuid:org_id>/whatsapp/numbers/<uuid:number_id>")
@performs(business_profiles_api.BusinessProfile.put)
@signed_in_page
def number_profile_save(org_id, number_id):
    """Every field is sent as it stands in the form, so emptying one clears it on the network."""
    actor = org_actor(org_id)
    try:
        fields = check_form(BusinessProfileUpdateSchema(), {
            "about": forms.text("about", 200), "address": forms.text("address", 300),
            "description": request.form.get("description", "")[:600].strip(), "email": forms.text("email", 200),
            "vertical": forms.text("vertical", 40),
            "websites": [site[:300].strip() for site in request.form.getlist("websites")[:WEBSITES] if site.strip()]})
        profiles_service.update_profile(actor=actor, phone_number_pk=str(number_id), **fields)
    except AppError as error:
        return _number_page(actor, str(number_id), error)
    return back("console_pages.number", "profile_saved", org_id=actor.organization_id, number_id=number_id)


@console_pages.post("/console/<uuid:org_id>/whatsapp/numbers/<uuid:number_id>/picture")
@performs(business_profiles_api.BusinessProfilePicture.post)
@takes_upload(max_bytes=profiles_service.MAX_PICTURE_BYTES, content_types=("image/jpeg", "image/png"))
@signed_in_page
def number_picture(org_id, number_id):
    actor = org_actor(org_id)
    try:
        content = uploaded_file().read()  # ≤ 5 MB, sent to the network in one piece
        if not content:
            raise Invalid("Choose a JPG or PNG picture.", code="file_missing",
                          errors={"file": ["Choose a JPG or PNG picture."]})
        profiles_service.set_profile_picture(actor=actor, phone_number_pk=str(number_id), content=content)
    except AppError as error:
        return _number_page(actor, str(number_id), error)
    return back("console_pages.number", "picture_saved", org_id=actor.organization_id, number_id=number_id)


@console_pages.post("/console/<uuid:org_id>/whatsapp/numbers/<uuid:number_id>/coexistence-sync")
@performs(business_profiles_api.CoexistenceSync.post)
@signed_in_page
def number_coexistence_sync(org_id, number_id):
    actor = org_actor(org_id)
    try:
        profiles_service.check_coexistence_sync(db_session(), actor=actor, phone_number_pk=str(number_id))
    except AppError as error:
        return _number_page(actor, str(number_id), error)
    return back("console_pages.number", "coexistence_sync_requested", org_id=actor.organization_id,
                number_id=number_id)
