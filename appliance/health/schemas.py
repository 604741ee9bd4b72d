from marshmallow import fields

from appliance.core.schema import ApiSchema, IsoDateTime


class LivenessSchema(ApiSchema):
    status = fields.String()
    uptime_seconds = fields.Float()


class ReadinessSchema(ApiSchema):
    status = fields.String()
    checks = fields.Dict(keys=fields.String(), values=fields.String())


class HealthSchema(ApiSchema):
    status = fields.String()
    service = fields.String()
    version = fields.String()
    timestamp = IsoDateTime()
