"""/organizations/{orgId}/quick-replies: canned answers with a shortcut."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.quick_replies import schemas, service

blp = Blueprint("quick_replies", __name__, url_prefix="/organizations/<uuid:org_id>/quick-replies",
                description="Canned answers the composer offers on /")


@blp.route("")
class QuickReplies(MethodView):
    @blp.requires("conversations:read")
    @blp.response(200, schemas.QuickReplySchema(many=True))
    def get(self, org_id):
        """Every quick reply, by shortcut"""
        return service.list_quick_replies(db_session(), actor=current_org_actor())

    @blp.requires("conversations:write")
    @blp.arguments(schemas.QuickReplyCreateSchema)
    @blp.response(201, schemas.QuickReplySchema)
    def post(self, body, org_id):
        """Create a quick reply (409 quick_reply_shortcut_taken: the shortcut exists, case aside)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:quick_reply_id>")
class QuickReplyById(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.QuickReplyUpdateSchema)
    @blp.response(200, schemas.QuickReplySchema)
    def patch(self, body, org_id, quick_reply_id):
        """Change a quick reply"""
        return service.do_update(db_session(), actor=current_org_actor(), quick_reply_id=str(quick_reply_id), **body)

    @blp.requires("conversations:write")
    @blp.response(204)
    def delete(self, org_id, quick_reply_id):
        """Delete a quick reply"""
        service.do_delete(db_session(), actor=current_org_actor(), quick_reply_id=str(quick_reply_id))
