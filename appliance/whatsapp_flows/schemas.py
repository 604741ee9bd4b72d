from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Text


class WhatsAppFlowSchema(ApiSchema):
    id = fields.String()
    business_account_id = fields.String(attribute="waba_pk")
    flow_id = fields.String(metadata={"description": "The network's flow id"})
    name = fields.String()
    created_at = IsoDateTime()


class WhatsAppFlowCreateSchema(ApiSchema):
    business_account_id = fields.UUID(required=True)
    flow_id = fields.String(required=True, validate=validate.Regexp(r"^\d{1,40}$", error="The network's flow id (digits)."))
    name = Text(required=True, min_length=1, max_length=200)
