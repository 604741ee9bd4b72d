from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, EmailAddress, IsoDateTime, Matching, Text
from appliance.webchat.service import MAX_ORIGINS, PRE_CHAT_FIELDS

ORIGIN = r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$"


class PreChatFieldSchema(ApiSchema):
    field = fields.String(required=True, validate=validate.OneOf(PRE_CHAT_FIELDS))
    required = fields.Boolean(load_default=False)


class WidgetSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    allowed_origins = fields.List(fields.String())
    phone_number_pk = fields.String(data_key="phoneNumberId", metadata={"description": "The inbox its conversations join"})
    greeting = fields.String(allow_none=True)
    pre_chat_fields = fields.List(fields.Nested(PreChatFieldSchema))
    enforce_identity = fields.Boolean()
    offline_email = fields.String(allow_none=True, metadata={"description": "Where visitors' words go by mail while the "
                                                                            "organization is closed; null: its owners and administrators"})
    website_token = fields.String(metadata={"description": "Public: it is in the website's snippet"})
    snippet = fields.String(metadata={"description": "What the website pastes before </body>"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class WidgetWithSecretSchema(WidgetSchema):
    identity_secret = fields.String(metadata={"description": "Shown this once: the website's server signs its users' "
                                                             "identifiers with it (hex HMAC-SHA256)"})


class WidgetUpdateSchema(ApiSchema):
    name = Text(min_length=1, max_length=100)
    allowed_origins = fields.List(Matching(ORIGIN, max_length=300, error="A website's origin: https://shop.example."),
                                  validate=validate.Length(max=MAX_ORIGINS))
    phone_number_pk = fields.String(data_key="phoneNumberId", validate=validate.Length(max=40))
    greeting = Text(max_length=500, multiline=True, allow_none=True)
    pre_chat_fields = fields.List(fields.Nested(PreChatFieldSchema), validate=validate.Length(max=3))
    enforce_identity = fields.Boolean()
    offline_email = EmailAddress(allow_none=True)


class WidgetCreateSchema(WidgetUpdateSchema):
    name = Text(required=True, min_length=1, max_length=100)


