from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime


class ReminderChannelsSchema(ApiSchema):
    email = fields.Boolean()
    push = fields.Boolean()
    inbox = fields.Boolean()


class ReminderEventsSchema(ApiSchema):
    shift_start = fields.Boolean()
    shift_end = fields.Boolean()
    missed_start = fields.Boolean()


class ShiftReminderSettingsSchema(ApiSchema):
    enabled = fields.Boolean()
    channels = fields.Dict(metadata={"description": "{email, push, inbox} booleans"})
    events = fields.Dict(metadata={"description": "{shiftStart, shiftEnd, missedStart} booleans"})
    shift_start_lead_min = fields.Integer()
    shift_end_lead_min = fields.Integer()
    updated_at = IsoDateTime(allow_none=True)


class ShiftReminderPutSchema(ApiSchema):
    enabled = fields.Boolean()
    channels = fields.Nested(ReminderChannelsSchema)
    events = fields.Nested(ReminderEventsSchema)
    shift_start_lead_min = fields.Integer(validate=validate.Range(min=0, max=120))
    shift_end_lead_min = fields.Integer(validate=validate.Range(min=0, max=120))


class ShiftReminderSentSchema(ApiSchema):
    kind = fields.String()
    channels = fields.List(fields.String(), metadata={"description": "Where it went: email, push, inbox"})
    text = fields.String()
    sent_at = IsoDateTime()
