from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString, WebAddress

HANDLE = r"^[a-z0-9-]{3,40}$"


class LinkPageItemSchema(ApiSchema):
    id = fields.String()
    label = fields.String()
    url = fields.String(allow_none=True)
    chat_link_id = fields.String(allow_none=True)
    clicks = fields.Integer(dump_only=True)


class LinkPageItemBodySchema(ApiSchema):
    id = UuidString(metadata={"description": "An existing item's id keeps its click count"})
    label = Text(required=True, min_length=1, max_length=80)
    url = WebAddress(allow_none=True)
    chat_link_id = UuidString(allow_none=True)
    clicks = fields.Integer(metadata={"description": "Read only (ignored): an item read back can be sent back as it is"})


class LinkPageViewSchema(ApiSchema):
    id = fields.String()
    handle = fields.String()
    title = fields.String()
    description = fields.String(allow_none=True)
    published = fields.Boolean()
    views = fields.Integer()
    url = fields.String(metadata={"description": "The public page"})
    items = fields.List(fields.Nested(LinkPageItemSchema))
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class LinkPageUpdateSchema(ApiSchema):
    min_fields = 1
    handle = fields.String(validate=validate.Regexp(HANDLE, error="3 to 40 lowercase letters, digits or hyphens."))
    title = Text(min_length=1, max_length=120)
    description = Text(max_length=500, multiline=True, allow_none=True)
    items = fields.List(fields.Nested(LinkPageItemBodySchema), validate=validate.Length(max=30))
    published = fields.Boolean()


class LinkPageCreateSchema(LinkPageUpdateSchema):
    min_fields = 0
    handle = fields.String(required=True, validate=validate.Regexp(HANDLE, error="3 to 40 lowercase letters, digits or hyphens."))
    title = Text(required=True, min_length=1, max_length=120)
