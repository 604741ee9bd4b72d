from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, UuidString
from appliance.templates.components import expected_variables

STATUSES = ("APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED", "IN_APPEAL", "PENDING_DELETION", "DELETED",
            "LIMIT_EXCEEDED", "ARCHIVED")
CATEGORIES = ("MARKETING", "UTILITY", "AUTHENTICATION")


def _variables(template) -> dict:
    expected = expected_variables(template.components or [])
    return {"header": expected["header"], "body": expected["body"],
            "buttons": [{"index": index, "type": kind} for index, kind in expected["buttons"]]}


class TemplateSchema(ApiSchema):
    id = fields.String(metadata={"description": "This appliance's id (what messages' templateId takes)"})
    business_account_id = fields.String(attribute="waba_pk")
    template_id = fields.String(allow_none=True, metadata={"description": "The network's id"})
    name = fields.String()
    language = fields.String()
    category = fields.String()
    status = fields.String(metadata={"description": "As the network reports it: " + ", ".join(STATUSES)})
    parameter_format = fields.String(metadata={"description": "POSITIONAL ({{1}}) or NAMED ({{order_id}})"})
    components = fields.List(fields.Dict(), metadata={"description": "The network's component objects"})
    variables = fields.Function(_variables, dump_only=True, metadata={
        "description": "What a send must fill: header {format, count}, body placeholders, buttons taking a value"})
    rejected_reason = fields.String(allow_none=True)
    synced_at = IsoDateTime()
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class TemplatePageSchema(ApiSchema):
    items = fields.List(fields.Nested(TemplateSchema))
    next_cursor = fields.String(allow_none=True)


class TemplateArgsSchema(PageArgsSchema):
    business_account_id = UuidString(load_default=None)
    status = fields.String(load_default=None, validate=validate.OneOf(STATUSES))
    name = fields.String(load_default=None, validate=validate.Length(min=1, max=512))


class TemplateCreateSchema(ApiSchema):
    business_account_id = UuidString(required=True, metadata={"description": "The connected business account"})
    name = fields.String(required=True, validate=validate.Regexp(
        r"^[a-z0-9_]{1,512}$", error="Lower-case letters, digits and underscores (at most 512)."))
    language = fields.String(required=True, validate=validate.Regexp(
        r"^[a-z]{2,3}(_[A-Z]{2})?$", error="A language code such as es, en_US or pt_BR."))
    category = fields.String(required=True, validate=validate.OneOf(CATEGORIES))
    components = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1, max=4),
                             metadata={"description": "HEADER, BODY (required), FOOTER and BUTTONS, as the network takes them"})
    parameter_format = fields.String(load_default="POSITIONAL", validate=validate.OneOf(("POSITIONAL", "NAMED")))
    allow_category_change = fields.Boolean(load_default=False)


class TemplateSyncSchema(ApiSchema):
    business_account_id = UuidString(load_default=None, metadata={"description": "Only this account (default: all)"})


class SyncErrorSchema(ApiSchema):
    business_account_id = fields.String()
    graph_code = fields.Integer()
    detail = fields.String()


class SyncSummarySchema(ApiSchema):
    business_accounts = fields.Integer(metadata={"description": "Accounts read from the network"})
    templates = fields.Integer(metadata={"description": "Templates the network listed"})
    added = fields.Integer()
    changed = fields.Integer()
    removed = fields.Integer(metadata={"description": "Deleted on the network's side, so here too"})
    errors = fields.List(fields.Nested(SyncErrorSchema), metadata={"description": "Accounts the network refused"})
