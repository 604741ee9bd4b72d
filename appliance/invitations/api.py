"""/organizations/{orgId}/invitations and /invitations/{token}/accept"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_actor, current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.invitations import schemas, service
from appliance.memberships import service as memberships_service
from appliance.memberships.schemas import MembershipSchema

blp = Blueprint("invitations", __name__, url_prefix="/organizations/<uuid:org_id>/invitations",
                description="Invitations to join an organization")


@blp.route("")
class Invitations(MethodView):
    @blp.requires("members:read")
    @blp.response(200, schemas.InvitationSchema(many=True))
    def get(self, org_id):
        """List pending invitations"""
        return service.list_invitations(db_session(), actor=current_org_actor())

    @blp.requires("members:write")
    @blp.arguments(schemas.InvitationCreateSchema)
    @blp.response(201, schemas.InvitationSchema)
    def post(self, body, org_id):
        """Invite someone by email with a role; they get a link by mail"""
        return service.check_invite(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:invitation_id>")
class InvitationById(MethodView):
    @blp.requires("members:write")
    @blp.response(204)
    def delete(self, org_id, invitation_id):
        """Revoke a pending invitation"""
        service.do_revoke(db_session(), actor=current_org_actor(), invitation_id=str(invitation_id))


accept_blp = Blueprint("invitation", __name__, url_prefix="/invitations", description="Invitations to join an organization")


@accept_blp.route("/<string:token>/accept")
class AcceptInvitation(MethodView):
    @accept_blp.response(201, MembershipSchema)
    def post(self, token):
        """Accept an invitation, signed in with the invited email"""
        session = db_session()
        membership = service.check_accept(session, actor=current_actor(), token=token[:200])
        return memberships_service.member_view(session, membership)
