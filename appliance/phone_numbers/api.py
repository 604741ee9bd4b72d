"""/organizations/{orgId}/phone-numbers: the numbers (their business profiles and coexistence sync:
appliance/business_profiles)"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.phone_numbers import schemas, service

blp = Blueprint("phone_numbers", __name__, url_prefix="/organizations/<uuid:org_id>/phone-numbers",
                description="Business phone numbers of the connected accounts")


@blp.route("")
class PhoneNumbers(MethodView):
    @blp.requires("phone-numbers:read")
    @blp.response(200, schemas.PhoneNumberSchema(many=True))
    def get(self, org_id):
        """List phone numbers (a key restricted to some numbers sees only those)"""
        return service.list_phone_numbers(db_session(), actor=current_org_actor())


@blp.route("/<uuid:phone_number_pk>")
class PhoneNumberById(MethodView):
    @blp.requires("phone-numbers:read")
    @blp.response(200, schemas.PhoneNumberSchema)
    def get(self, org_id, phone_number_pk):
        """Read one phone number"""
        return service.access_phone_number(db_session(), actor=current_org_actor(), phone_number_pk=str(phone_number_pk))

    @blp.requires("phone-numbers:write")
    @blp.arguments(schemas.PhoneNumberUpdateSchema)
    @blp.response(200, schemas.PhoneNumberSchema)
    def patch(self, body, org_id, phone_number_pk):
        """Set the number's sending pace (messages per second)"""
        return service.do_update(db_session(), actor=current_org_actor(), phone_number_pk=str(phone_number_pk), **body)
