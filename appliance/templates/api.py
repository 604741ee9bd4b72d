"""/organizations/{orgId}/templates"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.templates import schemas, service

blp = Blueprint("templates", __name__, url_prefix="/organizations/<uuid:org_id>/templates",
                description="Message templates of the connected business accounts")


@blp.route("")
class Templates(MethodView):
    @blp.requires("templates:read")
    @blp.arguments(schemas.TemplateArgsSchema, location="query")
    @blp.response(200, schemas.TemplatePageSchema)
    def get(self, args, org_id):
        """List templates as last synced, by name (cursor-paginated)"""
        return service.list_templates(db_session(), actor=current_org_actor(), **args)

    @blp.requires("templates:write")
    @blp.arguments(schemas.TemplateCreateSchema)
    @blp.response(201, schemas.TemplateSchema)
    def post(self, body, org_id):
        """Create a template: checked here, sent to the network for review (status PENDING)"""
        return service.check_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/sync")
class TemplateSync(MethodView):
    @blp.requires("templates:write")
    @blp.arguments(schemas.TemplateSyncSchema, required=False)  # no body: every account
    @blp.response(200, schemas.SyncSummarySchema)
    def post(self, body, org_id):
        """Read the templates of the business accounts from the network and update the local copies"""
        return service.check_sync(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:template_pk>")
class TemplateById(MethodView):
    @blp.requires("templates:read")
    @blp.response(200, schemas.TemplateSchema)
    def get(self, org_id, template_pk):
        """Read one template"""
        return service.access_template(db_session(), actor=current_org_actor(), template_pk=str(template_pk))
