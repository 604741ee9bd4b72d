"""/webhooks/whatsapp: the Cloud API's verification handshake and its deliveries (public; the
signature over the raw body is the credential)."""

from flask import Response, request
from flask.views import MethodView
from marshmallow import fields

from appliance.channels.whatsapp import adapter
from appliance.core import runtime
from appliance.core.schema import ApiSchema
from appliance.http.api import Blueprint
from appliance.http.unit_of_work import db_session
from appliance.wabas import webhook_setup

blp = Blueprint("whatsapp_webhook", __name__, url_prefix="/webhooks/whatsapp",
                description="Inbound webhooks of the WhatsApp Cloud API")


class WebhookReceiptSchema(ApiSchema):
    messages = fields.Integer(metadata={"description": "New messages stored"})
    duplicates = fields.Integer(metadata={"description": "Messages already stored (redeliveries)"})
    statuses = fields.Integer(metadata={"description": "Status changes applied"})
    echoes = fields.Integer(metadata={"description": "Messages written in the WhatsApp Business app (coexistence)"})
    contacts = fields.Integer(metadata={"description": "Contacts created or named from a coexistence number's Business app"})


@blp.route("")
class WhatsAppWebhook(MethodView):
    @blp.public
    @blp.doc(parameters=[{"in": "query", "name": name, "schema": {"type": "string"}}
                         for name in ("hub.mode", "hub.verify_token", "hub.challenge")],
             responses={"200": {"description": "hub.challenge, as plain text",
                                "content": {"text/plain": {"schema": {"type": "string"}}}},
                        "403": {"description": "Not subscribing, or not a verify token of this installation",
                                "content": {"text/plain": {"schema": {"type": "string"}}}}})
    def get(self):
        """Verification: answers hub.challenge when hub.verify_token is an organization's (its webhook
        setup's, before any account is connected) or a connected account's own; else 403"""
        challenge = request.args.get("hub.challenge", "")
        if webhook_setup.check_verification(runtime.get().db, mode=request.args.get("hub.mode"),
                                            token=request.args.get("hub.verify_token", ""), challenge=challenge):
            return Response(challenge, mimetype="text/plain")
        return Response("verification failed", status=403, mimetype="text/plain")

    @blp.public
    @blp.doc(requestBody={"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": ["object", "entry"], "description": "Meta's delivery",
        "properties": {"object": {"type": "string", "enum": ["whatsapp_business_account"]},
                       "entry": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["id", "changes"], "properties": {
                           "id": {"type": "string"}, "changes": {"type": "array", "minItems": 1, "items": {
                               "type": "object", "required": ["field", "value"],
                               "properties": {"field": {"type": "string"}, "value": {"type": "object"}}}}}}}}}}}},
        parameters=[{"in": "header", "name": "X-Hub-Signature-256", "required": True, "schema": {
            "type": "string", "pattern": "^sha256=[0-9a-f]{64}$"},
                     "description": "sha256=<hex HMAC-SHA256 of the raw body with the app secret>"}],
        responses={"401": {"description": "The signature is missing or does not match any connected account's secret"},
                   "404": {"description": "The delivery names no connected number or account"}})
    @blp.response(200, WebhookReceiptSchema)
    def post(self):
        """A delivery: signature checked on the raw bytes, then every message and status stored at once"""
        raw, signature = request.get_data(cache=True), request.headers.get("X-Hub-Signature-256")
        return vars(adapter.receive(db_session(), raw, signature))
