from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.core.schema import EMAIL_ADDRESS, ApiSchema, Matching, Text, WebAddress

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
    """The network's limits: about 139 characters, address 256, description 512, email 128, two
    websites. An empty address, description or email (or no websites) clears it."""
    min_fields = 1  # documented as minProperties; the check below says which

    about = Text(min_length=1, max_length=139)
    address = Text(max_length=256)
    description = Text(max_length=512, multiline=True)
    email = Matching(f"^(?:{EMAIL_ADDRESS})?$", max_length=128, error="Not a valid email address.",
                     metadata={"description": "An email address, or empty to clear it"})
    vertical = fields.String(validate=validate.OneOf(VERTICALS))
    websites = fields.List(WebAddress(max_length=256),
                           validate=validate.Length(max=2))

    @validates_schema
    def not_empty(self, data, **kwargs):
        if not data:
            raise ValidationError("Give at least one field to change.", "_schema")
