"""The sticker library's shapes (`/stickers`)."""

from marshmallow import fields

from appliance.core.schema import ApiSchema, IsoDateTime, Text
from appliance.stickers.sentences import what_was_done


class StickerSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    mime_type = fields.Constant("image/webp", dump_only=True, metadata={"description": "Always image/webp"})
    size_bytes = fields.Integer(metadata={"description": "At most 100 KB still, 500 KB animated"})
    animated = fields.Boolean()
    frames = fields.Integer()
    width = fields.Constant(512, dump_only=True)
    height = fields.Constant(512, dump_only=True)
    sha256 = fields.String(metadata={"description": "Of the normalized file: one copy of a picture per organization"})
    source_format = fields.String(metadata={"description": "What was uploaded, by its bytes: PNG or WEBP"})
    source_width = fields.Integer()
    source_height = fields.Integer()
    source_bytes = fields.Integer()
    encoding = fields.String(metadata={"description": "kept (the upload already was a sticker), lossless or lossy"})
    quality = fields.Integer(allow_none=True, metadata={"description": "The WEBP quality of a lossy encoding"})
    normalization = fields.Function(what_was_done, dump_only=True, metadata={
        "description": "What normalization did, in a sentence (in the language of the request)"})
    url = fields.Method("_url", metadata={"description": "Where the WEBP is read (with the same credentials)"})
    created_by_user_id = fields.String(allow_none=True)
    created_at = IsoDateTime()

    def _url(self, sticker) -> str:
        return f"/organizations/{sticker.organization_id}/stickers/{sticker.id}/file"


class StickerUploadSchema(ApiSchema):
    """The form's fields beside `file` (WEBP or PNG, still or animated, ≤ 5 MB, by its content)."""
    name = Text(load_default=None, min_length=1, max_length=60, metadata={
        "description": "Shown in the picker; the file's name when not given"})
