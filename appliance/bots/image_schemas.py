"""The bot image library's shapes (`/bot/images`)."""

from marshmallow import fields

from appliance.core.schema import ApiSchema, IsoDateTime, Text


class BotImageSchema(ApiSchema):
    id = fields.String()
    label = fields.String()
    caption = fields.String()
    mime_type = fields.String(data_key="mimeType")
    size_bytes = fields.Integer(data_key="sizeBytes")
    url = fields.Method("_url", metadata={"description": "Where the file is read (with the same credentials)"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()

    def _url(self, image) -> str:
        return f"/organizations/{image.organization_id}/bot/images/{image.id}/file"


class BotImageUploadSchema(ApiSchema):
    """UploadBotImageDto: the form's fields beside `file` (JPG, PNG or WEBP, ≤ 5 MB, by content)."""
    label = Text(required=True, min_length=1, max_length=100)
    caption = Text(load_default="", max_length=1024, multiline=True)


class BotImageUpdateSchema(ApiSchema):
    min_fields = 1
    label = Text(min_length=1, max_length=100)
    caption = Text(max_length=1024, multiline=True)


class BotImageDeleteArgsSchema(ApiSchema):
    forzar = fields.Boolean(load_default=False, metadata={"description": "Delete even if a rule uses it (the rule "
                                                                         "then replies without it)"})
