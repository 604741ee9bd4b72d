from datetime import timezone

from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.core.schema import ApiSchema, Cursor, IsoDateTime, Text, UuidString, WebAddress
from appliance.graph_api.errors import explain
from appliance.messages.kinds import MEDIA_CATEGORIES
from appliance.messages.sending.compose import SEND_TYPES


def guidance_of_error(message) -> dict | None:
    """What to do about a failed message's error, in every language (the catalog's guidance)."""
    return explain(message.error_code).guidance if message.error_code is not None else None


class ChatMessageSchema(ApiSchema):
    id = fields.String()
    organization_id = fields.String()
    phone_number_pk = fields.String(data_key="phoneNumberId", metadata={"description": "Our id of the business number"})
    conversation_id = fields.String()
    contact_id = fields.String()
    direction = fields.String(metadata={"description": "in or out"})
    to = fields.Function(lambda m: m.customer_wa_id if m.direction == "out" else None, dump_only=True,
                         metadata={"description": "The customer (outbound); the business side is phoneNumberId"})
    from_ = fields.Function(lambda m: m.customer_wa_id if m.direction == "in" else None, dump_only=True,
                            data_key="from", metadata={"description": "The customer (inbound)"})
    wamid = fields.String(allow_none=True, metadata={"description": "The network's id, once it accepted the message"})
    type = fields.String()
    payload = fields.Raw(metadata={"description": "The type's object as the network shapes it (text, image, ...)"})
    status = fields.String(metadata={"description": "in: received; out: pending, sent, delivered, read or failed"})
    client_id = fields.String(allow_none=True)
    reply_to_message_id = fields.String(allow_none=True)
    reply_to_wamid = fields.String(allow_none=True)
    sent_from = fields.String(allow_none=True, metadata={
        "description": "business_app: written in the WhatsApp Business app of a coexistence number (an echo)"})
    sent_by = fields.String(allow_none=True, metadata={
        "description": "out: bot, survey, broadcast, user (a person) or api (an API key); null for the customer's messages"})
    sent_by_user_id = fields.String(allow_none=True)
    error_code = fields.Integer(allow_none=True, metadata={
        "description": "The network's error code; negative codes are the appliance's own (docs/api.md)"})
    error_title = fields.String(allow_none=True)
    error_details = fields.String(allow_none=True)
    error_guidance = fields.Function(guidance_of_error, dump_only=True, metadata={
        "description": "What to do about the error: {en, es}"})
    send_attempts = fields.Integer()
    hidden = fields.Boolean(metadata={"description": "Hidden as a tombstone (DELETE); POST .../restore shows it again"})
    edited_at = IsoDateTime(allow_none=True)
    media_status = fields.String(allow_none=True, metadata={"description": "pending, stored or failed (inbound media)"})
    media_mime_type = fields.String(allow_none=True)
    media_size = fields.Integer(allow_none=True)
    sent_at = IsoDateTime(metadata={"description": "When the network says it was sent (inbound) or it was accepted here"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ChatMessagePageSchema(ApiSchema):
    items = fields.List(fields.Nested(ChatMessageSchema))
    next_cursor = fields.String(allow_none=True)


class _Addressed(ApiSchema):
    """Fields every send shares."""
    phone_number_pk = fields.UUID(required=True, data_key="phoneNumberId",
                                  metadata={"description": "Our id of the sending number"})
    to = fields.String(required=True, validate=validate.Length(min=1, max=40),
                       metadata={"description": "E.164, with or without a leading +; or a web-chat visitor's "
                                                "address (`wc:<visitor id>`, the contact's userId)"})
    reply_to_message_id = fields.UUID(load_default=None, metadata={"description": "Quoted message (our id)"})
    client_id = Text(load_default=None, min_length=1, max_length=100, metadata={
        "description": "Your id for this send: a repeat answers the first message (200) and sends nothing"})


class SendMessageSchema(_Addressed):
    type = fields.String(required=True, validate=validate.OneOf(SEND_TYPES))
    payload = fields.Raw(load_default=None, metadata={
        "description": "The network's object for the type ({body} for text, {id|link, caption} for media, ...)"})
    template_id = fields.UUID(load_default=None)
    template_name = Text(load_default=None, min_length=1, max_length=512)
    template_language = Text(load_default=None, min_length=2, max_length=15)
    variables = fields.Raw(load_default=None, metadata={
        "description": "Array of body values, or {body, header: {type, link|id|text}, buttons: [{index, value}]}"})
    sticker_id = fields.UUID(load_default=None, metadata={
        "description": "With type sticker: a sticker of the library (GET /stickers), sent as a sticker; "
                       "instead of payload"})

    @validates_schema
    def _sticker_from_the_library(self, data, **_):
        if data.get("sticker_id") is None:
            return
        if data.get("type") != "sticker":
            raise ValidationError("stickerId goes with type sticker.", "stickerId")
        if data.get("payload") is not None:
            raise ValidationError("Give either stickerId or payload, not both.", "payload")


class ProductSectionSchema(ApiSchema):
    title = Text(required=True, min_length=1, max_length=24)
    product_retailer_ids = fields.List(Text(min_length=1, max_length=100), required=True,
                                       validate=validate.Length(min=1, max=30))


class ProductMessageSchema(_Addressed):
    catalog_id = Text(required=True, min_length=1, max_length=40)
    body_text = Text(load_default=None, min_length=1, max_length=1024, multiline=True)
    footer_text = Text(load_default=None, min_length=1, max_length=60)
    header_text = Text(load_default=None, min_length=1, max_length=60)
    product_retailer_id = Text(load_default=None, min_length=1, max_length=100,
                               metadata={"description": "One product"})
    products = fields.List(Text(min_length=1, max_length=100), load_default=None,
                           validate=validate.Length(min=1, max=30), metadata={"description": "A flat list (one section)"})
    sections = fields.List(fields.Nested(ProductSectionSchema), load_default=None, validate=validate.Length(min=1, max=10))
    catalog_message = fields.Boolean(load_default=False, metadata={"description": "The whole catalog"})
    thumbnail_product_retailer_id = Text(load_default=None, min_length=1, max_length=100)


class ListRowSchema(ApiSchema):
    id = Text(required=True, min_length=1, max_length=200)
    title = Text(required=True, min_length=1, max_length=24)
    description = Text(load_default=None, min_length=1, max_length=72)


class ListSectionSchema(ApiSchema):
    title = Text(load_default=None, min_length=1, max_length=24)
    rows = fields.List(fields.Nested(ListRowSchema), required=True, validate=validate.Length(min=1, max=10))


class InteractiveMessageSchema(_Addressed):
    kind = fields.String(required=True, validate=validate.OneOf(("list", "cta_url", "location_request",
                                                                 "request_contact_info")))
    body_text = Text(load_default=None, min_length=1, max_length=1024, multiline=True)
    header_text = Text(load_default=None, min_length=1, max_length=60)
    footer_text = Text(load_default=None, min_length=1, max_length=60)
    button_text = Text(load_default=None, min_length=1, max_length=20)
    sections = fields.List(fields.Nested(ListSectionSchema), load_default=None, validate=validate.Length(min=1, max=10))
    display_text = Text(load_default=None, min_length=1, max_length=20)
    url = WebAddress(load_default=None)


class FlowMessageSchema(_Addressed):
    flow_id = fields.UUID(required=True, metadata={"description": "Our id of a registered flow (GET /flows)"})
    body_text = Text(required=True, min_length=1, max_length=1024, multiline=True)
    cta_text = Text(required=True, min_length=1, max_length=30)
    header_text = Text(load_default=None, min_length=1, max_length=60)
    footer_text = Text(load_default=None, min_length=1, max_length=60)
    screen = Text(load_default=None, min_length=1, max_length=100)
    data = fields.Dict(load_default=None)
    flow_action = fields.String(load_default="navigate", validate=validate.OneOf(("navigate", "data_exchange")))

    @validates_schema
    def _screen_for_navigate(self, data, **_):
        if data.get("flow_action") == "navigate" and not data.get("screen"):
            raise ValidationError("The first screen to show, required with flowAction navigate.", "screen")


class CarouselCardSchema(ApiSchema):
    header_type = fields.String(required=True, validate=validate.OneOf(("image", "video")))
    media_id = Text(load_default=None, min_length=1, max_length=100)
    media_link = WebAddress(load_default=None)
    body_text = Text(load_default=None, min_length=1, max_length=160)
    display_text = Text(required=True, min_length=1, max_length=20)
    url = WebAddress(required=True)

    @validates_schema
    def _one_media(self, data, **_):
        if bool(data.get("media_id")) == bool(data.get("media_link")):
            raise ValidationError("Exactly one of mediaId or mediaLink.", "mediaId")


class CarouselMessageSchema(_Addressed):
    body_text = Text(required=True, min_length=1, max_length=1024, multiline=True)
    cards = fields.List(fields.Nested(CarouselCardSchema), required=True, validate=validate.Length(min=1, max=10))


class EditMessageSchema(ApiSchema):
    body = Text(required=True, min_length=1, max_length=4096, multiline=True)


class ReactionSchema(ApiSchema):
    emoji = fields.String(required=True, validate=validate.Length(max=16),
                          metadata={"description": "One emoji (no letters, digits or spaces); an empty string removes your reaction"})


class ReactionsSchema(ApiSchema):
    message_id = fields.String()
    reactions = fields.List(fields.Dict(), metadata={"description": "[{author, emoji, updatedAt}]"})


class UploadArgsSchema(ApiSchema):
    phone_number_pk = fields.UUID(required=True, data_key="phoneNumberId")


class UploadedMediaSchema(ApiSchema):
    media_id = fields.String(metadata={"description": "The network's media id: send it as payload.id"})
    mime_type = fields.String()
    size = fields.Integer()
    filename = fields.String(allow_none=True)
    sha256 = fields.String()
    phone_number_pk = fields.String(data_key="phoneNumberId")
    created_at = IsoDateTime()


# A conversation's thread, media, links and search (served under /conversations by messages/api.py).

class ThreadArgsSchema(ApiSchema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    before = Cursor(metadata={"description": "nextCursor of the previous page: older messages"})
    around = UuidString(load_default=None, metadata={"description": "A message id: the messages on both sides of it"})


class _Reaction(ApiSchema):
    emoji = fields.String()
    count = fields.Integer()


class ThreadMessageSchema(ChatMessageSchema):
    reactions = fields.List(fields.Nested(_Reaction), dump_default=[])


class ThreadPageSchema(ApiSchema):
    items = fields.List(fields.Nested(ThreadMessageSchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": "Older messages"})
    newer_cursor = fields.String(allow_none=True, metadata={
        "description": "With around: newer messages exist; read them with before=null and around of the newest"})


class LinkArgsSchema(ApiSchema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    before = Cursor()


class MediaArgsSchema(LinkArgsSchema):
    category = fields.String(load_default=None, validate=validate.OneOf(tuple(MEDIA_CATEGORIES)))


class MediaCountsSchema(ApiSchema):
    image = fields.Integer()
    video = fields.Integer()
    audio = fields.Integer()
    doc = fields.Integer()
    links = fields.Integer()


class LinkSchema(ApiSchema):
    url = fields.String()
    message_id = fields.String()
    direction = fields.String()
    sent_at = IsoDateTime()


class LinkPageSchema(ApiSchema):
    items = fields.List(fields.Nested(LinkSchema))
    next_cursor = fields.String(allow_none=True)


class SearchArgsSchema(ApiSchema):
    q = Text(required=True, min_length=1, max_length=200)
    from_ = fields.AwareDateTime(data_key="from", default_timezone=timezone.utc,
                                 metadata={"description": "Messages sent at or after (ISO 8601)"})
    to = fields.AwareDateTime(default_timezone=timezone.utc, metadata={"description": "Messages sent before"})
    direction = fields.String(validate=validate.OneOf(("in", "out")))
    has_attachment = fields.Boolean()
    sent_by_me = fields.Boolean(load_default=False)
    conversation_id = UuidString()
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=200))
    before = Cursor()


class SearchPageSchema(ApiSchema):
    items = fields.List(fields.Nested(ChatMessageSchema))
    next_cursor = fields.String(allow_none=True)
