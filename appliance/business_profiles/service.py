"""What a business number keeps on the network: its business profile (read, update, picture) and,
for coexistence numbers, the sync of the WhatsApp Business app's contacts.

The number is read in a reading unit and the network called without any write lock held; the
profile lives on the network (nothing is copied here)."""

from __future__ import annotations

from sqlmodel import Session

from appliance.core import clock, events
from appliance.core.actor import OrgActor
from appliance.core.errors import Conflict, Invalid
from appliance.graph_api.client import GraphError
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas import service as wabas_service
from appliance.wabas.network import as_app_error, graph_client

PROFILE_FIELDS = ("about", "address", "description", "email", "vertical", "websites", "profile_picture_url")
MAX_PICTURE_BYTES = 5 * 1024 * 1024
_PICTURE_TYPES = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG\r\n\x1a\n", "image/png"))


def _profile(token: str, number: PhoneNumber) -> dict:
    answer = graph_client().get_business_profile(token, number.phone_number_id)
    profile = {name: answer.get(name) for name in PROFILE_FIELDS}
    profile["websites"] = list(profile["websites"] or [])
    return profile


def get_profile(*, actor: OrgActor, phone_number_pk: str) -> dict:
    number, token = wabas_service.access_number_with_token(actor, phone_number_pk)
    try:
        return _profile(token, number)
    except GraphError as error:
        raise as_app_error(error, what="when reading the business profile") from None


def update_profile(*, actor: OrgActor, phone_number_pk: str, **changes) -> dict:
    """Send the changed fields to the network; answers the profile as it now reads."""
    number, token = wabas_service.access_number_with_token(actor, phone_number_pk)
    try:
        graph_client().update_business_profile(token, number.phone_number_id, changes)
        return _profile(token, number)
    except GraphError as error:
        raise as_app_error(error, what="when updating the business profile") from None


def picture_type(content: bytes) -> str:
    """The image's type by its first bytes (never by what the upload claims): JPEG or PNG only."""
    for magic, mime_type in _PICTURE_TYPES:
        if content.startswith(magic):
            return mime_type
    raise Invalid("The picture must be a JPG or PNG image.", code="unsupported_picture_type",
                  errors={"file": ["Not a JPG or PNG image."]})


def set_profile_picture(*, actor: OrgActor, phone_number_pk: str, content: bytes) -> dict:
    mime_type = picture_type(content)
    if len(content) > MAX_PICTURE_BYTES:  # the route's upload bound says the same; this is the rule
        raise Invalid("The picture is larger than 5 MB.", code="picture_too_large")
    number, token = wabas_service.access_number_with_token(actor, phone_number_pk)
    try:
        handle = graph_client().upload_profile_picture(token, content, mime_type)
        graph_client().update_business_profile(token, number.phone_number_id, {"profile_picture_handle": handle})
        return _profile(token, number)
    except GraphError as error:
        raise as_app_error(error, what="when setting the profile picture") from None


def check_coexistence_sync(session: Session, *, actor: OrgActor, phone_number_pk: str) -> PhoneNumber:
    """Ask the network for the WhatsApp Business app's contacts of a coexistence number; they arrive
    as `smb_app_state_sync` webhooks and become (or name) contacts."""
    number, token = wabas_service.access_number_with_token(actor, phone_number_pk)
    if not number.coexistence:
        raise Conflict("This number is not shared with the WhatsApp Business app (coexistence).",
                       code="not_coexistence_number")
    try:
        answer = graph_client().request_coexistence_sync(token, number.phone_number_id, "smb_app_state_sync")
    except GraphError as error:
        raise as_app_error(error, what="when requesting the Business app's contacts") from None
    number = session.merge(number)
    number.coexistence_sync_requested_at = number.updated_at = clock.now()
    session.add(number)
    events.emit(session, events.PHONE_NUMBER_COEXISTENCE_SYNC_REQUESTED, organization_id=number.organization_id,
                phoneNumberId=number.id, requestId=str(answer.get("request_id") or ""))
    return number
