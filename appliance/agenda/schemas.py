from datetime import timezone

from marshmallow import fields, validate

from appliance.agenda.models import STATUSES
from appliance.core.schema import ApiSchema, IsoDateTime, Text, UuidString


class AppointmentSchema(ApiSchema):
    id = fields.String()
    title = fields.String()
    contact_id = fields.String(allow_none=True)
    conversation_id = fields.String(allow_none=True)
    assignee_user_id = fields.String(allow_none=True)
    start_at = IsoDateTime(data_key="start")
    end_at = IsoDateTime(data_key="end")
    notes = fields.String(allow_none=True)
    status = fields.String(metadata={"description": "BOOKED, CANCELLED or DONE"})
    sync_state = fields.String(allow_none=True, metadata={
        "description": "The connected calendar: pending (not told yet), failed (see syncError), null (in step or not connected)"})
    sync_error = fields.String(allow_none=True)
    provider_event_id = fields.String(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class AppointmentCreateSchema(ApiSchema):
    title = Text(required=True, min_length=1, max_length=200)
    contact_id = UuidString(allow_none=True)
    conversation_id = UuidString(allow_none=True)
    assignee_user_id = UuidString(allow_none=True)
    start_at = fields.AwareDateTime(data_key="start", required=True, default_timezone=timezone.utc,
                                    metadata={"description": "ISO 8601; without an offset: UTC"})
    end_at = fields.AwareDateTime(data_key="end", required=True, default_timezone=timezone.utc)
    notes = Text(max_length=2000, multiline=True, allow_none=True)
    status = fields.String(validate=validate.OneOf(STATUSES), metadata={"description": "Default BOOKED"})


class AppointmentPatchSchema(AppointmentCreateSchema):
    """Used as AppointmentPatchSchema(partial=True): any of the fields, at least one."""
    min_fields = 1


class AppointmentArgsSchema(ApiSchema):
    from_ = fields.AwareDateTime(data_key="from", load_default=None, default_timezone=timezone.utc, attribute="start")
    to = fields.AwareDateTime(load_default=None, default_timezone=timezone.utc, attribute="end")
    status = fields.String(load_default=None, validate=validate.OneOf(STATUSES))


class SlotSchema(ApiSchema):
    start = IsoDateTime()
    end = IsoDateTime()


class SlotsSchema(ApiSchema):
    date = fields.Date()
    duration_min = fields.Integer()
    timezone = fields.String()
    busy_checked = fields.Boolean(metadata={"description": "false: the connected calendar could not be asked"})
    hours_set = fields.Boolean(metadata={"description": "false: the organization has no business hours (no slots)"})
    slots = fields.List(fields.Nested(SlotSchema))


class SlotsArgsSchema(ApiSchema):
    date = fields.Date(required=True, metadata={"description": "YYYY-MM-DD, the organization's date"})
    duration_min = fields.Integer(load_default=30, validate=validate.Range(5, 480))


class FeedTokenSchema(ApiSchema):
    url = fields.String(metadata={"description": "The feed's address; shown once (only its hash is kept)"})
    created_at = IsoDateTime()


class CalendarStatusSchema(ApiSchema):
    connected = fields.Boolean()
    provider = fields.String()
    account = fields.String(allow_none=True)
    push_enabled = fields.Boolean()
    block_busy_enabled = fields.Boolean()
    last_sync_at = IsoDateTime(allow_none=True)
    last_error = fields.String(allow_none=True, metadata={"description": "Why it disconnected or what failed last"})
    available = fields.Boolean(metadata={"description": "false: this appliance has no Google OAuth client configured"})


class CalendarConnectSchema(ApiSchema):
    url = fields.String(metadata={"description": "Google's consent page; the state in it lasts 10 minutes"})


class CalendarPatchSchema(ApiSchema):
    min_fields = 1
    push_enabled = fields.Boolean()
    block_busy_enabled = fields.Boolean()
