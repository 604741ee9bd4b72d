"""/organizations/{orgId}/broadcasts: template campaigns to contact lists."""

from flask.views import MethodView

from appliance.broadcasts import schemas, service
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("broadcasts", __name__, url_prefix="/organizations/<uuid:org_id>/broadcasts",
                description="Template campaigns to contact lists, paced to the number's tier")


@blp.route("")
class Broadcasts(MethodView):
    @blp.requires("broadcasts:read")
    @blp.arguments(schemas.BroadcastArgsSchema, location="query")
    @blp.response(200, schemas.BroadcastPageSchema)
    def get(self, args, org_id):
        """Broadcasts, newest first, each with its counts"""
        return service.list_broadcasts(db_session(), actor=current_org_actor(), **args)

    @blp.requires("broadcasts:write")
    @blp.arguments(schemas.BroadcastCreateSchema)
    @blp.response(201, schemas.BroadcastSchema)
    def post(self, body, org_id):
        """Create a broadcast: now, or at scheduledAt"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:broadcast_id>")
class BroadcastById(MethodView):
    @blp.requires("broadcasts:read")
    @blp.response(200, schemas.BroadcastSchema)
    def get(self, org_id, broadcast_id):
        """One broadcast with its live counts {total, sent, delivered, read, failed, replied, ...}"""
        return service.get_broadcast(db_session(), actor=current_org_actor(), broadcast_id=str(broadcast_id))


@blp.route("/<uuid:broadcast_id>/recipients")
class Recipients(MethodView):
    @blp.requires("broadcasts:read")
    @blp.arguments(schemas.RecipientArgsSchema, location="query")
    @blp.response(200, schemas.RecipientPageSchema)
    def get(self, args, org_id, broadcast_id):
        """Recipients in the audience's order; filter replied, read, delivered, sent, failed, pending, skipped"""
        return service.list_recipients(db_session(), actor=current_org_actor(), broadcast_id=str(broadcast_id), **args)


@blp.route("/<uuid:broadcast_id>/cancel")
class Cancel(MethodView):
    @blp.requires("broadcasts:write")
    @blp.response(200, schemas.BroadcastSchema)
    def post(self, org_id, broadcast_id):
        """Stop sending: waiting recipients are skipped (cancelled), queued messages fail with -5"""
        return service.do_cancel(db_session(), actor=current_org_actor(), broadcast_id=str(broadcast_id))


@blp.route("/<uuid:broadcast_id>/resume")
class Resume(MethodView):
    @blp.requires("broadcasts:write")
    @blp.response(200, schemas.BroadcastSchema)
    def post(self, org_id, broadcast_id):
        """Carry on with a paused broadcast"""
        return service.do_resume(db_session(), actor=current_org_actor(), broadcast_id=str(broadcast_id))


@blp.route("/<uuid:broadcast_id>/retry-failed")
class RetryFailed(MethodView):
    @blp.requires("broadcasts:write")
    @blp.response(200, schemas.RetrySchema)
    def post(self, org_id, broadcast_id):
        """Send every failed recipient again, in place (a new message each), whatever the error's code"""
        return service.do_retry_failed(db_session(), actor=current_org_actor(), broadcast_id=str(broadcast_id))
