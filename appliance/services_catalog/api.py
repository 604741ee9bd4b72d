"""/organizations/{orgId}/bot/servicios: the services catalog."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.services_catalog import schemas, service

blp = Blueprint("bot_services", __name__, url_prefix="/organizations/<uuid:org_id>/bot/servicios",
                description="The services catalog: what the business offers and its prices")


@blp.route("")
class Services(MethodView):
    @blp.requires("bot:read")
    @blp.response(200, schemas.ServiceSchema(many=True))
    def get(self, org_id):
        """Every service, by `orden` then name"""
        return service.list_services(db_session(), actor=current_org_actor())

    @blp.requires("bot:write")
    @blp.arguments(schemas.ServiceCreateSchema)
    @blp.response(201, schemas.ServiceSchema)
    def post(self, body, org_id):
        """Add a service (`moneda` defaults to the organization's currency)"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:service_id>")
class ServiceById(MethodView):
    @blp.requires("bot:write")
    @blp.arguments(schemas.ServiceUpdateSchema)
    @blp.response(200, schemas.ServiceSchema)
    def patch(self, body, org_id, service_id):
        """Change a service (the prices given replace the list)"""
        return service.do_update(db_session(), actor=current_org_actor(), service_id=str(service_id), **body)

    @blp.requires("bot:write")
    @blp.response(200, schemas.ServiceSchema)
    def delete(self, org_id, service_id):
        """Remove a service; answers it as it was"""
        return service.do_delete(db_session(), actor=current_org_actor(), service_id=str(service_id))
