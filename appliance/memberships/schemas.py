from marshmallow import fields

from appliance.core.schema import ApiSchema, IsoDateTime
from appliance.roles.schemas import RoleSchema


class MembershipSchema(ApiSchema):
    id = fields.String()
    user_id = fields.String()
    email = fields.String()
    name = fields.String()
    role = fields.Nested(RoleSchema)
    waba_ids = fields.List(fields.String(), metadata={"description": "Business accounts visible; empty = all"})
    suspended = fields.Boolean()
    preferences = fields.Dict()
    created_at = IsoDateTime()
