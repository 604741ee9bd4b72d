"""/organizations/{orgId}/tags (put on conversations with POST /conversations/{id}/tags)"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.tags import schemas, service

blp = Blueprint("tags", __name__, url_prefix="/organizations/<uuid:org_id>/tags",
                description="Labels for conversations")


@blp.route("")
class Tags(MethodView):
    @blp.requires("conversations:read")
    @blp.response(200, schemas.TagSchema(many=True))
    def get(self, org_id):
        """List the organization's tags, by name"""
        return service.list_tags(db_session(), actor=current_org_actor())

    @blp.requires("conversations:write")
    @blp.arguments(schemas.TagCreateSchema)
    @blp.response(201, schemas.TagSchema)
    def post(self, body, org_id):
        """Create a tag (409 `tag_name_taken` if the name exists, case aside)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:tag_id>")
class TagById(MethodView):
    @blp.requires("conversations:write")
    @blp.arguments(schemas.TagUpdateSchema)
    @blp.response(200, schemas.TagSchema)
    def patch(self, body, org_id, tag_id):
        """Rename or recolor a tag"""
        return service.do_update(db_session(), actor=current_org_actor(), tag_id=str(tag_id), **body)

    @blp.requires("conversations:write")
    @blp.response(204)
    def delete(self, org_id, tag_id):
        """Delete a tag; it leaves every conversation"""
        service.do_delete(db_session(), actor=current_org_actor(), tag_id=str(tag_id))
