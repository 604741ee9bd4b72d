from marshmallow import fields, validate

from appliance.core.schema import ApiSchema, IsoDateTime

PROBLEMS = ("loopback", "private_address", "not_https")


class PublicAddressSchema(ApiSchema):
    base_url = fields.String(metadata={"description": "Where every absolute link starts (scheme://host[:port])"})
    source = fields.String(metadata={"enum": ["setting", "console", "default"], "description": (
        "setting: APPLIANCE_BASE_URL decides; console: stored by an administrator; default: "
        "http://127.0.0.1:<the port served>")})
    problems = fields.List(fields.String(metadata={"enum": list(PROBLEMS)}), metadata={"description": (
        "What keeps customers, Meta or browsers from using it: loopback (only this machine), "
        "private_address (only this network), not_https (Meta needs https; browsers need it for push and passkeys)")})
    checked_at = IsoDateTime()


class PublicAddressUpdateSchema(ApiSchema):
    base_url = fields.String(required=True, validate=validate.Length(max=2000), metadata={
        "description": "An absolute http(s) address without path, query or fragment, at most 300 characters", "example": "https://tienda.example.com"})

