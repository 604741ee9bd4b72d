"""/organizations/{orgId}/memberships"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_actor, current_org_actor
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


@blp.route("/<uuid:membership_id>")
class MembershipById(MethodView):
    @blp.requires("members:write")
    @blp.arguments(schemas.SetRoleSchema)
    @blp.response(200, schemas.MembershipSchema)
    def patch(self, body, org_id, membership_id):
        """Give a member another role"""
        return service.check_set_role(db_session(), actor=current_org_actor(),
                                      membership_id=str(membership_id), **body)

    @blp.requires("members:write")
    @blp.response(204)
    def delete(self, org_id, membership_id):
        """Remove a member from the organization"""
        service.check_remove_member(db_session(), actor=current_org_actor(), membership_id=str(membership_id))


@blp.route("/<uuid:membership_id>/waba-scope")
class MembershipWabaScope(MethodView):
    @blp.requires("members:write")
    @blp.arguments(schemas.SetWabaScopeSchema)
    @blp.response(200, schemas.MembershipSchema)
    def put(self, body, org_id, membership_id):
        """Limit the business accounts a member sees (empty list: all)"""
        return service.check_set_waba_scope(db_session(), actor=current_org_actor(),
                                            membership_id=str(membership_id), **body)


# Routes about a membership without the organization in the path: the service finds the
# organization from the membership and checks the permission there.
member_blp = Blueprint("membership", __name__, url_prefix="/memberships", description="Members of an organization")


@member_blp.route("/<uuid:membership_id>/suspension")
class MembershipSuspension(MethodView):
    @member_blp.doc(**{"x-permission": "members:write"})
    @member_blp.arguments(schemas.MembershipSuspensionSchema)
    @member_blp.response(200, schemas.MembershipSchema)
    def patch(self, body, membership_id):
        """Suspend or reactivate a member (access ends at once; the membership stays)"""
        return service.check_set_suspension(db_session(), actor=current_actor(),
                                            membership_id=str(membership_id), **body)


@member_blp.route("/me/preferences")
class MyPreferences(MethodView):
    @member_blp.arguments(schemas.PreferencesSchema)
    @member_blp.response(200, schemas.MembershipSchema)
    def patch(self, body):
        """Update my interface preferences in one organization (merged; null removes a key)"""
        return service.check_update_preferences(db_session(), actor=current_actor(), **body)
