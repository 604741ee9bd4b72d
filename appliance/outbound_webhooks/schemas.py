from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime, PageArgsSchema, Text, UuidString
from appliance.outbound_webhooks import envelopes, service

_THRESHOLD = validate.Range(min=service.THRESHOLD_RANGE[0], max=service.THRESHOLD_RANGE[1])


class WebhookSchema(ApiSchema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    format = fields.String(metadata={"enum": list(envelopes.FORMATS)})
    active = fields.Boolean()
    unanswered_threshold_minutes = fields.Integer()
    phone_number_ids = fields.List(fields.String())
    agent_statuses = fields.List(fields.String())
    health = fields.Function(lambda w: service.health(w), metadata={
        "enum": ["ok", "failing", "disabled"], "description": "failing: no event accepted for a day"})
    disabled_reason = fields.String(allow_none=True, metadata={
        "description": "gone: the receiver answered 410 and the webhook was turned off"})
    failure_count = fields.Integer(metadata={"description": "Failed attempts since the last success"})
    failing_since = IsoDateTime(allow_none=True)
    last_delivery_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()
    updated_at = IsoDateTime()


class WebhookCreateSchema(ApiSchema):
    url = Text(required=True, min_length=1, max_length=2000)
    events = fields.List(Text(min_length=1, max_length=60), required=True,
                         validate=validate.Length(min=1, max=len(envelopes.SUBSCRIBABLE) * 2),
                         metadata={"description": "Event names: " + ", ".join(envelopes.SUBSCRIBABLE)})
    format = fields.String(load_default=None, validate=validate.OneOf(envelopes.FORMATS), metadata={
        "description": "Found from the URL when absent: TEAMCHAT for Slack, Google Chat, Teams workflows and Mattermost's "
                       "/hooks/<26-character id>; GENERIC for everything else (Zapier, n8n, Make included)"})
    unanswered_threshold_minutes = fields.Integer(load_default=None, validate=_THRESHOLD)
    phone_number_ids = fields.List(UuidString(), load_default=None, validate=validate.Length(max=100))
    agent_statuses = fields.List(fields.String(validate=validate.OneOf(service.AGENT_STATUSES)), load_default=None,
                                 validate=validate.Length(max=len(service.AGENT_STATUSES)))


class WebhookUpdateSchema(ApiSchema):
    url = Text(min_length=1, max_length=2000)
    events = fields.List(Text(min_length=1, max_length=60), validate=validate.Length(min=1, max=len(envelopes.SUBSCRIBABLE) * 2))
    format = fields.String(validate=validate.OneOf(envelopes.FORMATS))
    active = fields.Boolean()
    unanswered_threshold_minutes = fields.Integer(validate=_THRESHOLD)
    phone_number_ids = fields.List(UuidString(), validate=validate.Length(max=100))
    agent_statuses = fields.List(fields.String(validate=validate.OneOf(service.AGENT_STATUSES)),
                                 validate=validate.Length(max=len(service.AGENT_STATUSES)))


class WebhookSecretSchema(ApiSchema):
    secret = fields.String(metadata={"description": "whsec_...: verify signatures with it (Standard Webhooks)"})


class WebhookAttemptSchema(ApiSchema):
    number = fields.Integer()
    outcome = fields.String(metadata={"enum": ["delivered", "failed", "interrupted"]})
    started_at = IsoDateTime()
    duration_ms = fields.Integer(allow_none=True)
    response_status = fields.Integer(allow_none=True)
    response_body = fields.String(allow_none=True)
    error = fields.String(allow_none=True)
    request_headers = fields.Dict(allow_none=True)


class WebhookDeliverySchema(ApiSchema):
    id = fields.String()
    webhook_id = fields.String()
    event_id = fields.String()
    event_type = fields.String()
    status = fields.String(metadata={"enum": list(service.DELIVERY_FILTERS)})
    attempt = fields.Integer(metadata={"description": "Attempts made"})
    request_body = fields.String()
    response_status = fields.Integer(allow_none=True)
    response_body = fields.String(allow_none=True, metadata={"description": "The first 2 KB"})
    duration_ms = fields.Integer(allow_none=True)
    error = fields.String(allow_none=True, metadata={"description": "What went wrong, in words (timeout, refused...)"})
    next_attempt_at = IsoDateTime(allow_none=True)
    delivered_at = IsoDateTime(allow_none=True)
    created_at = IsoDateTime()


class WebhookDeliveryDetailSchema(WebhookDeliverySchema):
    attempts = fields.List(fields.Nested(WebhookAttemptSchema))


class WebhookDeliveryPageSchema(ApiSchema):
    items = fields.List(fields.Nested(WebhookDeliverySchema))
    next_cursor = fields.String(allow_none=True)


class WebhookDeliveryArgsSchema(PageArgsSchema):
    status = fields.String(load_default=None, validate=validate.OneOf(service.DELIVERY_FILTERS))
    event_type = fields.String(load_default=None, validate=validate.OneOf(envelopes.SUBSCRIBABLE))
