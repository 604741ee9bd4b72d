"""/organizations/{orgId}/whatsapp-flows: WhatsApp Flows that messages may offer (/messages/flow)"""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.whatsapp_flows import schemas, service

blp = Blueprint("whatsapp_flows", __name__, url_prefix="/organizations/<uuid:org_id>/whatsapp-flows",
                description="WhatsApp Flows registered for sending")


@blp.route("")
class Flows(MethodView):
    @blp.requires("templates:read")
    @blp.response(200, schemas.WhatsAppFlowSchema(many=True))
    def get(self, org_id):
        """List registered flows"""
        return service.list_flows(db_session(), actor=current_org_actor())

    @blp.requires("templates:write")
    @blp.arguments(schemas.WhatsAppFlowCreateSchema)
    @blp.response(201, schemas.WhatsAppFlowSchema)
    def post(self, body, org_id):
        """Register a flow of a business account by the network's flow id"""
        return service.do_register(db_session(), actor=current_org_actor(), flow_id=body["flow_id"], name=body["name"],
                                   business_account_id=str(body["business_account_id"]))


@blp.route("/<uuid:flow_pk>")
class FlowById(MethodView):
    @blp.requires("templates:write")
    @blp.response(204)
    def delete(self, org_id, flow_pk):
        """Unregister a flow"""
        service.do_delete(db_session(), actor=current_org_actor(), flow_pk=str(flow_pk))
