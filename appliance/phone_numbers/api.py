"""/organizations/{orgId}/phone-numbers: the numbers, their business profiles, coexistence sync"""

from flask.views import MethodView

from appliance.http.api import Blueprint, takes_upload, uploaded_file
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers import network, schemas, service

blp = Blueprint("phone_numbers", __name__, url_prefix="/organizations/<uuid:org_id>/phone-numbers",
                description="Business phone numbers of the connected accounts")


@blp.route("")
class PhoneNumbers(MethodView):
    @blp.requires("phone-numbers:read")
    @blp.response(200, schemas.PhoneNumberSchema(many=True))
    def get(self, org_id):
        """List phone numbers (a key restricted to some numbers sees only those)"""
        return service.list_phone_numbers(db_session(), actor=current_org_actor())


@blp.route("/<uuid:phone_pk>")
class PhoneNumberById(MethodView):
    @blp.requires("phone-numbers:read")
    @blp.response(200, schemas.PhoneNumberSchema)
    def get(self, org_id, phone_pk):
        """Read one phone number"""
        return service.access_phone_number(db_session(), actor=current_org_actor(), phone_pk=str(phone_pk))

    @blp.requires("phone-numbers:write")
    @blp.arguments(schemas.PhoneNumberUpdateSchema)
    @blp.response(200, schemas.PhoneNumberSchema)
    def patch(self, body, org_id, phone_pk):
        """Set the number's sending pace (messages per second)"""
        return service.do_update(db_session(), actor=current_org_actor(), phone_pk=str(phone_pk), **body)


@blp.route("/<uuid:phone_pk>/profile")
class BusinessProfile(MethodView):
    @blp.requires("phone-numbers:read")
    @blp.response(200, schemas.BusinessProfileSchema)
    def get(self, org_id, phone_pk):
        """The number's business profile, as the network has it"""
        return network.get_profile(actor=current_org_actor(), phone_pk=str(phone_pk))

    @blp.requires("phone-numbers:write")
    @blp.arguments(schemas.BusinessProfileUpdateSchema)
    @blp.response(200, schemas.BusinessProfileSchema)
    def put(self, body, org_id, phone_pk):
        """Change fields of the business profile (the others stay)"""
        return network.update_profile(actor=current_org_actor(), phone_pk=str(phone_pk), **body)


@blp.route("/<uuid:phone_pk>/profile/picture")
class BusinessProfilePicture(MethodView):
    @blp.requires("phone-numbers:write")
    @blp.response(201, schemas.BusinessProfileSchema)
    @takes_upload(max_bytes=network.MAX_PICTURE_BYTES, content_types=("image/jpeg", "image/png"),
                  description="JPG or PNG, at most 5 MB")
    def post(self, org_id, phone_pk):
        """Set the profile picture"""
        content, _, _ = uploaded_file()
        return network.set_profile_picture(actor=current_org_actor(), phone_pk=str(phone_pk), content=content)


@blp.route("/<uuid:phone_pk>/coexistence/sync")
class CoexistenceSync(MethodView):
    @blp.requires("phone-numbers:write")
    @blp.response(201, schemas.PhoneNumberSchema)
    def post(self, org_id, phone_pk):
        """Ask for the WhatsApp Business app's contacts of a coexistence number (they arrive by webhook)"""
        return network.check_coexistence_sync(db_session(), actor=current_org_actor(), phone_pk=str(phone_pk))
