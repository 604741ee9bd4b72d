from marshmallow import fields, validate

from appliance.broadcasts.service import FILTERS
from appliance.messages.schemas import guidance_of_error
from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text, UuidString

STATUSES = ("SCHEDULED", "RUNNING", "PAUSED", "COMPLETED", "CANCELLED")


class CountsSchema(ApiSchema):
    total = fields.Integer()
    pending = fields.Integer(metadata={"description": "Not sent yet (waiting their turn)"})
    sent = fields.Integer(metadata={"description": "Accepted by the network (delivered and read ones included)"})
    delivered = fields.Integer(metadata={"description": "Delivered (read ones included)"})
    read = fields.Integer()
    failed = fields.Integer()
    skipped = fields.Integer(metadata={"description": "Not sent: opted out, no number, duplicate, a missing value, cancelled"})
    replied = fields.Integer(metadata={"description": "Wrote back within 30 days of their message"})


class AudienceSchema(ApiSchema):
    contact_list_ids = fields.List(UuidString(), load_default=list, validate=validate.Length(max=50))
    contact_ids = fields.List(UuidString(), load_default=list, validate=validate.Length(max=10_000))


class BroadcastTemplateSchema(ApiSchema):
    id = fields.String(allow_none=True, metadata={"description": "Null once the template was deleted"})
    name = fields.String()
    language = fields.String()


class BroadcastSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    status = fields.String(metadata={"enum": list(STATUSES)})
    paused_reason = fields.String(allow_none=True, metadata={
        "description": "Why it stopped sending: template_paused, template_disabled, number_disconnected, network_<code>..."})
    paused_detail = fields.String(allow_none=True)
    phone_number_id = fields.String(attribute="phone_number_pk")
    template = fields.Nested(BroadcastTemplateSchema, metadata={
        "description": "The template sent, as it was chosen (its name and language stay if it is deleted)"})
    variables = fields.Raw(allow_none=True)
    audience = fields.Nested(AudienceSchema)
    scheduled_at = IsoDateTime(allow_none=True)
    started_at = IsoDateTime(allow_none=True)
    completed_at = IsoDateTime(allow_none=True)
    created_by_user_id = fields.String(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()
    counts = fields.Nested(CountsSchema)


class BroadcastPageSchema(ApiSchema):
    items = fields.List(fields.Nested(BroadcastSchema))
    next_cursor = fields.String(allow_none=True)


class BroadcastCreateSchema(ApiSchema):
    name = Text(required=True, min_length=1, max_length=120)
    phone_number_id = UuidString(required=True)
    template_id = UuidString(load_default=None)
    template_name = Text(load_default=None, min_length=1, max_length=512)
    template_language = Text(load_default=None, min_length=2, max_length=15)
    variables = fields.Raw(load_default=None, metadata={
        "description": "As POST /messages; any string may hold {{contact.name}}, {{contact.phone}}, "
                       "{{contact.attributes.X}}, each with an optional fallback: {{contact.name|amigo}}"})
    audience = fields.Nested(AudienceSchema, required=True)
    scheduled_at = fields.AwareDateTime(load_default=None, default_timezone=None, metadata={
        "description": "When to start (in the future); absent: now"})


class BroadcastArgsSchema(PageArgsSchema):
    status = fields.String(load_default=None, validate=validate.OneOf(STATUSES))
    phone_number_id = UuidString(load_default=None)


class RecipientSchema(ApiSchema):
    id = fields.String()
    contact_id = fields.String()
    name = fields.Function(lambda r: r.name or r.profile_name)
    to = fields.String(attribute="wa_id")
    status = fields.String(metadata={"enum": ["pending", "sent", "delivered", "read", "failed", "skipped"]})
    message_id = fields.String(allow_none=True)
    error_code = fields.Integer(allow_none=True)
    error_title = fields.String(allow_none=True)
    error_guidance = fields.Function(guidance_of_error, dump_only=True, metadata={
        "description": "What to do about the error: {en, es} (131049: do not resend at once; 131026: confirm the "
                       "number with the customer)"})
    skipped_reason = fields.String(allow_none=True, metadata={
        "enum": ["opted_out", "duplicate", "invalid_number", "missing_variable", "cancelled"]})
    attempts = fields.Integer(metadata={"description": "Messages made for this recipient (retry-failed adds one)"})
    sent_at = IsoDateTime(allow_none=True)
    replied_at = IsoDateTime(allow_none=True)


class RecipientPageSchema(ApiSchema):
    items = fields.List(fields.Nested(RecipientSchema))
    next_cursor = fields.String(allow_none=True)


class RecipientArgsSchema(PageArgsSchema):
    filter = fields.String(load_default=None, validate=validate.OneOf(FILTERS))


class RetrySchema(ApiSchema):
    retried = fields.Integer(metadata={"description": "Failed recipients sent again (all of them, whatever the code)"})
    broadcast = fields.Nested(BroadcastSchema)
