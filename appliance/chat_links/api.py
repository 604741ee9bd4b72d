"""/organizations/{orgId}/chatapp-links: chat links with their QR codes and statistics."""

from flask import Response
from flask.views import MethodView

from appliance.chat_links import schemas, service
from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session

blp = Blueprint("chatapp_links", __name__, url_prefix="/organizations/<uuid:org_id>/chatapp-links",
                description="Chat links: short addresses that open a WhatsApp chat, with QR codes and clicks")


@blp.route("")
class Links(MethodView):
    @blp.requires("links:read")
    @blp.arguments(schemas.ChatLinkArgsSchema, location="query")
    @blp.response(200, schemas.ChatLinkSchema(many=True))
    def get(self, args, org_id):
        """The organization's chat links, newest first (archived ones with includeArchived)"""
        return service.list_links(db_session(), actor=current_org_actor(), **args)

    @blp.requires("links:write")
    @blp.arguments(schemas.ChatLinkCreateSchema)
    @blp.response(201, schemas.ChatLinkSchema)
    def post(self, body, org_id):
        """Make a chat link for one of the organization's numbers"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:link_id>")
class LinkById(MethodView):
    @blp.requires("links:read")
    @blp.response(200, schemas.ChatLinkSchema)
    def get(self, org_id, link_id):
        """One chat link"""
        return service.access_link(db_session(), actor=current_org_actor(), link_id=str(link_id))

    @blp.requires("links:write")
    @blp.arguments(schemas.ChatLinkUpdateSchema)
    @blp.response(200, schemas.ChatLinkSchema)
    def patch(self, body, org_id, link_id):
        """Change its name, campaign tag, prefilled message or metadata"""
        return service.do_update(db_session(), actor=current_org_actor(), link_id=str(link_id), **body)

    @blp.requires("links:write")
    @blp.response(200, schemas.ChatLinkSchema)
    def delete(self, org_id, link_id):
        """Archive it (its address answers 404), or bring it back if archived"""
        return service.do_toggle_archived(db_session(), actor=current_org_actor(), link_id=str(link_id))


@blp.route("/<uuid:link_id>/stats")
class LinkStats(MethodView):
    @blp.requires("links:read")
    @blp.response(200, schemas.ChatLinkStatsSchema)
    def get(self, org_id, link_id):
        """Clicks, unique visitors, per day and referring site, and the conversations it started"""
        return service.stats(db_session(), actor=current_org_actor(), link_id=str(link_id))


@blp.route("/<uuid:link_id>/qr")
class LinkQr(MethodView):
    @blp.requires("links:read")
    @blp.arguments(schemas.ChatLinkQrArgsSchema, location="query")
    @blp.doc(responses={"200": {"description": "The image", "content": {
        "image/png": {"schema": {"type": "string", "format": "binary"}},
        "image/svg+xml": {"schema": {"type": "string"}}}}})
    def get(self, args, org_id, link_id):
        """The QR code of its short address: PNG (default) or SVG, size 64 to 2048 pixels (512)"""
        data, mimetype = service.qr(db_session(), actor=current_org_actor(), link_id=str(link_id), **args)
        return Response(data, mimetype=mimetype, headers={"Cache-Control": "private, max-age=300"})
