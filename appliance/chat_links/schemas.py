import json

from marshmallow import ValidationError, fields, validate, validates

from appliance.chat_links import service
from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString

METADATA_MAX_BYTES = 4096


class ChatLinkSchema(ApiSchema):
    id = fields.String()
    phone_number_pk = fields.String(data_key="phoneNumberId")
    name = fields.String()
    campaign_tag = fields.String(allow_none=True)
    prefilled_message = fields.String(allow_none=True)
    link_metadata = fields.Dict(data_key="metadata")
    archived = fields.Boolean()
    slug = fields.String(metadata={"description": "8 letters and digits"})
    url = fields.Function(service.url_of, metadata={"description": "The public short address"})
    wa_me_url = fields.String(metadata={"description": "The wa.me address it redirects to"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ChatLinkUpdateSchema(ApiSchema):
    min_fields = 1
    name = Text(min_length=1, max_length=120)
    campaign_tag = Text(max_length=60, allow_none=True)
    prefilled_message = Text(max_length=1000, multiline=True, allow_none=True)
    link_metadata = fields.Dict(data_key="metadata", allow_none=True, metadata={"description": "Any object, at most 4 KB"})

    @validates("link_metadata")
    def _small(self, value, **kwargs):
        if value is not None and len(json.dumps(value)) > METADATA_MAX_BYTES:
            raise ValidationError("At most 4 KB of JSON.")


class ChatLinkCreateSchema(ChatLinkUpdateSchema):
    min_fields = 0
    phone_number_pk = UuidString(required=True, data_key="phoneNumberId")
    name = Text(required=True, min_length=1, max_length=120)


class ChatLinkArgsSchema(ApiSchema):
    phone_number_pk = UuidString(data_key="phoneNumberId")
    include_archived = fields.Boolean(load_default=False)


class ChatLinkQrArgsSchema(ApiSchema):
    format = fields.String(load_default="PNG", validate=validate.OneOf(service.QR_FORMATS))
    size = fields.Integer(load_default=service.QR_DEFAULT, validate=validate.Range(min=service.QR_MIN, max=service.QR_MAX))


class _Day(ApiSchema):
    date = fields.String()
    clicks = fields.Integer()


class _Referrer(ApiSchema):
    host = fields.String()
    clicks = fields.Integer()


class ChatLinkStatsSchema(ApiSchema):
    clicks = fields.Integer(metadata={"description": "People's clicks (link previews and crawlers are not counted)"})
    unique_clicks = fields.Integer()
    by_day = fields.List(fields.Nested(_Day))
    by_referrer = fields.List(fields.Nested(_Referrer))
    conversations = fields.Integer(metadata={"description": "New conversations in 7 days that began with the prefilled text"})
