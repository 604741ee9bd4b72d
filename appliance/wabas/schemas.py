from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, Credential, IsoDateTime, Secret, Text

_GRAPH_ID = validate.Regexp(r"^[0-9]{1,40}$", error="A Graph id: digits only.")


class BusinessAccountSchema(ApiSchema):
    id = fields.String(metadata={"description": "This appliance's id of the connected account"})
    waba_id = fields.String(metadata={"description": "The network's WhatsApp Business Account id"})
    name = fields.String()
    sandbox = fields.Boolean(metadata={"description": "The built-in simulator's demo account"})
    needs_reauth = fields.Function(lambda account: account.needs_reauth_at is not None, dump_only=True,
                                   metadata={"description": "The network refused its token (code 190): connect a new one"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class BusinessAccountConnectSchema(ApiSchema):
    waba_id = fields.String(required=True, validate=_GRAPH_ID)
    access_token = Credential(required=True, max_length=4000, metadata={"description": "System-user token; stored sealed, never returned"})
    app_secret = Credential(required=True, max_length=500, metadata={"description": "The Meta app's secret, to check webhook signatures; stored sealed"})
    verify_token = Secret(max_length=200, metadata={"description": "The token Meta sends when verifying the webhook URL; "
                                                    "absent: the organization's (GET .../wabas/webhook-setup)"})
    name = Text(min_length=1, max_length=100)
    pin = fields.String(validate=validate.Regexp(r"^[0-9]{6}$", error="Six digits."), metadata={
        "description": "The two-step verification PIN, to register numbers not yet registered for the Cloud API "
                       "(the first registration sets it)", "example": "123456"})


class WebhookSetupSchema(ApiSchema):
    callback_url = fields.String(metadata={"description": "Paste into Meta's app dashboard: the public address + /webhooks/whatsapp"})
    verify_token = fields.String(metadata={"description": "Paste beside it; the same until rotated"})
    verified_at = IsoDateTime(allow_none=True, metadata={"description": "When Meta last verified the callback with this token"})
    last_delivery_at = IsoDateTime(allow_none=True, metadata={"description": "Meta's last signed delivery accepted for the organization"})
    last_rejected_at = IsoDateTime(allow_none=True, metadata={"description": "The last delivery for its numbers refused (bad signature)"})
