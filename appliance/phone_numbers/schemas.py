from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime


class PhoneNumberSchema(ApiSchema):
    id = fields.String(metadata={"description": "This appliance's id of the number (what API keys' phoneNumberIds list)"})
    business_account_id = fields.String(attribute="waba_pk", metadata={"description": "Id of its connected business account"})
    phone_number_id = fields.String(metadata={"description": "The network's phone number id"})
    display_phone_number = fields.String()
    verified_name = fields.String()
    quality_rating = fields.String(allow_none=True)
    messages_per_second = fields.Integer(metadata={"description": "Its throughput tier (80 by default, up to 1,000)"})
    coexistence = fields.Boolean(metadata={"description": "Also used in the WhatsApp Business app (coexistence)"})
    coexistence_sync_requested_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class PhoneNumberUpdateSchema(ApiSchema):
    messages_per_second = fields.Integer(required=True, validate=validate.Range(min=1, max=1000), metadata={
        "description": "The sending pace: the number's tier at Meta (80 by default, 1,000 once upgraded; 20 for "
                       "coexistence numbers). Setting it above the real tier provokes 130429 errors."})
