"""/organizations/{orgId}/webhooks-outbound: events signed and delivered to other systems."""

from flask.views import MethodView

from appliance.http.api import Blueprint
from appliance.http.auth import current_org_actor
from appliance.http.unit_of_work import db_session
from appliance.outbound_webhooks import schemas, service

blp = Blueprint("webhooks_outbound", __name__, url_prefix="/organizations/<uuid:org_id>/webhooks-outbound",
                description="Outbound webhooks: Standard Webhooks signatures, retries, a log of every attempt")


@blp.route("")
class Webhooks(MethodView):
    @blp.requires("webhooks:read")
    @blp.response(200, schemas.WebhookSchema(many=True))
    def get(self, org_id):
        """The organization's webhooks (never their secrets)"""
        return service.list_webhooks(db_session(), actor=current_org_actor())

    @blp.requires("webhooks:write")
    @blp.arguments(schemas.WebhookCreateSchema)
    @blp.response(201, schemas.WebhookSchema)
    def post(self, body, org_id):
        """Create a webhook; read its signing secret at /{id}/secret"""
        return service.do_create(db_session(), actor=current_org_actor(), **body)


@blp.route("/<uuid:webhook_id>")
class WebhookById(MethodView):
    @blp.requires("webhooks:read")
    @blp.response(200, schemas.WebhookSchema)
    def get(self, org_id, webhook_id):
        """One webhook with its health"""
        return service.access_webhook(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id))

    @blp.requires("webhooks:write")
    @blp.arguments(schemas.WebhookUpdateSchema)
    @blp.response(200, schemas.WebhookSchema)
    def patch(self, body, org_id, webhook_id):
        """Change a webhook; `active: true` turns it on again and forgets its failures"""
        return service.do_update(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id), **body)

    @blp.requires("webhooks:write")
    @blp.response(204)
    def delete(self, org_id, webhook_id):
        """Delete a webhook and its delivery log"""
        service.do_delete(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id))


@blp.route("/<uuid:webhook_id>/test")
class Test(MethodView):
    @blp.requires("webhooks:write")
    @blp.response(201, schemas.WebhookDeliverySchema)
    def post(self, org_id, webhook_id):
        """Send the event webhook.test now (also to a webhook that is off)"""
        return service.do_send_test(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id))


@blp.route("/<uuid:webhook_id>/secret")
class Secret(MethodView):
    @blp.requires("webhooks:write")
    @blp.response(200, schemas.WebhookSecretSchema)
    def get(self, org_id, webhook_id):
        """The signing secret (whsec_...)"""
        return service.reveal_secret(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id))


@blp.route("/<uuid:webhook_id>/deliveries")
class Deliveries(MethodView):
    @blp.requires("webhooks:read")
    @blp.arguments(schemas.WebhookDeliveryArgsSchema, location="query")
    @blp.response(200, schemas.WebhookDeliveryPageSchema)
    def get(self, args, org_id, webhook_id):
        """The delivery log, newest first: status, attempts, request body, the last response"""
        return service.list_deliveries(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id), **args)


@blp.route("/<uuid:webhook_id>/deliveries/<uuid:delivery_id>")
class DeliveryById(MethodView):
    @blp.requires("webhooks:read")
    @blp.response(200, schemas.WebhookDeliveryDetailSchema)
    def get(self, org_id, webhook_id, delivery_id):
        """One delivery with every attempt (time, status, response, error)"""
        return service.get_delivery(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id),
                                    delivery_id=str(delivery_id))


@blp.route("/<uuid:webhook_id>/deliveries/<uuid:delivery_id>/retry")
class RetryDelivery(MethodView):
    @blp.requires("webhooks:write")
    @blp.response(201, schemas.WebhookDeliverySchema)
    def post(self, org_id, webhook_id, delivery_id):
        """Send this delivery again now (same webhook-id)"""
        return service.do_retry_delivery(db_session(), actor=current_org_actor(), webhook_id=str(webhook_id),
                                         delivery_id=str(delivery_id))
