from datetime import timedelta

from marshmallow import fields, validate

from appliance.core import clock
from appliance.core.schema import ApiSchema, IsoDateTime

WINDOW = timedelta(hours=24)


class ConversationSchema(ApiSchema):
    id = fields.String()
    status = fields.String(metadata={"description": "open, closed or snoozed"})
    phone_number_id = fields.String(attribute="phone_number_pk", metadata={"description": "Our id of the business number"})
    contact_id = fields.String()
    assignee_user_id = fields.String(allow_none=True)
    unread = fields.Boolean()
    pinned = fields.Boolean()
    last_message_at = IsoDateTime()
    last_inbound_at = IsoDateTime(allow_none=True, metadata={"description": "The customer's last message"})
    window_expires_at = fields.Function(
        lambda c: clock.iso(c.last_inbound_at + WINDOW) if c.last_inbound_at else None, dump_only=True,
        metadata={"description": "End of the 24-hour window in which any message type may be sent"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ConversationPageSchema(ApiSchema):
    items = fields.List(fields.Nested(ConversationSchema))
    next_cursor = fields.String(allow_none=True)


class ChatMessageArgsSchema(ApiSchema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    before = fields.String(load_default=None, validate=validate.Length(max=500),
                           metadata={"description": "nextCursor of the previous page: older messages"})
