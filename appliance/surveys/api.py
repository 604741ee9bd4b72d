"""/organizations/{orgId}/surveys: the CSAT survey's settings and its results."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.surveys import results, schemas, service

blp = Blueprint("surveys", __name__, url_prefix="/organizations/<uuid:org_id>/surveys",
                description="CSAT surveys: asked after a conversation closes")


@blp.route("/config")
class SurveyConfig(MethodView):
    @blp.requires("surveys:read")
    @blp.response(200, schemas.SurveyConfigSchema)
    def get(self, org_id):
        """The survey's settings (the defaults, inactive, until saved)"""
        return service.config_of(db_session(), current_org_actor().organization_id)

    @blp.requires("surveys:write")
    @blp.arguments(schemas.SurveyConfigPatchSchema)
    @blp.response(200, schemas.SurveyConfigSchema)
    def patch(self, body, org_id):
        """Change them (partial)"""
        return service.do_update(db_session(), actor=current_org_actor(), **body)


@blp.route("/results")
class SurveyResults(MethodView):
    @blp.requires("surveys:read")
    @blp.arguments(schemas.SurveyResultsArgsSchema, location="query")
    @blp.response(200, schemas.SurveyResultsSchema)
    def get(self, args, org_id):
        """Sent, answered, the average score, every option's count, each agent's, comments and why others were not sent"""
        return results.results(db_session(), actor=current_org_actor(), **args)
