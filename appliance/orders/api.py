"""/organizations/{orgId}/orders: orders customers sent from a catalog, their payment (a payment link,
a confirmed transfer, a person's word) and the license keys a paid one was given."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.orders import delivery, delivery_template, payments, schemas, service

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


@blp.route("/settings")
class SalesSettings(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.SalesSettingsSchema)
    def get(self, org_id):
        """How sales are delivered: the template for keys outside the 24-hour window"""
        return delivery_template.get(db_session(), organization_id=current_org_actor().organization_id)

    @blp.requires("orders:write")
    @blp.arguments(schemas.SalesSettingsPutSchema)
    @blp.response(200, schemas.SalesSettingsSchema)
    def put(self, body, org_id):
        """Choose the template that carries keys outside the window (400 for one that cannot), or none"""
        chosen = body["delivery_template"] or {}
        return delivery_template.do_put(db_session(), actor=current_org_actor(), name=chosen.get("name"),
                                        language=chosen.get("language"))


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


@blp.route("/<uuid:order_id>/payment-link")
class PaymentLink(MethodView):
    @blp.requires("orders:write")
    @blp.arguments(schemas.PaymentLinkArgsSchema)
    @blp.response(201, schemas.OrderSchema)
    def post(self, body, org_id, order_id):
        """The order's payment link at the processor (made once; 409 order_already_paid), optionally sent
        to the customer; its approved payment pays the order"""
        return payments.check_payment_link(actor=current_org_actor(), order_id=str(order_id), **body)


@blp.route("/<uuid:order_id>/mark-paid")
class MarkPaid(MethodView):
    @blp.requires("orders:write")
    @blp.arguments(schemas.PaidSchema)
    @blp.response(200, schemas.OrderSchema)
    def post(self, body, org_id, order_id):
        """A person says it is paid: the sale is completed once (its keys given out and sent)"""
        return payments.do_mark_paid(db_session(), actor=current_org_actor(), order_id=str(order_id), **body)


@blp.route("/<uuid:order_id>/confirm-transfer")
class ConfirmTransfer(MethodView):
    @blp.requires("orders:write")
    @blp.arguments(schemas.PaidSchema)
    @blp.response(200, schemas.OrderSchema)
    def post(self, body, org_id, order_id):
        """A person checked the bank against the receipt the customer sent: the order is paid
        (409 no_transfer_reported without one)"""
        return payments.do_confirm_transfer(db_session(), actor=current_org_actor(), order_id=str(order_id), **body)


@blp.route("/<uuid:order_id>/deliver")
class Deliver(MethodView):
    @blp.requires("orders:write")
    @blp.response(200, schemas.OrderSchema)
    def post(self, org_id, order_id):
        """Try again the delivery of a paid order's keys that waits (keys added, the window open again)"""
        session = db_session()
        return delivery.do_retry(session, service.access_order(session, actor=current_org_actor(),
                                                               order_id=str(order_id)))


@blp.route("/<uuid:order_id>/license-keys")
class OrderKeys(MethodView):
    @blp.requires("orders:read")
    @blp.response(200, schemas.OrderKeysSchema)
    def get(self, org_id, order_id):
        """The keys the order was given (masked), the replaced ones too"""
        return {"items": delivery.keys_of(db_session(), actor=current_org_actor(), order_id=str(order_id))}


@blp.route("/<uuid:order_id>/license-keys/<uuid:key_id>/replace")
class ReplaceKey(MethodView):
    @blp.requires("orders:write")
    @blp.arguments(schemas.ReplaceKeySchema)
    @blp.response(200, schemas.OrderSchema)
    def post(self, body, org_id, order_id, key_id):
        """Replace a key that does not work: another from the pool goes to the customer"""
        session = db_session()
        actor = current_org_actor()
        order = service.access_order(session, actor=actor, order_id=str(order_id))
        return delivery.do_replace(session, order, str(key_id), body["reason"], actor.user_id)
