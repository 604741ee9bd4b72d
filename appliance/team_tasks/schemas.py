from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text, UuidString

STATUSES = ("OPEN", "DONE")
ORIGINS = ("USER", "BOT", "API")


class TaskSchema(ApiSchema):
    id = fields.String()
    title = fields.String()
    detail = fields.String()
    conversation_id = fields.String(allow_none=True)
    contact_id = fields.String(allow_none=True)
    assignee_user_id = fields.String(allow_none=True)
    due_at = IsoDateTime(allow_none=True)
    status = fields.String()
    origin = fields.String(metadata={"description": "Who made it: USER (a person), BOT, API (a key or an application)"})
    created_by_user_id = fields.String(allow_none=True)
    done_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class TaskPageSchema(ApiSchema):
    items = fields.List(fields.Nested(TaskSchema))
    next_cursor = fields.String(allow_none=True)


class TaskUpdateSchema(ApiSchema):
    title = Text(min_length=1, max_length=200)
    detail = Text(max_length=4096, multiline=True)
    conversation_id = UuidString(allow_none=True)
    contact_id = UuidString(allow_none=True)
    assignee_user_id = UuidString(allow_none=True, metadata={"description": "An active member; null: nobody"})
    due_at = fields.AwareDateTime(allow_none=True, default_timezone=None)
    status = fields.String(validate=validate.OneOf(STATUSES))


class TaskCreateSchema(TaskUpdateSchema):
    title = Text(required=True, min_length=1, max_length=200)


class TaskArgsSchema(PageArgsSchema):
    status = fields.String(load_default=None, validate=validate.OneOf(STATUSES))
    assignee_user_id = fields.String(load_default=None, metadata={
        "description": "A user id, or \"me\"",
        "pattern": "^(me|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"},
        validate=validate.Regexp(r"^(me|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"))
    origin = fields.String(load_default=None, validate=validate.OneOf(ORIGINS))
