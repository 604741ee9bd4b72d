"""/organizations/{orgId}/orders: orders customers sent from a catalog."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.orders import schemas, service

blp = Blueprint("orders", __name__, url_prefix="/organizations/<uuid:org_id>/orders",
                description="Orders: carts customers send from a catalog, and their status")


@blp.route("")
class Orders(MethodView):
    @blp.requires("orders:read")
    @blp.arguments(schemas.OrderArgsSchema, location="query")
    @blp.response(200, schemas.OrderPageSchema)
    def get(self, args, org_id):
        """Orders, newest first, by status"""
        return service.list_orders(db_session(), actor=current_org_actor(), **args)


@blp.route("/by-message/<uuid:message_id>")
class OrderByMessage(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.OrderSchema)
    def get(self, org_id, message_id):
        """The order made from an inbound order message"""
        return service.by_message(db_session(), actor=current_org_actor(), message_id=str(message_id))


@blp.route("/<uuid:order_id>")
class OrderById(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.OrderSchema)
    def get(self, org_id, order_id):
        """One order"""
        return service.access_order(db_session(), actor=current_org_actor(), order_id=str(order_id))

    @blp.requires("orders:write")
    @blp.arguments(schemas.OrderPatchSchema)
    @blp.response(200, schemas.OrderSchema)
    def patch(self, body, org_id, order_id):
        """Change its status: {code: PENDING | IN_PROCESS | COMPLETED | CANCELLED, note?, notifyCustomer?}"""
        return service.do_set_status(db_session(), actor=current_org_actor(), order_id=str(order_id), **body)
