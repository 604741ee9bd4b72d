from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.core.schema import ApiSchema, IsoDateTime, Text


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


VERTICALS = ("AUTOMOTIVE", "BEAUTY", "APPAREL", "EDU", "ENTERTAIN", "EVENT_PLAN", "FINANCE", "GROCERY", "GOVT", "HOTEL",
             "HEALTH", "NONPROFIT", "PROF_SERVICES", "RETAIL", "TRAVEL", "RESTAURANT", "OTHER")


class BusinessProfileSchema(ApiSchema):
    about = fields.String(allow_none=True, metadata={"description": "The profile's 'About' text"})
    address = fields.String(allow_none=True)
    description = fields.String(allow_none=True)
    email = fields.String(allow_none=True)
    vertical = fields.String(allow_none=True, metadata={"description": "Industry: " + ", ".join(VERTICALS)})
    websites = fields.List(fields.String())
    profile_picture_url = fields.String(allow_none=True)


class BusinessProfileUpdateSchema(ApiSchema):
    """The network's limits: about 139 characters, address 256, description 512, email 128, two websites."""

    about = Text(min_length=1, max_length=139)
    address = Text(max_length=256)
    description = Text(max_length=512, multiline=True)
    email = fields.Email(validate=validate.Length(max=128))
    vertical = fields.String(validate=validate.OneOf(VERTICALS))
    websites = fields.List(fields.Url(schemes={"http", "https"}, validate=validate.Length(max=256)),
                           validate=validate.Length(max=2))

    @validates_schema
    def not_empty(self, data, **kwargs):
        if not data:
            raise ValidationError("Give at least one field to change.", "_schema")
