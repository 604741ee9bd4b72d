from datetime import timezone

from marshmallow import ValidationError, fields, validate, validates_schema

from appliance.core import clock
from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text, UuidString
from appliance.conversations.inbox import STATUSES
from appliance.conversations.inbox_settings import INBOX_TABS
from appliance.conversations.recording import window_expires_at

class _ContactBriefSchema(ApiSchema):
    id = fields.String()
    wa_id = fields.String(allow_none=True)
    name = fields.Function(lambda c: c.name or c.profile_name or (f"+{c.wa_id}" if c.wa_id else c.user_id),
                           metadata={"description": "The name to show: ours, else the profile's, else the number"})


class _TagBriefSchema(ApiSchema):
    id = fields.String()
    name = fields.String()
    color = fields.String()


class ConversationSchema(ApiSchema):
    id = fields.String()
    status = fields.String(metadata={"description": "open, closed or snoozed"})
    channel = fields.String(metadata={"description": "whatsapp, or webchat: a visitor of the business's website, "
                                                     "in the inbox of the widget's number"})
    phone_number_pk = fields.String(data_key="phoneNumberId", metadata={"description": "Our id of the business number"})
    contact_id = fields.String()
    contact = fields.Nested(_ContactBriefSchema, allow_none=True, dump_default=None)
    assignee_user_id = fields.String(allow_none=True)
    tags = fields.List(fields.Nested(_TagBriefSchema), dump_default=[])
    category = fields.String(allow_none=True)
    resolution = fields.String(allow_none=True)
    handoff_pending = fields.Boolean(metadata={"description": "A person was asked for: automation stays silent"})
    handoff_reason = fields.String(allow_none=True)
    handoff_detail = fields.String(allow_none=True)
    handoff_requested_at = IsoDateTime(allow_none=True)
    bot_agent_id = fields.String(allow_none=True, metadata={"description": "The AI agent fixed for it; null: the router decides"})
    unread = fields.Boolean()
    pinned = fields.Boolean()
    snoozed_until = IsoDateTime(allow_none=True)
    closed_at = IsoDateTime(allow_none=True)
    preview = fields.String(allow_none=True, metadata={"description": "The last message, as one line"})
    awaiting_reply_since = IsoDateTime(allow_none=True, metadata={
        "description": "The customer's oldest message no person has answered yet"})
    last_message_at = IsoDateTime()
    last_inbound_at = IsoDateTime(allow_none=True, metadata={"description": "The customer's last message"})
    window_expires_at = fields.Function(
        lambda c: clock.iso(window_expires_at(c.last_inbound_at)), dump_only=True,
        metadata={"description": "End of the 24-hour window in which any message type may be sent"})
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class ConversationPageSchema(ApiSchema):
    items = fields.List(fields.Nested(ConversationSchema))
    next_cursor = fields.String(allow_none=True)


def _assignee(value: str) -> None:
    if value in ("me", "none"):
        return
    try:
        UuidString()._deserialize(value, None, None)
    except ValidationError:
        raise ValidationError("A user id, \"me\" or \"none\" (unassigned).") from None


class ConversationListArgsSchema(PageArgsSchema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    phone_number_pk = UuidString(data_key="phoneNumberId")
    assignee_user_id = fields.String(validate=_assignee, metadata={
        "description": "A user id, \"me\" (the caller) or \"none\" (unassigned)",
        "pattern": "^(me|none|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"})
    tag_id = UuidString()
    unread_only = fields.Boolean(load_default=False)
    handoff_pending = fields.Boolean()
    search = Text(max_length=100, metadata={"description": "Part of the contact's name or number"})
    resolution_outcome = Text(max_length=100)


class UnreadCountsArgsSchema(ApiSchema):
    phone_number_pk = UuidString(data_key="phoneNumberId")


class UnreadCountsSchema(ApiSchema):
    open = fields.Integer()
    snoozed = fields.Integer()
    closed = fields.Integer()
    total = fields.Integer()
    mine = fields.Integer(metadata={"description": "Unread open conversations assigned to the caller"})
    unassigned = fields.Integer(metadata={"description": "Unread open conversations nobody is assigned to"})


class MessagingSettingsSchema(ApiSchema):
    read_receipts = fields.Boolean(metadata={"description": "Opening a conversation tells the customer it was read"})
    typing_indicator = fields.Boolean(metadata={"description": "Show the customer \"typing…\" while an agent writes"})
    inbox_tabs = fields.List(fields.String(validate=validate.OneOf(INBOX_TABS)),
                             validate=validate.Length(min=1, max=len(INBOX_TABS)))


class WorkloadSettingsSchema(ApiSchema):
    sla_minutes = fields.Integer(validate=validate.Range(min=1, max=1440), metadata={
        "description": "A first answer later than this is late"})
    stale_minutes = fields.Integer(validate=validate.Range(min=5, max=43200), metadata={
        "description": "An open conversation without activity this long is stale"})


class NotificationSettingsSchema(ApiSchema):
    delay_email_enabled = fields.Boolean()
    delay_minutes = fields.Integer(validate=validate.Range(min=1, max=1440), metadata={
        "description": "E-mail when a customer has waited this long for a person"})
    recipients = fields.String(validate=validate.OneOf(("assignee", "admins")), metadata={
        "description": "assignee (the admins when nobody is assigned) or admins"})


class StatusChangeSchema(ApiSchema):
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    snoozed_until = fields.AwareDateTime(default_timezone=timezone.utc, metadata={"description": "With snoozed: when it opens again"})
    category = Text(max_length=100, allow_none=True, metadata={"description": "With closed"})
    resolution = Text(max_length=100, allow_none=True, metadata={"description": "With closed: the outcome"})


class CategorizeSchema(ApiSchema):
    min_fields = 1  # documented as minProperties; the check below says which
    category = Text(max_length=100, allow_none=True)
    resolution = Text(max_length=100, allow_none=True)

    @validates_schema
    def _something(self, data, **_):
        if not data:
            raise ValidationError("Give category, resolution or both.", "_schema")


class HandoffSchema(ApiSchema):
    reason = Text(max_length=200, load_default=None)
    detail = Text(max_length=1000, load_default=None, multiline=True)


class AssigneeSchema(ApiSchema):
    user_id = UuidString(required=True, allow_none=True, metadata={"description": "A member; null releases it"})


class TagRefSchema(ApiSchema):
    tag_id = UuidString(required=True)


class NoteCreateSchema(ApiSchema):
    body = Text(required=True, min_length=1, max_length=4000, multiline=True)


class NoteSchema(ApiSchema):
    id = fields.String()
    conversation_id = fields.String()
    author_user_id = fields.String(allow_none=True)
    body = fields.String()
    created_at = IsoDateTime()


class _Load(ApiSchema):
    open = fields.Integer()
    waiting = fields.Integer(metadata={"description": "Waiting for a person's answer"})
    overdue = fields.Integer(metadata={"description": "Waiting longer than the SLA"})
    stale = fields.Integer(metadata={"description": "No activity for longer than the staleness threshold"})


class _Performance(ApiSchema):
    replies = fields.Integer(metadata={"description": "First answers to a waiting customer"})
    late_replies = fields.Integer()
    closed = fields.Integer()
    avg_response_seconds = fields.Integer(allow_none=True)


class _AgentLoad(_Load):
    user_id = fields.String()
    name = fields.String()
    email = fields.String()
    role = fields.String()
    recent = fields.Nested(_Performance)


class WorkloadSchema(ApiSchema):
    settings = fields.Nested(WorkloadSettingsSchema)
    recent_days = fields.Integer()
    agents = fields.List(fields.Nested(_AgentLoad))
    unassigned = fields.Nested(_Load)


class AgentDetailArgsSchema(ApiSchema):
    days = fields.Integer(validate=validate.Range(min=1, max=366), metadata={
        "description": "Without from: the days up to to (default 7)"})
    from_ = fields.Date(data_key="from", metadata={
        "description": "YYYY-MM-DD; not after to, and the range covers at most 366 days (400 validation_failed)"})
    to = fields.Date(metadata={"description": "YYYY-MM-DD, included (default: today)"})


class _DayPerformance(_Performance):
    date = fields.String()


class AgentDetailSchema(_Load):
    user_id = fields.String()
    name = fields.String()
    email = fields.String()
    from_ = fields.String(data_key="from", attribute="from")
    to = fields.String()
    totals = fields.Nested(_Performance)
    days = fields.List(fields.Nested(_DayPerformance))


class TrendArgsSchema(ApiSchema):
    days = fields.Integer(load_default=30, validate=validate.Range(min=1, max=366))


class TrendDaySchema(ApiSchema):
    date = fields.String()
    incoming = fields.Integer(metadata={"description": "Conversations that came in: new, or reopened by the customer"})
    closed = fields.Integer()
    inbound_messages = fields.Integer()


class HeatmapArgsSchema(TrendArgsSchema):
    metric = fields.String(load_default="volume", validate=validate.OneOf(("volume", "late", "avgResponse")))


class HeatmapSchema(ApiSchema):
    metric = fields.String()
    days = fields.Integer()
    timezone = fields.String()
    weekdays = fields.List(fields.List(fields.Integer(allow_none=True)), metadata={
        "description": "7 rows (Monday first) of 24 hours in the organization's timezone"})
