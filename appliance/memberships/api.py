"""/organizations/{orgId}/memberships"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.memberships import schemas, service

blp = Blueprint("memberships", __name__, url_prefix="/organizations/<uuid:org_id>/memberships",
                description="Members of an organization")


@blp.route("")
class Memberships(MethodView):
    @blp.requires("members:read")
    @blp.response(200, schemas.MembershipSchema(many=True))
    def get(self, org_id):
        """List the members with their role and business-account scope"""
        return service.list_members(db_session(), actor=current_org_actor())


@blp.route("/me")
class MyMembership(MethodView):
    @blp.requires("organizations:read")
    @blp.response(200, schemas.MembershipSchema)
    def get(self, org_id):
        """My own membership in this organization"""
        return service.get_my_membership(db_session(), actor=current_org_actor())
