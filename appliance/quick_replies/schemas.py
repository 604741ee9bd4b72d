from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, Text

SHORTCUT = r"^/[\w-]{1,30}$"


class QuickReplySchema(ApiSchema):
    id = fields.String()
    shortcut = fields.String()
    text = fields.String()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class QuickReplyUpdateSchema(ApiSchema):
    shortcut = fields.String(validate=validate.Regexp(SHORTCUT, error="A slash and one word: /horario, /envios-2."),
                             metadata={"pattern": SHORTCUT, "example": "/horario"})
    text = Text(min_length=1, max_length=4096, multiline=True)


class QuickReplyCreateSchema(QuickReplyUpdateSchema):
    shortcut = fields.String(required=True, validate=validate.Regexp(SHORTCUT, error="A slash and one word: /horario, /envios-2."),
                             metadata={"pattern": SHORTCUT, "example": "/horario"})
    text = Text(required=True, min_length=1, max_length=4096, multiline=True)
