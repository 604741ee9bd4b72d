"""/organizations/{orgId}/phone-numbers/{id}/profile and /coexistence/sync: what a number keeps on
the network (shown with the phone numbers in the OpenAPI document)."""

from flask.views import MethodView

from appliance.business_profiles import schemas, service
from appliance.http.api import Blueprint, takes_upload, uploaded_file
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers.schemas import PhoneNumberSchema

blp = Blueprint("business_profiles", __name__, url_prefix="/organizations/<uuid:org_id>/phone-numbers",
                description="A number's business profile and coexistence sync, on the network",
                shown_with="phone_numbers")


@blp.route("/<uuid:phone_number_pk>/profile")
class BusinessProfile(MethodView):
    @blp.requires("phone-numbers:read")
    @blp.response(200, schemas.BusinessProfileSchema)
    def get(self, org_id, phone_number_pk):
        """The number's business profile, as the network has it"""
        return service.get_profile(actor=current_org_actor(), phone_number_pk=str(phone_number_pk))

    @blp.requires("phone-numbers:write")
    @blp.arguments(schemas.BusinessProfileUpdateSchema)
    @blp.response(200, schemas.BusinessProfileSchema)
    def put(self, body, org_id, phone_number_pk):
        """Change fields of the business profile (the others stay)"""
        return service.update_profile(actor=current_org_actor(), phone_number_pk=str(phone_number_pk), **body)


@blp.route("/<uuid:phone_number_pk>/profile/picture")
class BusinessProfilePicture(MethodView):
    @blp.requires("phone-numbers:write")
    @blp.response(201, schemas.BusinessProfileSchema)
    @takes_upload(max_bytes=service.MAX_PICTURE_BYTES, content_types=("image/jpeg", "image/png"),
                  description="JPG or PNG, at most 5 MB")
    def post(self, org_id, phone_number_pk):
        """Set the profile picture"""
        return service.set_profile_picture(actor=current_org_actor(), phone_number_pk=str(phone_number_pk),
                                           content=uploaded_file().read())  # ≤ 5 MB, sent in one piece


@blp.route("/<uuid:phone_number_pk>/coexistence/sync")
class CoexistenceSync(MethodView):
    @blp.requires("phone-numbers:write")
    @blp.response(201, PhoneNumberSchema)
    def post(self, org_id, phone_number_pk):
        """Ask for the WhatsApp Business app's contacts of a coexistence number (they arrive by webhook)"""
        return service.check_coexistence_sync(db_session(), actor=current_org_actor(),
                                              phone_number_pk=str(phone_number_pk))
