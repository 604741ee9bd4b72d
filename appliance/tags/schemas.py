from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Text

_COLOR = validate.Regexp(r"^#[0-9a-fA-F]{6}$", error="A color is #rrggbb.")


class TagSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    color = fields.String()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class TagCreateSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=60)
    color = fields.String(validate=_COLOR)


class TagUpdateSchema(ApiSchema):
    name = Text(min_length=1, max_length=60)
    color = fields.String(validate=_COLOR)
